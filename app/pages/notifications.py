"""/notifications: e-mail and push switches, e-mail switched off by the mail system, and the
push opt-in for this browser (state/notifications.py)."""

import reflex as rx

from app.pages.registry import page
from components.forms import field_error, ios_push_note, notice
from components.i18n import t, t_choice
from models.routes import url
from state.notifications import NotificationsState as S
from state.push_opt_in import IOS_HOME_SCREEN
from translations.catalog import N_
from translations.errors import (
    NOTIFICATIONS_DISABLED_BOUNCE,
    NOTIFICATIONS_DISABLED_SPAM,
    NOTIFICATIONS_DISABLED_UNSUBSCRIBE,
)

REASON_TEXTS = {
    "spam": NOTIFICATIONS_DISABLED_SPAM,
    "bounce": NOTIFICATIONS_DISABLED_BOUNCE,
    "unsubscribe": NOTIFICATIONS_DISABLED_UNSUBSCRIBE,
}
EMAIL_SWITCHES = {
    "email_messages": N_("New messages"),
    "email_likes": N_("New likes"),
    "email_offers": N_("Offers and news"),
}
PUSH_SWITCHES = {
    "push_messages": N_("New messages"),
    "push_likes": N_("New likes and matches"),
}
BOUNCE_HINT = N_("Please check that your e-mail address is right.")
PUSH_DENIED = N_(
    "You blocked notifications for this site. Allow them in your browser's site settings "
    "to receive push notifications."
)
PUSH_UNSUPPORTED = N_(
    "This browser cannot receive push notifications. On a phone, add this site to your home "
    "screen first."
)
PUSH_OFF = N_("Get a notification on this device as soon as someone writes to you or likes you.")


def _section(title: str, *children: rx.Component, testid: str) -> rx.Component:
    return rx.el.section(
        rx.heading(t(title), size="4"),
        *children,
        class_name="card form-stack",
        data_testid=testid,
    )


def _switch(kind: str, label: str, cannot_come: rx.Var[bool]) -> rx.Component:
    """The member's choice; while these notifications cannot come at all (e-mail switched off,
    push not on in this browser) the switch shows off and waits."""
    return rx.el.label(
        rx.el.span(t(label)),
        rx.switch(
            checked=S.prefs[kind].to(bool) & ~cannot_come,
            on_change=lambda on: S.set_preference(kind, on),
            disabled=cannot_come,
            size="3",
            data_testid=f"switch-{kind}",
        ),
        class_name="switch-row",
    )


def _section_notice(section: str) -> rx.Component:
    return rx.cond(
        S.notices.contains(section),
        notice(S.notices[section], icon="check", data_testid=f"notice-{section}"),
    )


def _email_off_warning() -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.icon("mail-warning")),
        rx.el.div(
            rx.foreach(S.reasons, lambda reason: rx.el.p(t_choice(REASON_TEXTS, reason))),
            rx.cond(
                S.reasons.contains("bounce"),
                rx.el.p(
                    t(BOUNCE_HINT),
                    " ",
                    rx.link(t("Check my e-mail address"), href=url("settings", tab="account")),
                ),
            ),
            rx.button(
                t("Send me e-mails again"),
                on_click=S.send_emails_again,
                data_testid="emails-again",
            ),
            class_name="form-stack notification-warning",
        ),
        color_scheme="amber",
        data_testid="email-off-warning",
    )


def _email_section() -> rx.Component:
    email_off = S.reasons.length() > 0
    return _section(
        N_("E-mail notifications"),
        rx.cond(email_off, _email_off_warning()),
        *(_switch(kind, label, email_off) for kind, label in EMAIL_SWITCHES.items()),
        _section_notice("email"),
        testid="email-notifications",
    )


def _push_state() -> rx.Component:
    return rx.el.div(
        rx.match(
            S.push_status,
            ("subscribed", notice(t("Push notifications are on in this browser."), icon="bell")),
            ("denied", rx.callout(t(PUSH_DENIED), icon="bell-off", color_scheme="amber")),
            ("unsupported", rx.callout(t(PUSH_UNSUPPORTED), icon="info", color_scheme="gray")),
            (IOS_HOME_SCREEN, ios_push_note(data_testid="push-ios")),
            (
                "not_subscribed",
                rx.flex(
                    rx.el.p(t(PUSH_OFF), class_name="muted"),
                    rx.button(
                        rx.icon("bell-ring", size=16),
                        t("Turn on push notifications"),
                        on_click=S.turn_on_push,
                        data_testid="push-turn-on",
                    ),
                    direction="column",
                    align="start",
                    spacing="2",
                ),
            ),
            rx.spinner(),
        ),
        field_error(S.errors, "push"),
        data_testid="push-state",
        data_state=S.push_status,
    )


def _push_section() -> rx.Component:
    return _section(
        N_("Push notifications"),
        _push_state(),
        *(
            _switch(kind, label, S.push_status != "subscribed")
            for kind, label in PUSH_SWITCHES.items()
        ),
        _section_notice("push"),
        testid="push-notifications",
    )


@page("notifications", on_load=[S.load])
def notifications_page() -> rx.Component:
    return rx.el.div(
        rx.el.h1(t("Notifications"), class_name="page-title"),
        rx.cond(
            S.loaded,
            rx.el.div(_email_section(), _push_section(), class_name="settings-grid"),
            rx.center(rx.spinner(size="3"), padding="40px"),
        ),
        class_name="container",
        data_testid="page-notifications",
    )
