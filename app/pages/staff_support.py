"""The support tools of the staff console (docs/support.md): /staff/support finds a member by
e-mail, name, id, order number or the last four digits of an IBAN; /staff/support/members/{id}
shows the account and support's actions on it, each with a reason (state/staff_support.py)."""

import reflex as rx

from actions.support import GRANTED, TAKEN_BACK
from app.pages.registry import page
from app.pages.staff_console import NOT_FOUND, found, staff_load
from components.decision_fields import choice_field
from components.forms import (
    field_error,
    form_error,
    notice,
    post_form,
    submit_button,
    text_area_field,
)
from components.i18n import local_date, money, number, t, t_choice
from components.staff_shell import staff_shell
from components.staff_tables import card, empty_line, facts, pager, row_path, staff_table, when
from models.moderation_labels import ACCOUNT_STATUS_LABELS
from models.order_labels import ORDER_STATUS_LABELS, REFUND_STATUS_LABELS
from models.staff_reason import REASON_LIMIT
from models.support_form import CREDITS_LIMIT, QUERY_LIMIT, SearchKey, SupportAction
from state.staff_support import StaffSupportMemberState, StaffSupportSearchState
from translations.catalog import N_

SEARCH_KEY_LABELS = {
    SearchKey.EMAIL: N_("E-mail address"),
    SearchKey.NAME: N_("Name"),
    SearchKey.ID: N_("Member id"),
    SearchKey.ORDER: N_("Order number"),
    SearchKey.IBAN: N_("Last four digits of the IBAN"),
}
ACTION_LABELS = {
    SupportAction.RESEND_ACTIVATION: N_("Resend the activation mail"),
    SupportAction.CHANGE_EMAIL: N_("Change the e-mail address"),
    SupportAction.END_SESSIONS: N_("End all sessions"),
    SupportAction.WITHDRAW: N_("Withdraw an order with the pro-rata refund"),
    SupportAction.LIFT_SDD_BLOCK: N_("Lift the direct-debit block"),
    SupportAction.GRANT_CREDITS: N_("Grant credits"),
    SupportAction.TAKE_CREDITS: N_("Take back credits"),
    SupportAction.DELETE: N_("Start the account's deletion (14 days)"),
}
LEDGER_REASON_LABELS = {
    "signup": N_("Sign-up gift"),
    "purchase": N_("Purchase"),
    "refund": N_("Withdrawal"),
    "refund undone": N_("Refund failed, credits back"),
    "chargeback": N_("Chargeback"),
    "text": N_("Message"),
    "gift": N_("Gift"),
    GRANTED: N_("Granted by support"),
    TAKEN_BACK: N_("Taken back by support"),
}
MANDATE_STATUS_LABELS = {"draft": N_("Draft"), "signed": N_("Signed"), "revoked": N_("Revoked")}
NOTICE_TOPIC_LABELS = {"chat": N_("New message"), "likes": N_("New likes"), "match": N_("Match")}
BY_LABELS = {"member": N_("Member"), "support": N_("Support")}


def _known(labels: dict, value: rx.Var) -> rx.Var[str]:
    """The label of a value, or the value itself when the list has none (an older code)."""
    return rx.Var(f"({t_choice(labels, value.to(str))} ?? {value.to(str)})").to(str)


# ----- /staff/support -----


def _search_form() -> rx.Component:
    S = StaffSupportSearchState
    keys = rx.fragment(*(rx.el.option(t(SEARCH_KEY_LABELS[k]), value=k) for k in SearchKey))
    return post_form(
        rx.el.div(
            choice_field(N_("Search by"), "key", keys, S.errors),
            rx.el.label(
                rx.el.span(t(N_("Search for")), class_name="field-label"),
                rx.input(name="query", max_length=QUERY_LIMIT, required=True, data_testid="query"),
                field_error(S.errors, "query"),
            ),
            rx.button(t(N_("Search")), type="submit", size="2", data_testid="search"),
            class_name="staff-filters",
        ),
        on_submit=S.search,
        data_testid="support-search",
    )


def _found_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(rx.link("#", row["id"].to(str), href=row_path("staff-support-member", row["id"]))),
        rx.el.td(row["name"]),
        rx.el.td(row["email"]),
        rx.el.td(t_choice(ACCOUNT_STATUS_LABELS, row["status"].to(str))),
        rx.el.td(when(row["signup_date"])),
    )


@page("staff-support", on_load=staff_load(StaffSupportSearchState.load))
def staff_support_page() -> rx.Component:
    S = StaffSupportSearchState
    headers = (N_("Member"), N_("Name"), N_("E-mail address"), N_("Status"), N_("Signed up"))
    return staff_shell(
        "staff-support",
        rx.el.div(
            _search_form(),
            rx.cond(
                S.searched,
                rx.fragment(
                    staff_table(headers, S.rows, _found_row, "support-found"),
                    empty_line(S.rows, text=NOT_FOUND),
                ),
            ),
        ),
    )


# ----- /staff/support/members/{id} -----


def _account() -> rx.Component:
    M = StaffSupportMemberState.member
    return card(
        N_("Account"),
        facts(
            (N_("Name"), M["name"]),
            (N_("E-mail address"), rx.el.span(M["email"], data_testid="member-email")),
            (N_("Status"), t_choice(ACCOUNT_STATUS_LABELS, M["status"].to(str))),
            (N_("Language"), M["language"].to(str).upper()),
            (N_("Signed up"), when(M["signup_date"])),
            (N_("Last log-in"), rx.cond(M["last_login"] != "", when(M["last_login"]), "—")),
            (N_("Erased on"), rx.cond(M["erase_on"] != "", local_date(M["erase_on"]), "—")),
            (N_("Credits"), rx.el.span(number(M["credits"].to(int)), data_testid="member-credits")),
            (
                N_("Direct debit"),
                rx.cond(M["sdd_blocked"].to(bool), t(N_("Blocked")), t(N_("Allowed"))),
            ),
        ),
        rx.link(
            t(N_("Reports and decisions")),
            " (",
            number(StaffSupportMemberState.reports),
            " / ",
            number(StaffSupportMemberState.decisions),
            ")",
            href=row_path("staff-members-id", M["id"]),
            data_testid="moderation-history",
        ),
    )


def _place(row: rx.Var[dict]) -> rx.Component:
    return rx.el.td(rx.cond(row["place"] != "", row["place"], "—"))


def _session_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(when(row["created_at"])),
        rx.el.td(row["device"]),
        _place(row),
        rx.el.td(row["address"]),
    )


def _login_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(when(row["at"])), rx.el.td(row["device"]), _place(row), rx.el.td(row["address"])
    )


def _ledger_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(when(row["at"])),
        rx.el.td(number(row["amount"].to(int)), class_name="numeric"),
        rx.el.td(_known(LEDGER_REASON_LABELS, row["reason"])),
        rx.el.td(row["note"]),
    )


def _order_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(row["number"]),
        rx.el.td(when(row["created_at"])),
        rx.el.td(_known(ORDER_STATUS_LABELS, row["status"])),
        rx.el.td(number(row["credits"].to(int))),
        rx.el.td(money(row["cents"], row["currency"])),
        rx.el.td(row["method"]),
    )


def _refund_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(row["number"]),
        rx.el.td(when(row["created_at"])),
        rx.el.td(money(row["cents"], row["currency"])),
        rx.el.td(number(row["credits"].to(int))),
        rx.el.td(_known(REFUND_STATUS_LABELS, row["status"])),
        rx.el.td(_known(BY_LABELS, row["requested_by"])),
    )


def _mandate_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(row["iban"], class_name="numeric"),
        rx.el.td(_known(MANDATE_STATUS_LABELS, row["status"])),
        rx.el.td(rx.cond(row["signed_at"] != "", when(row["signed_at"]), "—")),
        rx.el.td(row["reference"]),
    )


def _notice_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(when(row["sent_at"])), rx.el.td(_known(NOTICE_TOPIC_LABELS, row["topic"]))
    )


def _listed(title: str, headers: tuple[str, ...], rows: rx.Var, row, testid: str) -> rx.Component:
    return card(title, staff_table(headers, rows, row, testid), empty_line(rows))


def _action_form() -> rx.Component:
    S = StaffSupportMemberState
    actions = rx.fragment(
        rx.el.option("—", value=""),
        *(rx.el.option(t(ACTION_LABELS[a]), value=a) for a in SupportAction),
    )
    orders = rx.fragment(
        rx.el.option("—", value=""),
        rx.foreach(
            S.orders,
            lambda o: rx.cond(o["paid"].to(bool), rx.el.option(o["number"], value=o["id"].to(str))),
        ),
    )
    return card(
        N_("Actions"),
        post_form(
            rx.el.div(
                choice_field(N_("Action"), "action", actions, S.errors),
                choice_field(N_("Order (to withdraw)"), "order", orders, S.errors),
                rx.el.label(
                    rx.el.span(t(N_("Credits (to grant or take back)")), class_name="field-label"),
                    rx.input(name="credits", type="number", min=1, max=CREDITS_LIMIT),
                    field_error(S.errors, "credits"),
                ),
                rx.el.label(
                    rx.el.span(
                        t(N_("New e-mail address (to change it)")), class_name="field-label"
                    ),
                    rx.input(name="email", type="email", max_length=QUERY_LIMIT),
                    field_error(S.errors, "email"),
                ),
                text_area_field(
                    N_("Reason (kept in the audit log)"),
                    "reason",
                    S.errors,
                    rows=3,
                    max_length=REASON_LIMIT,
                    required=True,
                ),
                form_error(S.errors),
                rx.cond(S.done != "", notice(S.done, icon="check", data_testid="support-done")),
                submit_button(N_("Carry out"), S.busy, data_testid="support-act"),
                class_name="staff-form",
            ),
            on_submit=S.take_action,
            reset_on_submit=True,
            data_testid="support-form",
        ),
    )


def _member_view() -> rx.Component:
    S = StaffSupportMemberState
    where = (N_("When"), N_("Device"), N_("Place"), N_("Address"))
    return rx.el.div(
        rx.el.div(_account(), _action_form(), class_name="staff-grid"),
        rx.el.div(
            _listed(N_("Sessions"), where, S.sessions, _session_row, "support-sessions"),
            _listed(N_("Log-ins"), where, S.logins, _login_row, "support-logins"),
            class_name="staff-grid",
        ),
        card(
            N_("Credits ledger"),
            staff_table(
                (N_("When"), N_("Credits"), N_("Reason"), N_("Note")),
                S.ledger,
                _ledger_row,
                "support-ledger",
            ),
            empty_line(S.ledger),
            pager(S.page, S.has_next, S.ledger_go),
        ),
        _listed(
            N_("Orders"),
            (N_("Order"), N_("When"), N_("Status"), N_("Credits"), N_("Amount"), N_("Method")),
            S.orders,
            _order_row,
            "support-orders",
        ),
        _listed(
            N_("Refunds"),
            (N_("Order"), N_("When"), N_("Amount"), N_("Credits"), N_("Status"), N_("Asked by")),
            S.refunds,
            _refund_row,
            "support-refunds",
        ),
        rx.el.div(
            _listed(
                N_("Direct-debit mandates"),
                (N_("IBAN"), N_("Status"), N_("Signed"), N_("Reference")),
                S.mandates,
                _mandate_row,
                "support-mandates",
            ),
            _listed(
                N_("Notices sent"),
                (N_("When"), N_("Topic")),
                S.notices,
                _notice_row,
                "support-notices",
            ),
            class_name="staff-grid",
        ),
    )


@page("staff-support-member", on_load=staff_load(StaffSupportMemberState.load))
def staff_support_member_page() -> rx.Component:
    return staff_shell(
        "staff-support-member",
        found(
            StaffSupportMemberState.missing,
            # Drawn once the account arrived: an empty one has no fields to write.
            rx.cond(StaffSupportMemberState.member.contains("id"), _member_view()),
        ),
    )
