"""/settings: tabs for the profile, photos, place, privacy and the account (password, e-mail
address, a copy of my data, delete-account flow). The chosen tab is kept in the address
(`?tab=photos`)."""

import reflex as rx

from app.pages.registry import page
from app.pages.settings_profile import card, location_panel, privacy_panel, profile_panel
from components.forms import (
    form_error,
    new_password_fields,
    notice,
    post_form,
    submit_button,
    text_field,
)
from components.i18n import local_date, percent, t
from components.photo_manager import photo_manager
from models.deletion import DELETE_REASONS, NOTE_MAX
from models.routes import url
from state.account_settings import AccountSettingsState as S
from state.chat_from import ChatFromState
from state.photo_manager import PhotoManagerState
from state.profile_settings import ProfileSettingsState
from state.session import SessionState
from translations.catalog import N_

DELETE_EXPLAINED = N_(
    "Your profile disappears at once. You can reactivate your account for 14 days with the "
    "link we e-mail you; after that we erase your data for good."
)
CODE_TEXT = N_(
    "Your code {code} gives you the discount on your next credit bundle. It is valid until {date}."
)
DISCOUNT_GONE = N_(
    "The discount for staying is a one-time offer, and you have already received it."
)
EXPORT_EXPLAINED = N_(
    "Get a copy of everything we keep about you: your profile, photos, messages, likes, "
    "purchases and more, in a zip file. We e-mail you a download link once it is ready; the "
    "link works for 48 hours. You can ask for a copy once a day."
)
EXPORT_REQUESTED = N_(
    "We are preparing your data. You will receive an e-mail with the download link, usually "
    "within a few minutes."
)
REASON_LABELS = {
    "found_partner": N_("I have found someone"),
    "not_enough_matches": N_("I do not find enough matches"),
    "too_expensive": N_("It is too expensive for me"),
    "too_many_messages": N_("I receive too many messages"),
    "privacy": N_("I am worried about my privacy"),
    "taking_break": N_("I want to take a break"),
    "other": N_("Another reason"),
}


def _current_password(name: str) -> rx.Component:
    return text_field(
        N_("Current password"),
        name,
        S.errors,
        type="password",
        auto_complete="current-password",
        required=True,
    )


def _password_section() -> rx.Component:
    return card(
        N_("Change password"),
        post_form(
            rx.el.div(
                _current_password("current_password"),
                new_password_fields(S.errors, "new_password"),
                rx.cond(S.password_saved, notice(t("Your new password is saved."), icon="check")),
                submit_button(N_("Save password"), S.busy, data_testid="save-password"),
                class_name="form-stack",
            ),
            on_submit=S.change_password,
            reset_on_submit=True,
        ),
        testid="password-section",
    )


def _email_section() -> rx.Component:
    sent = t(
        "We sent a link to {email}. Your address changes once you click it.", email=S.email_sent_to
    )
    return card(
        N_("Change e-mail address"),
        post_form(
            rx.el.div(
                rx.el.p(
                    t("Current address: {email}", email=SessionState.email), class_name="muted"
                ),
                text_field(
                    N_("New e-mail address"), "email", S.errors, type="email", required=True
                ),
                _current_password("email_password"),
                rx.cond(S.email_sent_to != "", notice(sent)),
                submit_button(N_("Change e-mail address"), S.busy, data_testid="save-email"),
                class_name="form-stack",
            ),
            on_submit=S.change_email,
            reset_on_submit=True,
        ),
        testid="email-section",
    )


def _export_section() -> rx.Component:
    return card(
        N_("Download my data"),
        post_form(
            rx.el.div(
                rx.el.p(t(EXPORT_EXPLAINED), class_name="muted"),
                _current_password("export_password"),
                rx.cond(
                    S.export_requested,
                    notice(t(EXPORT_REQUESTED), icon="mail", data_testid="export-requested"),
                ),
                submit_button(N_("Request my data"), S.busy, data_testid="request-export"),
                class_name="form-stack",
            ),
            on_submit=S.request_export,
            reset_on_submit=True,
        ),
        testid="export-section",
    )


def _reason(reason: str) -> rx.Component:
    return rx.el.button(
        t(REASON_LABELS[reason]),
        type="button",
        class_name="choice",
        data_selected=S.delete_reason == reason,
        on_click=S.choose_reason(reason),
        data_testid=f"reason-{reason}",
    )


def _delete_reasons() -> rx.Component:
    return rx.el.div(
        rx.el.p(t("We are sorry to see you go. Why do you want to delete your account?")),
        rx.el.div(*(_reason(r) for r in DELETE_REASONS), class_name="delete-reasons"),
        rx.flex(
            rx.button(
                t("Next"),
                on_click=S.delete_go(2),
                disabled=S.delete_reason == "",
                data_testid="delete-next",
            ),
            rx.button(t("Cancel"), variant="soft", on_click=S.delete_go(0)),
            spacing="3",
            margin_top="14px",
        ),
        class_name="form-stack",
    )


def _code_text() -> rx.Component:
    """CODE_TEXT with the code set off as one, never broken at its hyphen, and the date on one
    line; the translation places both."""
    parts = rx.Var(f"({t(CODE_TEXT)}).split(/(\\{{code\\}}|\\{{date\\}})/)").to(list[str])
    return rx.el.p(
        rx.foreach(
            parts,
            lambda part: rx.match(
                part,
                ("{code}", rx.el.code(S.discount_code, class_name="promo-code")),
                ("{date}", rx.el.span(local_date(S.discount_expires), class_name="nowrap")),
                rx.el.span(part),
            ),
        ),
        data_testid="discount-code",
    )


def _discount_offer() -> rx.Component:
    return rx.el.div(
        rx.heading(t("Stay and save {percent}", percent=percent(S.delete_discount)), size="4"),
        rx.el.p(
            t(
                "Keep your account and get {percent} off your next credit bundle.",
                percent=percent(S.delete_discount),
            )
        ),
        rx.cond(
            S.discount_code != "",
            _code_text(),
            rx.button(
                t("Claim my discount"),
                color_scheme="amber",
                on_click=S.claim_discount,
                data_testid="claim-discount",
            ),
        ),
        class_name="upsell",
    )


def _alternatives() -> rx.Component:
    return rx.el.div(
        rx.el.p(t("Before you go, perhaps one of these suits you better:")),
        rx.cond(
            S.delete_discount > 0,
            rx.cond(
                S.discount_gone & (S.discount_code == ""),
                rx.callout(
                    t(DISCOUNT_GONE), icon="info", color_scheme="gray", data_testid="discount-gone"
                ),
                _discount_offer(),
            ),
        ),
        rx.callout(
            rx.el.span(
                t("Need a break from e-mails? Switch them off on the notifications page."),
                " ",
                rx.link(t("Notifications"), href=url("notifications")),
            ),
            icon="bell-off",
            color_scheme="gray",
        ),
        rx.flex(
            rx.button(t("Keep my account"), on_click=S.delete_go(0), data_testid="keep-account"),
            rx.button(
                t("Continue deleting"),
                variant="soft",
                color_scheme="red",
                on_click=S.delete_go(3),
                data_testid="delete-continue",
            ),
            spacing="3",
            wrap="wrap",
        ),
        class_name="form-stack",
    )


def _confirm_delete() -> rx.Component:
    return post_form(
        rx.el.div(
            rx.el.p(t(DELETE_EXPLAINED)),
            rx.el.label(
                rx.el.span(t("Anything you want to tell us? (optional)"), class_name="field-label"),
                rx.text_area(name="note", max_length=NOTE_MAX, rows="3"),
                class_name="field",
            ),
            text_field(
                N_("Password"),
                "password",
                S.errors,
                type="password",
                auto_complete="current-password",
                required=True,
            ),
            form_error(S.errors),
            rx.flex(
                submit_button(
                    N_("Delete my account"),
                    S.busy,
                    color_scheme="red",
                    data_testid="delete-confirm",
                ),
                rx.button(t("Cancel"), type="button", variant="soft", on_click=S.delete_go(0)),
                spacing="3",
                wrap="wrap",
            ),
            class_name="form-stack",
        ),
        on_submit=S.delete_account,
    )


def _delete_section() -> rx.Component:
    return card(
        N_("Delete account"),
        rx.match(
            S.delete_step,
            (1, _delete_reasons()),
            (2, _alternatives()),
            (3, _confirm_delete()),
            rx.button(
                t("Delete my account"),
                variant="soft",
                color_scheme="red",
                on_click=S.delete_go(1),
                data_testid="delete-start",
            ),
        ),
        testid="delete-section",
    )


def _account_panel() -> rx.Component:
    return rx.el.div(
        _email_section(),
        _password_section(),
        _export_section(),
        _delete_section(),
        class_name="settings-grid",
    )


TABS = (
    ("profile", N_("Profile"), "user-round", profile_panel),
    ("photos", N_("Photos"), "images", photo_manager),
    ("location", N_("Location"), "map-pin", location_panel),
    ("privacy", N_("Privacy"), "shield", privacy_panel),
    ("account", N_("Account"), "key-round", _account_panel),
)


def _trigger(key: str, label: str, icon: str) -> rx.Component:
    return rx.tabs.trigger(
        rx.el.span(rx.icon(icon, size=16), t(label), class_name="settings-tab"),
        value=key,
        data_testid=f"tab-{key}",
    )


@page(
    "settings",
    on_load=[S.reset_form, ProfileSettingsState.load, PhotoManagerState.load, ChatFromState.load],
)
def settings_page() -> rx.Component:
    return rx.el.div(
        rx.el.h1(t("Settings"), class_name="page-title"),
        rx.tabs.root(
            rx.tabs.list(*(_trigger(key, label, icon) for key, label, icon, _ in TABS), size="2"),
            *(
                rx.tabs.content(panel(), value=key, class_name="settings-panel")
                for key, _, _, panel in TABS
            ),
            value=ProfileSettingsState.tab,
            on_change=ProfileSettingsState.choose_tab,
            class_name="settings-tabs",
        ),
        class_name="container",
        data_testid="page-settings",
    )
