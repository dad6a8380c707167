"""/settings tabs Profile, Location and Privacy (state/profile_settings.py): the profile tab saves
its three cards with one button, the place with its own; the privacy switches store at once."""

import reflex as rx

from components.chat_from_setting import chat_from_setting
from components.forms import notice, post_form, submit_button, text_field
from components.i18n import t, tn
from components.profile_fields import (
    about_field,
    interest_chips,
    looks_select,
    place_fields,
    who_fields,
)
from models.account_rules import NAME_MAX
from models.attribute_labels import FIELD_LABELS
from models.profile_steps import ABOUT_MAX, CITY_MAX
from state.profile_settings import ProfileSettingsState as S
from translations.catalog import N_

SAVED_TEXTS = {
    "profile": N_("Your profile is saved."),
    "location": N_("Your place is saved."),
    "privacy": N_("Your privacy settings are saved."),
}
PLACE_PRIVATE = N_(
    "Other members see your country, region and town. We never store or show your exact position."
)
GEO_FILLED = N_("We filled in your place. Check it and save.")
GEO_PROBLEMS = {
    "denied": N_(
        "Your browser does not let this site see your location. To allow it, click the icon "
        "next to the address bar, allow Location for this site and try again, or choose your "
        "place below."
    ),
    "unsupported": N_("Your browser cannot tell us your location. Choose your place below."),
    "not_found": N_("We could not find a place near you. Choose your place below."),
    "abroad": N_("Your location is outside the countries of this site. Choose your place below."),
}
INVISIBLE_EXPLAINED = N_(
    "You do not appear in search results or member lists. Members who have a link to your "
    "profile can still open it."
)
PRIVACY_EXPLAINED = N_(
    "Only logged-in members can see your profile. Photos other than your main photo are shown "
    "only to members you have liked."
)


def card(title: str, *children: rx.Component, testid: str) -> rx.Component:
    return rx.el.section(
        rx.heading(t(title), size="4", margin_bottom="12px"),
        *children,
        class_name="card",
        data_testid=testid,
    )


def _saved(section: str) -> rx.Component:
    return rx.cond(
        S.saved == section,
        notice(t(SAVED_TEXTS[section]), icon="check", data_testid=f"saved-{section}"),
    )


def _save_row(section: str) -> rx.Component:
    return rx.el.div(
        _saved(section),
        rx.box(submit_button(N_("Save"), False, data_testid=f"save-{section}")),
        class_name="form-stack",
    )


def _section_form(section: str, title: str, on_submit, *fields: rx.Component) -> rx.Component:
    """A card whose fields are stored together by its own Save button."""
    return card(
        title,
        post_form(
            rx.el.div(*fields, _save_row(section), class_name="form-stack"),
            on_submit=on_submit,
            reset_on_submit=False,
        ),
        testid=f"{section}-section",
    )


def _edited(label: str, field: str, **props) -> rx.Component:
    """A text field bound to the state's draft of `field`."""
    return text_field(
        label,
        field,
        S.errors,
        value=getattr(S, field),
        on_change=lambda value: S.edit(field, value),
        **props,
    )


def _basics() -> rx.Component:
    return card(
        N_("About you"),
        rx.el.div(
            _edited(N_("Profile name"), "name", auto_complete="nickname", max_length=NAME_MAX),
            who_fields(S.gender, S.seeking, S.choose, S.errors),
            _edited(N_("Date of birth"), "date_of_birth", type="date"),
            class_name="form-stack",
        ),
        testid="basics-section",
    )


def _look(field: str) -> rx.Component:
    return looks_select(
        field, S.gender, value=S.looks[field], on_change=lambda value: S.pick_look(field, value)
    )


def _looks() -> rx.Component:
    return card(
        N_("Your looks"),
        rx.el.div(*(_look(field) for field in FIELD_LABELS), class_name="looks-grid"),
        testid="looks-section",
    )


def _about() -> rx.Component:
    count = tn(
        "{count} of {max} character",
        "{count} of {max} characters",
        ABOUT_MAX,
        count=S.about_length,
        max=ABOUT_MAX,
    )
    return card(
        N_("About me and interests"),
        rx.el.div(
            about_field(
                S.errors,
                counter=rx.el.span(count, class_name="field-hint", data_testid="about-count"),
                value=S.about,
                on_change=lambda value: S.edit("about", value),
                data_testid="about-text",
            ),
            interest_chips(S),
            class_name="form-stack",
        ),
        testid="about-section",
    )


def profile_panel() -> rx.Component:
    """One form, one Save for the three cards."""
    return post_form(
        rx.el.div(
            _basics(),
            _looks(),
            _about(),
            rx.el.div(_save_row("profile"), class_name="card settings-save"),
            class_name="settings-grid",
        ),
        on_submit=S.save_profile,
        reset_on_submit=False,
    )


def _geo_message() -> rx.Component:
    problems = [
        (key, rx.callout(t(text), icon="map-pin-off", color_scheme="amber", data_testid="geo-hint"))
        for key, text in GEO_PROBLEMS.items()
    ]
    filled = notice(t(GEO_FILLED), icon="map-pin", data_testid="geo-filled")
    return rx.match(S.geo, ("filled", filled), *problems, rx.fragment())


def location_panel() -> rx.Component:
    locate = rx.button(
        rx.icon("locate-fixed", size=18),
        t("Use my location"),
        type="button",
        variant="soft",
        size="3",
        loading=S.locating,
        on_click=S.use_my_location,
        data_testid="use-my-location",
    )
    return rx.el.div(
        _section_form(
            "location",
            N_("Where do you live?"),
            S.save_location,
            rx.el.p(t(PLACE_PRIVATE), class_name="muted"),
            rx.box(locate),
            _geo_message(),
            place_fields(S, S.errors),
            _edited(N_("Town or city"), "city", max_length=CITY_MAX),
        ),
        class_name="settings-grid",
    )


def _switch(field: str, title: str, explained: str) -> rx.Component:
    return rx.el.label(
        rx.el.div(
            rx.el.span(t(title), class_name="field-label"),
            rx.el.span(t(explained), class_name="field-hint"),
            class_name="switch-text",
        ),
        rx.switch(
            checked=getattr(S, field),
            on_change=lambda on: S.set_visibility(field, on),
            size="3",
            data_testid=f"switch-{field}",
        ),
        class_name="switch-row",
    )


def privacy_panel() -> rx.Component:
    return rx.el.div(
        card(
            N_("Privacy"),
            rx.el.div(
                _switch("invisible", N_("Invisible mode"), INVISIBLE_EXPLAINED),
                _switch("privacy_mode", N_("Privacy mode"), PRIVACY_EXPLAINED),
                _saved("privacy"),
                chat_from_setting(),
                class_name="form-stack",
            ),
            testid="privacy-section",
        ),
        class_name="settings-grid",
    )
