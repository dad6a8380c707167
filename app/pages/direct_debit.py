"""/directdebit?tier=pX: a bundle paid by SEPA direct debit. The member's details, the mandate
to review, the code sent by SMS that signs it; or why direct debit is not available; or, for a
bank account that cannot be used, the bundle's other payment methods."""

import reflex as rx

from actions.direct_debit import NOT_OFFERED
from app.pages.registry import page
from components.bundles import COLLECTION_NOTE, method_label, price
from components.forms import form_error, post_form, text_field
from components.i18n import money, t, t_message, t_messages, tn
from components.link_button import link_button
from components.member_card import country_name
from models.payment_methods import DIRECT_DEBIT, METHOD_LABELS
from models.routes import credits_method_url, static_page_url, url
from models.sdd_mandate_text import AUTHORISATION, ONE_OFF, REFUND_RIGHT
from state.direct_debit import (
    BLOCKED,
    CODE,
    CODE_LENGTH,
    FIELD_LIMITS,
    FORM,
    MANDATE,
    NOT_AVAILABLE,
    REFUSED,
)
from state.direct_debit import DirectDebitState as S
from translations.catalog import N_
from translations.errors import SDD_ACCOUNT_BLOCKED

STEPS = ((FORM, N_("Your details")), (MANDATE, N_("Mandate")), (CODE, N_("Code")))
ERRORS = t_messages(S.errors)  # the errors by field, in the page's language


def _progress() -> rx.Component:
    order = {step: index for index, (step, _) in enumerate(STEPS)}
    at = rx.Var.create(order)[S.step].to(int)
    return rx.el.ol(
        *(
            rx.el.li(
                rx.el.span(str(index + 1), class_name="sdd-progress-number"),
                rx.el.span(t(label)),
                data_state=rx.cond(at > index, "done", rx.cond(at == index, "active", "todo")),
            )
            for index, (_, label) in enumerate(STEPS)
        ),
        class_name="sdd-progress",
        aria_label=t("Steps"),
    )


def _field(label: str, name: str, hint: str | None = None, **props) -> rx.Component:
    return text_field(
        label,
        name,
        ERRORS,
        hint=t(hint) if hint else None,
        default_value=S.values[name].to(str),
        max_length=FIELD_LIMITS[name],
        spell_check=False,
        data_testid=f"sdd-{name}",
        **props,
    )


def _form() -> rx.Component:
    return post_form(
        form_error(ERRORS),
        _field(N_("Account holder"), "account_holder", auto_complete="name", required=True),
        _field(
            N_("IBAN"),
            "iban",
            N_("As on your bank card or statement, for example NL91 ABNA 0417 1643 00."),
            auto_complete="off",
            auto_capitalize="characters",
            required=True,
        ),
        rx.el.div(
            _field(N_("Street"), "street", auto_complete="address-line1", required=True),
            _field(N_("House number"), "house_number", required=True),
            class_name="sdd-row sdd-row-street",
        ),
        rx.el.div(
            _field(N_("Postcode"), "zip", auto_complete="postal-code", required=True),
            _field(N_("City"), "city", auto_complete="address-level2", required=True),
            class_name="sdd-row sdd-row-city",
        ),
        _field(
            N_("Mobile phone number"),
            "phone",
            N_("We send the code to confirm the mandate to this number by SMS."),
            type="tel",
            input_mode="tel",
            auto_complete="tel",
            required=True,
        ),
        rx.button(
            t("Continue"),
            type="submit",
            size="3",
            width="100%",
            loading=S.busy,
            data_testid="sdd-continue",
        ),
        on_submit=S.submit_form,
        reset_on_submit=False,
        class_name="form-stack card sdd-card",
        data_testid="sdd-form",
    )


def _fact(label: str, key: str, shown: rx.Var[str] | None = None) -> rx.Component:
    """A fact of the mandate: as the state holds it, or `shown` in the page's language."""
    value = S.mandate[key].to(str) if shown is None else shown
    return rx.el.div(rx.el.dt(t(label)), rx.el.dd(value, data_testid=f"mandate-{key}"))


def _authorisation() -> rx.Component:
    """The authorisation naming the creditor; a creditor "… B.V." ends the sentence itself (as
    models/sdd_mandate_text.mandate_text writes the signed record)."""
    text = t(AUTHORISATION, creditor=S.mandate["creditor_name"].to(str))
    return rx.el.p(rx.Var(f"({text}).replaceAll('..', '.')").to(str), class_name="sdd-legal")


def creditor_address_line(street: rx.Var[str], code: rx.Var[str]) -> rx.Var[str]:
    """The creditor's address with its country named in the page's language; with no country
    (the address holds one migration 0015 could not name) as it is, nothing added."""
    return rx.cond(code, street + ", " + country_name(code), street).to(str)


def _mandate() -> rx.Component:
    mandate = S.mandate
    street, code = mandate["creditor_address"].to(str), mandate["creditor_country"].to(str)
    return rx.el.div(
        rx.el.h2(t("SEPA Direct Debit Mandate"), class_name="sdd-title"),
        rx.el.dl(
            _fact(N_("Mandate reference"), "reference"),
            _fact(N_("Creditor"), "creditor_name"),
            _fact(N_("Creditor identifier"), "creditor_identifier"),
            _fact(
                N_("Creditor address"),
                "creditor_address",
                creditor_address_line(street, code),
            ),
            _fact(N_("Account holder"), "holder"),
            _fact(N_("Address"), "address"),
            _fact(N_("IBAN"), "iban_masked"),
            _fact(N_("Amount"), "amount", money(mandate["amount_cents"], mandate["currency"])),
            class_name="sdd-facts",
        ),
        rx.el.p(t(ONE_OFF), class_name="sdd-payment-type"),
        _authorisation(),
        rx.el.p(t(REFUND_RIGHT), class_name="sdd-legal"),
        form_error(ERRORS),
        rx.el.p(
            rx.icon("message-square-text", size=16),
            t(
                "To sign, we send a code by SMS to {phone}.",
                phone=S.mandate["phone_masked"].to(str),
            ),
            class_name="sdd-sms-note",
        ),
        rx.button(
            rx.icon("pen-line", size=16),
            t("Confirm and send code"),
            size="3",
            width="100%",
            loading=S.busy,
            on_click=S.confirm_mandate,
            data_testid="sdd-confirm-mandate",
        ),
        _change_details(),
        class_name="card sdd-card sdd-mandate",
        data_testid="sdd-mandate",
    )


def _change_details() -> rx.Component:
    return rx.button(
        t("Change details"),
        variant="ghost",
        size="2",
        on_click=S.edit,
        class_name="sdd-change",
        data_testid="sdd-change",
    )


def _code() -> rx.Component:
    return rx.el.div(
        rx.el.div(rx.icon("smartphone", size=28), class_name="sdd-code-icon"),
        rx.el.h2(t("Enter the code"), class_name="sdd-title"),
        rx.el.p(
            t(
                "We sent a 6-digit code to {phone}. It is valid for 10 minutes.",
                phone=S.mandate["phone_masked"].to(str),
            ),
            class_name="muted",
        ),
        post_form(
            rx.input(
                name="code",
                aria_label=t("Code"),
                max_length=CODE_LENGTH,
                input_mode="numeric",
                pattern="[0-9]*",
                auto_complete="one-time-code",
                auto_focus=True,
                size="3",
                class_name="sdd-code-input",
                data_testid="sdd-code",
            ),
            _code_error(),
            rx.button(
                t("Confirm"),
                type="submit",
                size="3",
                width="100%",
                loading=S.busy,
                data_testid="sdd-confirm-code",
            ),
            on_submit=S.submit_code,
            reset_on_submit=False,
            class_name="form-stack",
        ),
        rx.cond(
            t_message(S.notice) != "",
            rx.el.div(
                t_message(S.notice),
                class_name="sdd-notice",
                role="status",
                data_testid="sdd-notice",
            ),
        ),
        rx.el.div(
            rx.button(
                rx.icon("refresh-cw", size=14),
                t("Send a new code"),
                variant="soft",
                size="2",
                disabled=S.busy,
                on_click=S.resend_code,
                data_testid="sdd-resend",
            ),
            _change_details(),
            class_name="sdd-code-actions",
        ),
        class_name="card sdd-card sdd-code",
        data_testid="sdd-code-step",
    )


def _code_error() -> rx.Component:
    error = t_message(S.code_error)
    return rx.cond(
        error != "",
        rx.el.div(error, class_name="field-error", role="alert", data_testid="sdd-code-error"),
    )


def _unavailable(text: str, testid: str) -> rx.Component:
    return rx.el.div(
        rx.el.div(rx.icon("landmark", size=30), class_name="result-icon", data_tone="danger"),
        rx.el.h2(t("Direct debit is not available"), class_name="result-title"),
        rx.el.p(t(text)),
        rx.el.p(t("You can still buy credits with another payment method."), class_name="muted"),
        rx.el.div(
            link_button(t("Other payment methods"), href=url("credits"), size="3"),
            link_button(
                t("Customer service"), href=static_page_url("service"), size="3", variant="soft"
            ),
            class_name="result-actions",
        ),
        class_name="card result-card",
        data_testid=testid,
    )


def _other_method(method: rx.Var[str]) -> rx.Component:
    return link_button(
        method_label(method),
        href=credits_method_url(S.tier, method),
        size="3",
        variant="soft",
        data_testid=f"sdd-pay-with-{method}",
    )


def _account_refused() -> rx.Component:
    """Why this bank account cannot be used, and the bundle's other payment methods."""
    return rx.el.div(
        rx.el.div(rx.icon("landmark", size=30), class_name="result-icon", data_tone="danger"),
        rx.el.h2(t_message(S.refusal), class_name="result-title", data_testid="sdd-refusal"),
        rx.el.p(t("Pay for this bundle with another payment method, or use another bank account.")),
        rx.el.div(
            rx.cond(
                S.other_methods.length() > 0,
                rx.foreach(S.other_methods, _other_method),
                link_button(t("Other payment methods"), href=credits_method_url(S.tier), size="3"),
            ),
            class_name="result-actions",
        ),
        rx.button(
            t("Use another bank account"),
            variant="ghost",
            size="2",
            on_click=S.edit,
            class_name="sdd-change",
            data_testid="sdd-other-account",
        ),
        class_name="card result-card",
        data_testid="sdd-refused",
    )


def _summary() -> rx.Component:
    bundle = S.bundle
    return rx.el.aside(
        rx.el.div(
            rx.el.span(tn("{count} credit", "{count} credits", bundle["credits"].to(int))),
            rx.el.strong(price(bundle)),
            class_name="summary-line",
        ),
        rx.el.div(
            rx.icon("landmark", size=16), t(METHOD_LABELS[DIRECT_DEBIT]), class_name="sdd-method"
        ),
        rx.el.p(t(COLLECTION_NOTE), class_name="muted small"),
        class_name="card sdd-summary",
        data_testid="sdd-summary",
    )


def _steps() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            _progress(),
            rx.match(S.step, (MANDATE, _mandate()), (CODE, _code()), _form()),
            class_name="sdd-main",
        ),
        _summary(),
        class_name="sdd-layout",
    )


@page("directdebit", on_load=[S.load_page])
def direct_debit_page() -> rx.Component:
    return rx.el.div(
        rx.el.h1(t(METHOD_LABELS[DIRECT_DEBIT]), class_name="page-title"),
        rx.match(
            S.step,
            (BLOCKED, _unavailable(SDD_ACCOUNT_BLOCKED, "sdd-blocked")),
            (NOT_AVAILABLE, _unavailable(NOT_OFFERED, "sdd-not-offered")),
            (REFUSED, _account_refused()),
            (FORM, MANDATE, CODE, _steps()),
            rx.center(rx.spinner(size="3"), padding="48px"),
        ),
        class_name="container sdd-page",
        data_testid="page-directdebit",
    )
