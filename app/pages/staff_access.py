"""/staff/enrol (set up the authenticator: the password again, QR code, key, first code,
recovery codes) and /staff/verify (the code of this session). Both load through
`StaffAccessState.check_access`, which sends anyone else to their own step."""

import reflex as rx

from app.pages.registry import page
from components.forms import auth_card, post_form, submit_button, text_field
from components.i18n import t
from models.routes import route_named
from state.staff_access import CODE_INPUT
from state.staff_access import StaffAccessState as S
from translations.catalog import N_

MONOSPACE = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
PASSWORD_FIRST = N_("To set up your authenticator app, enter your password again.")
SCAN = N_("Scan this QR code with your authenticator app.")
TYPE_KEY = N_("Can't scan it? Type this key into the app instead:")
QR_ALT = N_("QR code for your authenticator app")
APP_CODE = N_("Code from the app")
RECOVERY_TITLE = N_("Your recovery codes")
RECOVERY_USE = N_(
    "Each code lets you in once when your phone is not at hand. Keep them somewhere safe: "
    "they are shown only now."
)
SAVED = N_("I have saved them")
VERIFY_HELP = N_("Type the code your authenticator app shows now, or one of your recovery codes.")


def _code_form(label: str, button: str, on_submit: rx.EventHandler) -> rx.Component:
    return post_form(
        rx.el.div(
            text_field(
                label,
                "code",
                S.errors,
                auto_complete="one-time-code",
                required=True,
                max_length=CODE_INPUT,
                auto_focus=True,
            ),
            submit_button(button, S.busy, data_testid="staff-code-submit"),
            class_name="form-stack",
        ),
        on_submit=on_submit,
        reset_on_submit=True,
    )


def _password_form() -> rx.Component:
    return post_form(
        rx.el.div(
            rx.el.p(t(PASSWORD_FIRST)),
            text_field(
                N_("Password"),
                "password",
                S.errors,
                type="password",
                auto_complete="current-password",
                required=True,
                auto_focus=True,
            ),
            submit_button(N_("Continue"), S.busy, data_testid="staff-password-submit"),
            class_name="form-stack",
        ),
        on_submit=S.unlock_enrolment,
        reset_on_submit=True,
    )


def _setup() -> rx.Component:
    return rx.el.div(
        rx.el.p(t(SCAN)),
        rx.el.img(
            src=S.qr_code,
            alt=t(QR_ALT),
            width="220",
            height="220",
            data_testid="staff-qr-code",
        ),
        rx.el.p(t(TYPE_KEY), class_name="muted"),
        rx.el.p(S.secret, font_family=MONOSPACE, data_testid="staff-totp-secret"),
        _code_form(APP_CODE, N_("Confirm"), S.confirm_code),
        class_name="form-stack",
    )


def _recovery_codes() -> rx.Component:
    return rx.el.div(
        rx.heading(t(RECOVERY_TITLE), as_="h2", size="4"),
        rx.el.p(t(RECOVERY_USE)),
        rx.el.ul(
            rx.foreach(S.recovery_codes, lambda code: rx.el.li(code)),
            font_family=MONOSPACE,
            data_testid="staff-recovery-codes",
        ),
        rx.button(t(SAVED), size="3", on_click=S.finish_enrolment, data_testid="staff-saved"),
        class_name="form-stack",
    )


@page("staff-enrol", on_load=[S.check_access])
def staff_enrol_page() -> rx.Component:
    return auth_card(
        t(route_named("staff-enrol").title),
        rx.cond(
            S.recovery_codes.length() > 0,
            _recovery_codes(),
            rx.cond(S.qr_code != "", _setup(), _password_form()),
        ),
        testid="page-staff-enrol",
    )


@page("staff-verify", on_load=[S.check_access])
def staff_verify_page() -> rx.Component:
    return auth_card(
        t(route_named("staff-verify").title),
        rx.el.p(t(VERIFY_HELP)),
        _code_form(N_("Code"), N_("Continue"), S.submit_code),
        testid="page-staff-verify",
    )
