"""A statement of reasons (DSA Art. 17) as a page shows it, with the internal complaint form
(Art. 20): on /appeal/<token> and on /pages/ban for the banned member's own statement."""

import reflex as rx

from actions.moderation import MAX_APPEAL
from components.forms import notice, post_form, submit_button
from components.i18n import local_date, t, t_choice
from models import statement_labels as L
from models.moderation import AppealStatus, ContentType, Measure
from models.routes import static_page_url
from services.appeal_tokens import MEMBER
from state.appeal import AppealState as S
from translations.catalog import N_

INTRO_MEMBER = N_(
    "This is our statement of reasons for a moderation decision that concerns you. If you "
    "think it is wrong, you can contest it below."
)
INTRO_NOTIFIER = N_(
    "This is our decision on the notice you sent us. If you think it is wrong, you can "
    "contest it below."
)
NOT_FOUND = N_("This link is not valid. Please use the link from our e-mail.")
REVERSED = N_("This decision has been reversed after review.")
APPEAL_TITLE = N_("Contest this decision")
APPEAL_HINT = N_(
    "Explain why you think the decision is wrong. Another member of our staff than the one "
    "who decided will review it, and we will let you know the outcome by e-mail."
)
APPEAL_SEND = N_("Send complaint")
APPEAL_OPEN = N_("We have received your complaint and will review it as soon as possible.")
APPEAL_UPHELD = N_("Your complaint has been reviewed: the decision stands.")
APPEAL_REVERSED = N_("Your complaint has been reviewed: the decision has been reversed.")
APPEAL_CLOSED = N_("The period to contest this decision has ended.")
TERMS = N_("Terms and conditions")

_APPEAL_STATUS = {
    AppealStatus.OPEN: APPEAL_OPEN,
    AppealStatus.UPHELD: APPEAL_UPHELD,
    AppealStatus.REVERSED: APPEAL_REVERSED,
}


def _row(label: str, value: rx.Var[str] | rx.Component, testid: str) -> rx.Component:
    return rx.el.div(
        rx.el.dt(t(label), class_name="muted"),
        rx.el.dd(value, data_testid=f"statement-{testid}"),
        class_name="statement-row",
    )


def _duration() -> rx.Var[str]:
    lasting = (S.measure != Measure.DISMISS) & (S.measure != Measure.WARNING)
    return rx.cond(
        S.ends_on != "",
        t(L.UNTIL, date=local_date(S.ends_on)),
        rx.cond(lasting, t(L.PERMANENT), t(L.NOT_APPLICABLE)),
    )


def _content() -> rx.Var[str]:
    on = local_date(S.content_on)
    return rx.cond(
        S.content_kind == ContentType.PHOTO,
        t(L.CONTENT_PHOTO, date=on),
        t(L.CONTENT_MESSAGE, date=on, excerpt=S.content_excerpt),
    )


def _ground() -> rx.Component:
    """A conduct rule by number and title, linking to the terms; else the law as written."""
    title = t_choice(L.RULE_TITLES, S.ground)
    return rx.cond(
        S.rule,
        rx.el.span(
            t(L.RULE, number=S.ground, title=title),
            " (",
            rx.el.a(t(TERMS), href=static_page_url("terms")),
            ")",
        ),
        rx.el.span(S.ground),
    )


def statement_rows() -> rx.Component:
    return rx.el.dl(
        _row(L.MEASURE, t_choice(L.MEASURE_LABELS, S.measure), "measure"),
        _row(L.SCOPE, t_choice(L.SCOPE_LABELS, S.scope), "scope"),
        rx.cond(S.content_kind != "", _row(L.CONTENT, _content(), "content")),
        _row(L.TERRITORY, t(L.WORLDWIDE), "territory"),
        _row(L.DURATION, _duration(), "duration"),
        rx.cond(S.facts != "", _row(L.FACTS, S.facts, "facts")),
        _row(L.SOURCE, t_choice(L.STATEMENT_SOURCE_LABELS, S.source), "source"),
        _row(
            L.AUTOMATION,
            rx.cond(S.automated, t(L.AUTOMATED_DETECTION_ONLY), t(L.NO_AUTOMATION)),
            "automation",
        ),
        _row(L.GROUND_TYPE, t_choice(L.GROUND_TYPE_LABELS, S.ground_type), "ground-type"),
        _row(L.GROUND, _ground(), "ground"),
        _row(L.DECIDED_ON, local_date(S.decided_on), "decided-on"),
        class_name="statement",
    )


def _redress() -> rx.Component:
    return rx.el.section(
        rx.heading(t(L.REDRESS), as_="h2", size="4"),
        rx.el.dl(
            _row(L.REDRESS_COMPLAINT,
                 t(L.REDRESS_COMPLAINT_TEXT, date=local_date(S.appeal_until)), "complaint"),
            _row(L.REDRESS_SETTLEMENT, t(L.REDRESS_SETTLEMENT_TEXT), "settlement"),
            _row(L.REDRESS_COURT, t(L.REDRESS_COURT_TEXT), "court"),
        ),
    )  # fmt: skip


def _appeal_form() -> rx.Component:
    return post_form(
        rx.el.div(
            rx.heading(t(APPEAL_TITLE), as_="h2", size="4"),
            rx.el.p(t(APPEAL_HINT)),
            rx.text_area(
                name="text",
                max_length=MAX_APPEAL,
                rows="6",
                required=True,
                data_testid="appeal-text",
            ),
            submit_button(APPEAL_SEND, S.busy, data_testid="appeal-send"),
            class_name="form-stack",
        ),
        on_submit=S.send,
    )


def _appeal() -> rx.Component:
    return rx.cond(
        S.appeal_status != "",
        notice(t_choice(_APPEAL_STATUS, S.appeal_status), data_testid="appeal-status"),
        rx.cond(
            S.can_appeal,
            _appeal_form(),
            rx.cond(~S.reversed, rx.el.p(t(APPEAL_CLOSED), class_name="muted")),
        ),
    )


def statement_view() -> rx.Component:
    """The statement the page's token opens, or a note that the link is not valid."""
    return rx.cond(
        S.found,
        rx.el.div(
            rx.el.p(rx.cond(S.party == MEMBER, t(INTRO_MEMBER), t(INTRO_NOTIFIER))),
            rx.cond(S.reversed, notice(t(REVERSED), data_testid="statement-reversed")),
            statement_rows(),
            _redress(),
            _appeal(),
            class_name="form-stack",
            data_testid="statement",
        ),
        rx.el.p(t(NOT_FOUND), class_name="muted", data_testid="statement-not-found"),
    )
