"""/staff/tickets and /staff/tickets/{id}: the customer service console (docs/customer-service.md).
The queue, open tickets first and the longest waiting first; a ticket's thread, the answer
form (mailed in the ticket's language) and the status with a reason."""

import reflex as rx

from app.pages.registry import page
from app.pages.staff_console import found, staff_load
from components.forms import (
    field_error,
    form_error,
    native_select_class,
    post_form,
    submit_button,
    text_area_field,
)
from components.i18n import t, t_choice
from components.staff_shell import staff_shell
from components.staff_tables import age, card, facts, member_link, paged_table, row_path, when
from models.staff_reason import REASON_LIMIT
from models.tickets import (
    MESSAGE_LIMIT,
    STATUS_LABELS,
    TOPIC_LABELS,
    Author,
    TicketStatus,
)
from state.staff_tickets import StaffTicketsState, StaffTicketState
from translations.catalog import N_

NO_TICKETS = N_("No tickets.")
VISITOR = N_("Visitor (not logged in)")
SUPPORT_AUTHOR = N_("Customer service")
SEND_ANSWER = N_("Send answer")
ANSWER_HINT = N_("The answer is e-mailed in the ticket's language and kept in the thread.")
QUEUE_HEADERS = (N_("Reference"), N_("Topic"), N_("Status"), N_("From"), N_("Waiting since"))


def _status(value: rx.Var) -> rx.Component:
    return rx.el.span(
        t_choice(STATUS_LABELS, value.to(str)),
        class_name=rx.cond(value == TicketStatus.OPEN, "staff-mark", ""),
    )


def _queue_row(row: rx.Var[dict]) -> rx.Component:
    return rx.fragment(
        rx.el.td(rx.link(row["reference"], href=row_path("staff-tickets-id", row["id"]))),
        rx.el.td(t_choice(TOPIC_LABELS, row["topic"].to(str))),
        rx.el.td(_status(row["status"])),
        rx.el.td(row["email"]),
        rx.el.td(age(row["updated_at"]), title=when(row["updated_at"])),
    )


@page("staff-tickets", on_load=staff_load(StaffTicketsState.load))
def staff_tickets_page() -> rx.Component:
    S = StaffTicketsState
    return staff_shell(
        "staff-tickets",
        rx.el.div(*paged_table(S, QUEUE_HEADERS, _queue_row, "ticket-queue", NO_TICKETS)),
    )


def _sender() -> rx.Component:
    """The member's page in the support tool (their account, credits and orders)."""
    S = StaffTicketState
    member_id = S.ticket["member_id"]
    return rx.cond(
        member_id.to(int) > 0,
        member_link(member_id, S.member_name, "staff-support-member"),
        t(VISITOR),
    )


def _message(message: rx.Var[dict]) -> rx.Component:
    staff = message["author"] == Author.STAFF
    return rx.el.article(
        rx.el.div(
            rx.el.strong(rx.cond(staff, t(SUPPORT_AUTHOR), StaffTicketState.ticket["email"])),
            " · ",
            when(message["created_at"]),
            class_name="muted",
        ),
        rx.el.p(message["body"], white_space="pre-wrap", overflow_wrap="anywhere"),
        class_name=rx.cond(staff, "ticket-message ticket-answer", "ticket-message"),
        data_testid="ticket-message",
    )


def _answer_form() -> rx.Component:
    S = StaffTicketState
    return post_form(
        rx.el.div(
            text_area_field(
                N_("Answer"),
                "answer",
                S.errors,
                rows=6,
                max_length=MESSAGE_LIMIT,
                required=True,
                hint=t(ANSWER_HINT),
                error_key="message",  # the stored message's, models/tickets.py
                testid="ticket-answer",
            ),
            rx.el.input(type="hidden", name="nonce", value=S.answer_nonce),
            form_error(S.errors),
            submit_button(SEND_ANSWER, S.busy, data_testid="ticket-send-answer"),
            class_name="staff-form",
        ),
        on_submit=S.answer,
        key=S.messages.length().to(str),  # empty again once the answer is in the thread
        data_testid="ticket-answer-form",
    )


def _status_form() -> rx.Component:
    S = StaffTicketState
    options = rx.fragment(*(rx.el.option(t(STATUS_LABELS[s]), value=s) for s in TicketStatus))
    return post_form(
        rx.el.div(
            rx.el.label(
                rx.el.span(t(N_("Status")), class_name="field-label"),
                rx.el.select(
                    options,
                    default_value=S.ticket["status"].to(str),
                    name="status",
                    class_name=native_select_class("2"),
                    data_testid="ticket-status",
                ),
                field_error(S.errors, "status"),
            ),
            rx.el.label(
                rx.el.span(t(N_("Reason")), class_name="field-label"),
                rx.input(name="reason", max_length=REASON_LIMIT, required=True, size="2"),
                field_error(S.errors, "reason"),
            ),
            submit_button(N_("Change status"), S.busy, data_testid="ticket-change-status"),
            class_name="staff-form",
        ),
        on_submit=S.change_status,
        key=S.ticket["status"].to(str),
    )


def _ticket() -> rx.Component:
    S = StaffTicketState
    T = S.ticket
    return found(
        S.missing,
        rx.el.div(
            card(
                N_("Ticket"),
                facts(
                    (N_("Reference"), T["reference"].to(str)),
                    (N_("Topic"), t_choice(TOPIC_LABELS, T["topic"].to(str))),
                    (N_("Status"), _status(T["status"])),
                    (N_("Member"), _sender()),
                    (N_("E-mail address"), T["email"].to(str)),
                    (N_("Language"), T["locale"].to(str)),
                    (N_("Received on"), when(T["created_at"])),
                ),
                data_testid="ticket-facts",
            ),
            card(N_("Messages"), rx.foreach(S.messages, _message)),
            card(N_("Answer the member"), _answer_form()),
            card(N_("Status"), _status_form()),
        ),
    )


@page("staff-tickets-id", on_load=staff_load(StaffTicketState.load))
def staff_ticket_page() -> rx.Component:
    return staff_shell("staff-tickets-id", _ticket())
