"""The signup modal and its steps (state/signup.py); /complete-signup shows steps 1-4 inline."""

import reflex as rx

from components.entry_warning import entry_warning_shown
from components.forms import (
    field_error,
    form_error,
    ios_push_note,
    password_hint,
    post_form,
    submit_button,
    text_field,
)
from components.i18n import t
from components.lazy_module import lazy
from components.linked_text import linked_text
from components.photo_picker import photo_picker
from components.profile_fields import (
    about_field,
    interest_chips,
    looks_select,
    place_fields,
    who_fields,
)
from components.reactivation import reactivation_choice
from models.account_rules import NAME_MAX
from models.attribute_labels import FIELD_LABELS
from models.profile_steps import CITY_MAX
from models.routes import static_page_url
from models.signup import NEEDS_TRAFFIC_SOURCE, SIGNUPS_CLOSED
from state.push_opt_in import IOS_HOME_SCREEN
from state.signup import ABOUT, DONE, LOOKS, PHOTO, PLACE, PUSH, UPLOAD_ID, SignupState
from translations.catalog import N_

S = SignupState
TERMS_NOTE = N_("By signing up you accept our {terms} and {privacy}.")
PUSH_TEXT = N_(
    "Turn on notifications and we will let you know as soon as someone writes to you or "
    "likes you, even when this site is closed."
)
CHECK_MAIL = N_(
    "We sent a confirmation link to {email}. Click it to activate your account: "
    "only then can other members find you and write to you."
)


def _message_to_member() -> rx.Component:
    return rx.cond(
        S.to_member.contains("id"),
        rx.el.div(
            rx.el.div(
                rx.cond(S.to_member["thumb"] != "", rx.image(src=S.to_member["thumb"], alt="")),
                rx.el.strong(t("Write {name} a message", name=S.to_member["name"])),
                class_name="signup-target",
            ),
            rx.text_area(
                name="signup_message",
                default_value=S.signup_message,
                rows="3",
                on_blur=lambda value: S.keep_draft("signup_message", value),
                data_testid="signup-message",
            ),
            field_error(S.errors, "signup_message"),
            class_name="field",
        ),
    )


def _draft_field(label: str, name: str, **props) -> rx.Component:
    return text_field(
        label,
        name,
        S.errors,
        default_value=getattr(S, name),
        on_blur=lambda value: S.keep_draft(name, value),
        required=True,
        **props,
    )


def _existing_account_actions() -> rx.Component:
    return rx.match(
        S.existing_account,
        (
            "active",
            rx.button(
                t("Log in"),
                type="button",
                variant="soft",
                on_click=S.go_to_login,
                data_testid="signup-go-login",
            ),
        ),
        ("deleted", reactivation_choice(S.reactivation_sent, S.send_reactivation)),
        rx.fragment(),
    )


def _account_step() -> rx.Component:
    return rx.cond(
        S.signups_closed,
        rx.callout(
            rx.cond(S.needs_traffic_source, t(NEEDS_TRAFFIC_SOURCE), t(SIGNUPS_CLOSED)),
            icon="info",
        ),
        post_form(
            rx.el.div(
                _message_to_member(),
                who_fields(S.gender, S.seeking, S.choose, S.errors),
                _draft_field(
                    N_("Profile name"), "name", auto_complete="nickname", max_length=NAME_MAX
                ),
                _draft_field(N_("E-mail address"), "email", type="email", auto_complete="email"),
                _existing_account_actions(),
                _draft_field(
                    N_("Password"),
                    "password",
                    type="password",
                    auto_complete="new-password",
                    hint=password_hint(),
                ),
                _draft_field(
                    N_("Date of birth"),
                    "date_of_birth",
                    type="date",
                ),
                form_error(S.errors),
                rx.el.p(
                    linked_text(
                        TERMS_NOTE,
                        terms=(N_("terms and conditions"), static_page_url("terms")),
                        privacy=(N_("privacy statement"), static_page_url("privacy")),
                    ),
                    class_name="field-hint",
                    data_testid="signup-consent",
                ),
                submit_button(N_("Create my free account"), S.busy, data_testid="signup-submit"),
                rx.el.p(
                    t("Already a member?"),
                    " ",
                    rx.link(t("Log in"), href="#", on_click=S.go_to_login.prevent_default),
                    class_name="muted",
                ),
                class_name="form-stack",
            ),
            on_submit=S.submit_account,
            reset_on_submit=False,
        ),
    )


def _skip(label: str = N_("Later")) -> rx.Component:
    return rx.button(
        t(label),
        type="button",
        variant="soft",
        color_scheme="gray",
        size="3",
        on_click=S.skip,
        data_testid="signup-skip",
    )


def _step_buttons(forward: rx.Component, skip: rx.Component) -> rx.Component:
    """A step's buttons, on the right as in every step: the one that goes on, then the skip."""
    return rx.flex(forward, skip, spacing="3", justify="end", wrap="wrap")


def _step_form(on_submit: rx.EventHandler, *fields: rx.Component) -> rx.Component:
    """A step's fields with Next (saves) and Later (skips)."""
    buttons = _step_buttons(submit_button(N_("Next"), S.busy, data_testid="signup-next"), _skip())
    return post_form(rx.el.div(*fields, buttons, class_name="form-stack"), on_submit=on_submit)


def _photo_step() -> rx.Component:
    return rx.el.div(
        rx.el.p(t("Members with a photo get up to ten times more replies.")),
        rx.cond(
            S.photo_url != "",
            rx.image(
                src=S.photo_url,
                alt="",
                class_name="photo-preview",
                data_testid="signup-photo-preview",
            ),
        ),
        photo_picker(
            rx.icon("image-plus", size=28),
            rx.el.span(t("Choose a photo or drop it here")),
            on_files=S.upload_photo,
            upload_id=UPLOAD_ID,
            multiple=False,
            disabled=S.busy,
            class_name="photo-drop",
            data_testid="signup-photo-upload",
        ),
        rx.cond(S.busy, rx.spinner()),
        field_error(S.errors, "photo"),
        _step_buttons(
            rx.button(
                t("Next"),
                on_click=S.skip,
                disabled=S.photo_url == "",
                size="3",
                data_testid="signup-next",
            ),
            _skip(),
        ),
        class_name="form-stack",
    )


def _place_step() -> rx.Component:
    return _step_form(
        S.save_place,
        place_fields(S, S.errors),
        text_field(N_("Town or city"), "city", S.errors, max_length=CITY_MAX),
    )


def _looks_step() -> rx.Component:
    return _step_form(
        S.save_looks,
        *(looks_select(field, S.gender, name=field) for field in FIELD_LABELS),
    )


def _about_step() -> rx.Component:
    return _step_form(
        S.save_about_me,
        about_field(S.errors, name="about"),
        interest_chips(S),
    )


def _push_step() -> rx.Component:
    return rx.el.div(
        rx.icon("bell-ring", size=36, color="var(--primary)"),
        rx.el.p(t(PUSH_TEXT)),
        rx.cond(S.push_result == IOS_HOME_SCREEN, ios_push_note(data_testid="push-ios")),
        _step_buttons(
            rx.button(t("Turn on notifications"), on_click=S.turn_on_push, size="3"),
            _skip(N_("Not now")),
        ),
        class_name="form-stack",
    )


def _done_step() -> rx.Component:
    return rx.el.div(
        rx.icon("mail-check", size=40, color="var(--success)"),
        rx.heading(t("Check your e-mail"), size="5"),
        rx.el.p(t(CHECK_MAIL, email=S.email), data_testid="signup-check-mail"),
        rx.button(t("Start browsing"), size="3", on_click=S.finish, data_testid="signup-finish"),
        class_name="form-stack",
    )


STEP_TITLES = {
    0: N_("Sign up free"),
    PHOTO: N_("Add a photo"),
    PLACE: N_("Where do you live?"),
    LOOKS: N_("What do you look like?"),
    ABOUT: N_("Tell something about yourself"),
    PUSH: N_("Never miss a message"),
    DONE: N_("Almost done!"),
}


def _progress() -> rx.Component:
    return rx.el.div(
        *(rx.el.span(data_done=S.step >= step) for step in range(PHOTO, DONE + 1)),
        class_name="signup-progress",
    )


_LATER_STEPS = {
    PHOTO: _photo_step,
    PLACE: _place_step,
    LOOKS: _looks_step,
    ABOUT: _about_step,
    PUSH: _push_step,
    DONE: _done_step,
}


def _later_steps(last: int, otherwise: rx.Component) -> rx.Component:
    """The current step's panel from the photo to `last`; `otherwise` at any other step."""
    cases = [(step, build()) for step, build in _LATER_STEPS.items() if step <= last]
    return rx.match(S.step, *cases, otherwise)


@rx.memo
def signup_later_steps() -> rx.Component:
    """The modal's steps after the account's, a module of their own (components/lazy_module)."""
    return _later_steps(DONE, rx.fragment())


def _modal_steps() -> rx.Component:
    """The account step from the page's own bundle; the later steps fetched as the modal first
    opens, while the visitor fills in the account step."""
    return rx.fragment(rx.cond(S.step == 0, _account_step()), lazy(signup_later_steps()))


def _title() -> rx.Component:
    cases = [(step, t(title)) for step, title in STEP_TITLES.items() if step]
    return rx.match(S.step, *cases, t(STEP_TITLES[0]))


def signup_modal(only_nl_de_warning: bool) -> rx.Component:
    """The modal; it waits while the layout's entry warning (the age check) is up."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.flex(
                rx.dialog.title(_title(), margin="0"),
                rx.cond(
                    ~S.in_progress,
                    rx.dialog.close(
                        rx.icon_button(
                            rx.icon("x"), variant="ghost", aria_label=t("Close"), on_click=S.close
                        )
                    ),
                ),
                justify="between",
                align="center",
                margin_bottom="10px",
            ),
            rx.cond(S.step > 0, _progress()),
            _modal_steps(),
            class_name="signup-dialog",
            data_testid="signup-modal",
        ),
        open=S.open & ~S.inline & ~entry_warning_shown(only_nl_de_warning),
        on_open_change=S.request_open_change,
    )


def complete_signup_page() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.h1(_title(), class_name="page-title"),
            _progress(),
            _later_steps(ABOUT, _account_step()),
            class_name="card auth-card",
        ),
        class_name="container",
        data_testid="page-complete-signup",
    )
