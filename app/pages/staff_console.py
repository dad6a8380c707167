"""The staff console's pages (docs/staff-console.md): the start page, the report queue and a
case with its evidence and the decision form, a member's history, the appeals queue and an
appeal, the transparency counters and the audit log. Each loads through the access check
(state/staff_access.py) first, then the shell's navigation, then its own data; every handler
behind them checks the role again (`@staff_event`)."""

import reflex as rx

from app.pages.registry import page
from components.decision_fields import choice_field, ground_fields
from components.forms import (
    form_error,
    native_select,
    native_select_class,
    post_form,
    submit_button,
    text_area_field,
)
from components.i18n import local_date, number, t, t_choice, tn
from components.member_card import country_name
from components.staff_shell import staff_shell
from components.staff_tables import (
    age,
    card,
    empty_line,
    facts,
    member_link,
    paged_table,
    row_path,
    staff_table,
    when,
)
from models.decision_form import ANSWER_LIMIT
from models.moderation import (
    SUSPENSION_DAYS,
    AppealStatus,
    CaseStatus,
    Measure,
    ReportCategory,
    ReportSource,
)
from models.moderation_labels import (
    ACCOUNT_STATUS_LABELS,
    APPEAL_STATUS_LABELS,
    CASE_STATUS_LABELS,
    CATEGORY_LABELS,
    CONTENT_LABELS,
    GROUND_TYPE_LABELS,
    MEASURE_LABELS,
    PHOTO_STATUS_LABELS,
    SOURCE_LABELS,
)
from models.routes import route_named
from state.staff_access import StaffAccessState
from state.staff_appeals import StaffAppealsState, StaffAppealState
from state.staff_audit import StaffAuditState
from state.staff_home import StaffHomeState
from state.staff_members import StaffMemberState
from state.staff_reports import StaffQueueState, StaffReportState
from state.staff_shell import StaffShellState
from state.staff_transparency import StaffTransparencyState
from translations.catalog import N_

MOSTLY_DISMISSED = N_("Mostly dismissed")
ASSIGN = N_("Assign to me")
ASSIGNED_TO_YOU = N_("Assigned to you")
ASSIGNED = N_("Assigned")
ALL = N_("All")
NOT_FOUND = N_("Nothing found.")
ANOTHER_MUST_DECIDE = N_("You took this decision: another moderator must decide on the appeal.")
REVERSED = N_("Reversed")  # the decision, reversed on appeal
NO_MEMBER = N_("This notice names no content of a member: it can only be dismissed.")


def staff_load(*events: rx.event.EventType) -> list:
    """A console page's on_load: the access check, the navigation, then the page's own."""
    return [StaffAccessState.check_access, StaffShellState.load, *events]


def nothing_found() -> rx.Component:
    return rx.el.p(t(NOT_FOUND), class_name="muted")


def found(missing: rx.Var[bool], content: rx.Component) -> rx.Component:
    """A console page's `content`, or "Nothing found." when the row it shows is not there."""
    return rx.cond(missing, nothing_found(), content)


def _label(labels: dict, value: rx.Var) -> rx.Var[str]:
    return t_choice(labels, value.to(str))


def _options(labels: dict, values) -> rx.Component:
    return rx.fragment(*(rx.el.option(t(labels[v]), value=v) for v in values))


# ----- /staff -----


def _home() -> rx.Component:
    S = StaffHomeState
    return rx.cond(
        S.moderates,
        rx.el.div(
            card(
                route_named("staff-reports").title,
                rx.link(
                    tn("{count} open case", "{count} open cases", S.open_reports),
                    href=route_named("staff-reports").path,
                    data_testid="home-open-reports",
                ),
            ),
            card(
                route_named("staff-appeals").title,
                rx.link(
                    tn("{count} open appeal", "{count} open appeals", S.open_appeals),
                    href=route_named("staff-appeals").path,
                ),
            ),
            class_name="staff-grid",
        ),
        rx.el.p(t(N_("Choose a tool above.")), class_name="muted"),
    )


@page("staff", on_load=staff_load(StaffHomeState.load))
def staff_home_page() -> rx.Component:
    return staff_shell("staff", _home())


# ----- /staff/reports -----


def _queue_row(row: rx.Var[dict]) -> rx.Component:
    S = StaffQueueState
    return rx.fragment(
        rx.el.td(rx.link(row["reference"], href=row_path("staff-reports-id", row["id"]))),
        rx.el.td(_label(CATEGORY_LABELS, row["category"])),
        rx.el.td(_label(SOURCE_LABELS, row["source"])),
        rx.el.td(_label(CONTENT_LABELS, row["content_type"])),
        rx.el.td(member_link(row["reported_id"], row["reported_name"])),
        rx.el.td(age(row["created_at"]), title=when(row["created_at"])),
        rx.el.td(
            rx.cond(
                row["assigned_to"].to(int) == 0,
                rx.button(
                    t(ASSIGN),
                    size="1",
                    variant="soft",
                    on_click=S.assign(row["id"].to(int)),
                    data_testid="assign",
                ),
                t(ASSIGNED),
            )
        ),
    )


def _queue_filters() -> rx.Component:
    S = StaffQueueState
    all_option = rx.el.option(t(ALL), value="")
    return rx.el.div(
        rx.el.label(
            rx.el.span(t("Category"), class_name="field-label"),
            native_select(
                rx.fragment(all_option, _options(CATEGORY_LABELS, list(ReportCategory))),
                S.category,
                S.set_category,
                size="1",
                testid="filter-category",
            ),
        ),
        rx.el.label(
            rx.el.span(t("Source"), class_name="field-label"),
            native_select(
                rx.fragment(all_option, _options(SOURCE_LABELS, list(ReportSource))),
                S.source,
                S.set_source,
                size="1",
                testid="filter-source",
            ),
        ),
        class_name="staff-filters",
    )


QUEUE_HEADERS = (
    N_("Reference"), N_("Category"), N_("Source"), N_("Content"), N_("Member"), N_("Age"),
    N_("Assigned"),
)  # fmt: skip


@page("staff-reports", on_load=staff_load(StaffQueueState.load))
def staff_reports_page() -> rx.Component:
    S = StaffQueueState
    return staff_shell(
        "staff-reports",
        rx.el.div(_queue_filters(), *paged_table(S, QUEUE_HEADERS, _queue_row, "report-queue")),
    )


# ----- /staff/reports/{id} -----


def _mark(text: str) -> rx.Component:
    return rx.el.span(t(text), class_name="staff-mark", data_testid="mostly-dismissed")


def _reporter(reporter: rx.Var[dict], reporter_id: rx.Var) -> rx.Component:
    return card(
        N_("Reporter"),
        rx.cond(
            reporter.contains("reports"),
            rx.el.div(
                member_link(reporter_id, rx.Var.create("")),
                " ",
                rx.cond(reporter["mostly_dismissed"].to(bool), _mark(MOSTLY_DISMISSED)),
                facts(
                    (N_("Reports made"), number(reporter["reports"].to(int))),
                    (N_("Decided"), number(reporter["decided"].to(int))),
                    (N_("Dismissed"), number(reporter["dismissed"].to(int))),
                ),
            ),
            rx.el.p(t(N_("Not reported by a member.")), class_name="muted"),
        ),
    )


def _content(content_type: rx.Var, evidence: rx.Var[str]) -> rx.Component:
    """The kind of content; for a photo, the photo itself (app/staff_api.evidence_photo: also
    once its member deleted it)."""
    photo = rx.el.a(rx.el.img(src=evidence, alt="", loading="lazy"), href=evidence)
    return rx.fragment(
        _label(CONTENT_LABELS, content_type),
        rx.cond(evidence != "", rx.el.div(photo, class_name="staff-photos")),
    )


def _case_facts() -> rx.Component:
    R = StaffReportState.report
    return card(
        N_("The case"),
        facts(
            (N_("Category"), _label(CATEGORY_LABELS, R["category"])),
            (N_("Source"), _label(SOURCE_LABELS, R["source"])),
            (N_("Content"), _content(R["content_type"], R["evidence_url"].to(str))),
            (N_("Status"), _label(CASE_STATUS_LABELS, R["status"])),
            (N_("Received on"), when(R["created_at"])),
            (N_("Explanation"), rx.el.span(R["text"], white_space="pre-wrap")),
            (N_("Address of the content"), R["url"]),
            (N_("Notifier"), rx.el.span(R["notifier_name"], " ", R["notifier_email"])),
        ),
        rx.cond(
            R["assigned_to"].to(int) == 0,
            rx.button(t(ASSIGN), size="1", variant="soft", on_click=StaffReportState.assign),
            rx.cond(
                R["assigned_to"].to(int) == StaffReportState.me,
                rx.el.p(t(ASSIGNED_TO_YOU), class_name="muted"),
                rx.el.p(t(ASSIGNED), class_name="muted"),
            ),
        ),
    )


def _country(code: rx.Var[str]) -> rx.Var[str]:
    """The country's name in the page's language ("NL" reads "Netherlands", "Niederlande")."""
    return rx.cond(code != "", country_name(code), "")


def _profile(profile: rx.Var[dict]) -> rx.Component:
    return card(
        N_("Profile"),
        rx.cond(
            profile.contains("id"),
            facts(
                (N_("Name"), member_link(profile["id"], profile["name"])),
                (N_("Age"), number(profile["age"].to(int))),
                (N_("Country"), _country(profile["country"].to(str))),
                (N_("City"), profile["city"]),
                (N_("About me"), rx.el.span(profile["about_me"], white_space="pre-wrap")),
                (N_("Account"), _label(ACCOUNT_STATUS_LABELS, profile["status"])),
                (N_("Member since"), when(profile["signup_date"])),
            ),
            nothing_found(),
        ),
    )


def _photo(photo: rx.Var[dict]) -> rx.Component:
    return rx.el.figure(
        rx.el.a(rx.el.img(src=photo["url"], alt="", loading="lazy"), href=photo["url"]),
        rx.el.figcaption(_label(PHOTO_STATUS_LABELS, photo["status"])),
        data_photo=photo["id"],
    )


def _photos() -> rx.Component:
    S = StaffReportState
    return card(
        N_("Photos"),
        rx.el.div(rx.foreach(S.photos, _photo), class_name="staff-photos"),
        empty_line(S.photos),
    )


def _message(message: rx.Var[dict]) -> rx.Component:
    return rx.el.li(
        rx.el.span(when(message["at"]), " · #", message["sender_id"], class_name="muted"),
        rx.el.div(message["body"], white_space="pre-wrap"),
        data_reported=message["reported"].to(str),
    )


def _snapshot() -> rx.Component:
    S = StaffReportState
    return rx.cond(
        S.snapshot.length() > 0,
        card(
            N_("The conversation when it was reported"),
            rx.el.ol(rx.foreach(S.snapshot, _message), class_name="staff-snapshot"),
            data_testid="snapshot",
        ),
    )


def _history_report(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(rx.link(row["reference"], href=row_path("staff-reports-id", row["id"]))),
        rx.el.td(_label(CATEGORY_LABELS, row["category"])),
        rx.el.td(_label(CONTENT_LABELS, row["content_type"])),
        rx.el.td(when(row["created_at"])),
        rx.el.td(rx.cond(row["measure"] != "", _label(MEASURE_LABELS, row["measure"]), "—")),
    )


def _decision(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(when(row["decided_at"])),
        rx.el.td(_label(MEASURE_LABELS, row["measure"])),
        rx.el.td(_label(GROUND_TYPE_LABELS, row["ground_type"]), " ", row["ground"]),
        rx.el.td(rx.cond(row["reversed"].to(bool), t(REVERSED), "")),
    )


def _history(reports: rx.Var, decisions: rx.Var, strikes: rx.Var[int]) -> rx.Component:
    return card(
        N_("History"),
        rx.el.p(tn("{count} strike", "{count} strikes", strikes), class_name="staff-mark-line"),
        staff_table(
            (N_("Reference"), N_("Category"), N_("Content"), N_("Received on"), N_("Decision")),
            reports,
            _history_report,
            "history-reports",
        ),
        staff_table(
            (N_("Decided"), N_("Measure"), N_("Ground"), N_("Appeal")),
            decisions,
            _decision,
            "history-decisions",
        ),
    )


def _decision_form(allowed: tuple[Measure, ...]) -> rx.Component:
    """The form with the measures `allowed`; none chosen at first, so that the moderator picks."""
    S = StaffReportState
    days = rx.fragment(
        rx.el.option("—", value=""),
        *(
            rx.el.option(tn("{count} day", "{count} days", d), value=str(d))
            for d in SUSPENSION_DAYS
        ),
    )
    measures = rx.fragment(rx.el.option("—", value=""), _options(MEASURE_LABELS, allowed))
    return card(
        N_("Decision"),
        post_form(
            rx.el.div(
                choice_field(N_("Measure"), "measure", measures, S.errors),
                choice_field(N_("Duration of a suspension"), "days", days, S.errors),
                ground_fields(S.errors),
                form_error(S.errors),
                submit_button(N_("Decide"), S.busy, data_testid="decide"),
                class_name="staff-form",
            ),
            on_submit=S.decide,
            data_testid="decision-form",
        ),
    )


def _case() -> rx.Component:
    S = StaffReportState
    return found(
        S.missing,
        rx.el.div(
            rx.el.div(
                _case_facts(),
                _reporter(S.reporter, S.report["reporter_id"]),
                class_name="staff-grid",
            ),
            rx.el.div(_profile(S.profile), _photos(), class_name="staff-grid"),
            _snapshot(),
            _history(S.reports, S.decisions, S.strikes),
            rx.cond(
                S.report["status"] == CaseStatus.OPEN,
                rx.cond(
                    S.report["reported_id"].to(int) > 0,
                    _decision_form(tuple(Measure)),
                    rx.fragment(
                        rx.el.p(t(NO_MEMBER), class_name="muted"),
                        _decision_form((Measure.DISMISS,)),
                    ),
                ),
            ),
        ),
    )


@page("staff-reports-id", on_load=staff_load(StaffReportState.load))
def staff_report_page() -> rx.Component:
    title = rx.fragment(t(N_("Case")), " ", StaffReportState.report["reference"].to(str))
    return staff_shell("staff-reports-id", _case(), title=title)


# ----- /staff/members/{id} -----


@page("staff-members-id", on_load=staff_load(StaffMemberState.load))
def staff_member_page() -> rx.Component:
    S = StaffMemberState
    return staff_shell(
        "staff-members-id",
        found(
            S.missing,
            rx.el.div(
                rx.el.div(
                    _profile(S.profile),
                    _reporter(S.reporter, S.profile["id"]),
                    class_name="staff-grid",
                ),
                _history(S.reports, S.decisions, S.strikes),
            ),
        ),
    )


# ----- /staff/appeals -----


def _appeal_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(rx.link("#", row["id"].to(str), href=row_path("staff-appeals-id", row["id"]))),
        rx.el.td(_label(MEASURE_LABELS, row["measure"])),
        rx.el.td(rx.cond(row["by_notifier"].to(bool), t(N_("Notifier")), t(N_("Member")))),
        rx.el.td(age(row["created_at"]), title=when(row["created_at"])),
    )


@page("staff-appeals", on_load=staff_load(StaffAppealsState.load))
def staff_appeals_page() -> rx.Component:
    S = StaffAppealsState
    return staff_shell(
        "staff-appeals",
        rx.el.div(
            *paged_table(
                S,
                (N_("Appeal"), N_("Measure"), N_("Filed by"), N_("Age")),
                _appeal_row,
                "appeal-queue",
            )
        ),
    )


# ----- /staff/appeals/{id} -----


def _statement() -> rx.Component:
    D = StaffAppealState.decision
    return card(
        N_("The decision"),
        facts(
            (N_("Measure"), _label(MEASURE_LABELS, D["measure"])),
            (N_("Content"), _label(CONTENT_LABELS, D["content_type"])),
            (
                N_("Duration"),
                rx.cond(
                    D["duration_days"].to(int) > 0,
                    tn("{count} day", "{count} days", D["duration_days"].to(int)),
                    "—",
                ),
            ),
            (N_("Facts and circumstances"), rx.el.span(D["facts"], white_space="pre-wrap")),
            (N_("Source"), _label(SOURCE_LABELS, D["source"])),
            (
                N_("Ground"),
                rx.el.span(_label(GROUND_TYPE_LABELS, D["ground_type"]), " ", D["ground"]),
            ),
            (N_("Decided"), when(D["decided_at"])),
            (N_("Member"), member_link(D["member_id"], rx.Var.create(""))),
        ),
        rx.cond(
            StaffAppealState.report.contains("id"),
            rx.link(
                t(N_("Case")),
                " ",
                StaffAppealState.report["reference"].to(str),
                href=row_path("staff-reports-id", StaffAppealState.report["id"]),
            ),
        ),
    )


def _appeal_form() -> rx.Component:
    S = StaffAppealState
    return post_form(
        rx.el.div(
            rx.radio_group.root(
                rx.radio_group.item(t(N_("Uphold the decision")), value="uphold"),
                rx.radio_group.item(t(N_("Reverse the decision")), value="reverse"),
                name="outcome",
                default_value="uphold",
                direction="column",
            ),
            text_area_field(
                N_("Answer to the appellant"),
                "answer",
                S.errors,
                rows=4,
                max_length=ANSWER_LIMIT,
                required=True,
            ),
            form_error(S.errors),
            submit_button(N_("Decide"), S.busy, data_testid="decide-appeal"),
            class_name="staff-form",
        ),
        on_submit=S.answer,
        data_testid="appeal-form",
    )


def _appeal() -> rx.Component:
    S = StaffAppealState
    A = S.appeal
    return found(
        S.missing,
        rx.el.div(
            _statement(),
            card(
                N_("The appeal"),
                facts(
                    (
                        N_("Filed by"),
                        rx.cond(A["by_notifier"].to(bool), t(N_("Notifier")), t(N_("Member"))),
                    ),
                    (N_("Received on"), when(A["created_at"])),
                    (N_("Status"), _label(APPEAL_STATUS_LABELS, A["status"])),
                    (N_("Explanation"), rx.el.span(A["text"], white_space="pre-wrap")),
                    (N_("Answer"), rx.el.span(A["answer"], white_space="pre-wrap")),
                ),
            ),
            rx.cond(
                A["status"] == AppealStatus.OPEN,
                rx.cond(
                    S.own_decision,
                    rx.callout(t(ANOTHER_MUST_DECIDE), icon="info", data_testid="own-decision"),
                    card(N_("Decide on the appeal"), _appeal_form()),
                ),
            ),
        ),
    )


@page("staff-appeals-id", on_load=staff_load(StaffAppealState.load))
def staff_appeal_page() -> rx.Component:
    return staff_shell("staff-appeals-id", _appeal())


# ----- /staff/transparency -----


def _counts(title: str, counts: rx.Var, labels: dict) -> rx.Component:
    return card(
        title,
        rx.el.dl(
            rx.foreach(
                counts.to(dict[str, int]),
                lambda item: rx.fragment(
                    rx.el.dt(_label(labels, item[0])), rx.el.dd(number(item[1].to(int)))
                ),
            ),
            class_name="staff-facts",
        ),
    )


def _period_form() -> rx.Component:
    S = StaffTransparencyState
    kinds = rx.fragment(
        rx.el.option(t(N_("Month")), value="month"),
        rx.el.option(t(N_("Quarter")), value="quarter"),
        rx.el.option(t(N_("Custom period")), value="custom"),
    )
    return post_form(
        rx.el.div(
            rx.el.label(
                rx.el.span(t(N_("Period")), class_name="field-label"),
                rx.el.select(
                    kinds, name="kind", default_value=S.kind, class_name=native_select_class("2")
                ),
            ),
            rx.el.label(
                rx.el.span(t(N_("Month")), class_name="field-label"),
                rx.el.input(type="month", name="month"),
            ),
            rx.el.label(
                rx.el.span(t(N_("From")), class_name="field-label"),
                rx.el.input(type="date", name="start"),
            ),
            rx.el.label(
                rx.el.span(t(N_("To")), class_name="field-label"),
                rx.el.input(type="date", name="end"),
            ),
            rx.button(t(N_("Show")), type="submit", size="2"),
            class_name="staff-filters",
        ),
        on_submit=S.choose,
    )


@page("staff-transparency", on_load=staff_load(StaffTransparencyState.load))
def staff_transparency_page() -> rx.Component:
    S = StaffTransparencyState
    C = S.counters
    median = C["median_hours"].to(float)
    return staff_shell(
        "staff-transparency",
        rx.el.div(
            _period_form(),
            rx.el.p(
                local_date(S.start),
                " – ",
                local_date(S.end),
                " · ",
                rx.link(
                    t(N_("Download as CSV")),
                    href=S.csv,
                    data_testid="transparency-csv",
                    reload_document=True,
                ),
            ),
            rx.el.div(
                _counts(N_("Notices by category"), C["notices"], CATEGORY_LABELS),
                _counts(N_("Member reports by category"), C["reports"], CATEGORY_LABELS),
                _counts(N_("Automated detection by category"), C["automated"], CATEGORY_LABELS),
                _counts(N_("Decisions by measure"), C["measures"], MEASURE_LABELS),
                _counts(N_("Decisions by ground"), C["grounds"], GROUND_TYPE_LABELS),
                card(
                    N_("Decisions and appeals"),
                    facts(
                        (N_("Automated decisions"), number(C["automated_decisions"].to(int))),
                        (
                            N_("Median time to decide"),
                            rx.cond(
                                median >= 0,
                                tn("{count} hour", "{count} hours", median.to(int)),
                                "—",
                            ),
                        ),
                        (N_("Appeals received"), number(C["appeals"].to(int))),
                        (N_("Decisions reversed"), number(C["reversals"].to(int))),
                    ),
                ),
                class_name="staff-grid",
                data_testid="transparency-counters",
            ),
        ),
    )


# ----- /staff/audit -----


def _audit_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(when(row["created_at"])),
        rx.el.td(member_link(row["actor_id"], row["actor_name"]), " (", row["actor_role"], ")"),
        rx.el.td(row["action"]),
        rx.el.td(row["target"]),
        rx.el.td(row["reason"]),
        rx.el.td(row["change"]),
        rx.el.td(row["address"]),
    )


def _audit_filters() -> rx.Component:
    S = StaffAuditState
    return post_form(
        rx.el.div(
            rx.el.label(
                rx.el.span(t(N_("Staff member (id)")), class_name="field-label"),
                rx.el.input(
                    name="actor", inputmode="numeric", max_length=10, default_value=S.actor
                ),
            ),
            rx.el.label(
                rx.el.span(t(N_("Action")), class_name="field-label"),
                rx.el.input(name="action", max_length=40, default_value=S.action),
            ),
            rx.button(t(N_("Show")), type="submit", size="2"),
            class_name="staff-filters",
        ),
        on_submit=S.filter,
    )


AUDIT_HEADERS = (
    N_("When"), N_("Who"), N_("Action"), N_("Target"), N_("Reason"), N_("Change"), N_("Address"),
)  # fmt: skip


@page("staff-audit", on_load=staff_load(StaffAuditState.load))
def staff_audit_page() -> rx.Component:
    S = StaffAuditState
    return staff_shell(
        "staff-audit",
        rx.el.div(_audit_filters(), *paged_table(S, AUDIT_HEADERS, _audit_row, "audit-log")),
    )
