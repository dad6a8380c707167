"""The test provider's hosted checkout page: the tester picks the payment's outcome and when
its webhook arrives. Texts in the payment's locale."""

from html import escape

from models.pricing import format_money
from models.test_payments import SandboxPayment
from services.payments.test_provider.methods import method_spec
from services.payments.test_provider.webhooks import Timing
from translations.catalog import N_, gettext
from translations.locales import DEFAULT_LOCALE, supported

OUTCOMES = (
    ("paid", N_("Paid")),
    ("failed", N_("Failed")),
    ("canceled", N_("Cancelled")),
    ("expired", N_("Expired")),
    ("pending", N_("Pending")),
    ("open", N_("Leave open")),
)
TIMINGS = (
    (Timing.BEFORE, N_("Before the redirect")),
    (Timing.AFTER, N_("After the redirect")),
    (Timing.TWICE, N_("Twice")),
    (Timing.LATE, N_("Late (about 5 seconds)")),
)
_STATUS_LABELS = dict(OUTCOMES)

STYLE = """
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#f1f5f9;
color:#0f172a}main{max-width:28rem;margin:0 auto;padding:1.5rem 1rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 4px #0002}
.badge{display:inline-block;background:#fde68a;color:#78350f;border-radius:999px;
padding:.1rem .7rem;font-size:.8rem;font-weight:600}h1{font-size:1.4rem;margin:.5rem 0}
.note{color:#475569;font-size:.9rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}
dt{color:#64748b}dd{margin:0;font-weight:600}.amount{font-size:1.3rem}
dd img{height:1.2rem;vertical-align:middle;margin-right:.4rem}
fieldset{border:1px solid #e2e8f0;border-radius:8px;margin:1rem 0;padding:.5rem .8rem}
legend{font-weight:600;padding:0 .3rem}label{display:block;padding:.35rem 0;cursor:pointer}
button,.button{display:block;width:100%;padding:.8rem;border:0;border-radius:8px;
background:#2a1248;color:#fff;font:inherit;font-weight:600;text-align:center;
text-decoration:none;cursor:pointer}
"""


def page_locale(payment: SandboxPayment | None) -> str:
    """Our interface locale for Mollie's ("nl_NL" -> "nl")."""
    return (supported(payment.locale) if payment else None) or DEFAULT_LOCALE


def _page(locale: str, body: str) -> str:
    title = escape(gettext(locale, "Test payment"))
    return (
        f'<!doctype html><html lang="{locale}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title><style>{STYLE}</style></head>"
        f'<body><main><div class="card"><span class="badge">TEST</span>'
        f"<h1>{title}</h1>{body}</div></main></body></html>"
    )


def _method(payment: SandboxPayment, locale: str, base: str) -> str:
    spec = method_spec(payment.method)
    if spec is None:
        return escape(gettext(locale, "Any method"))
    icon = f'<img src="{escape(base)}/icons/{spec.id}.svg" alt="">'
    return icon + escape(gettext(locale, spec.description))


def _choices(locale: str, name: str, options, checked: str) -> str:
    return "".join(
        f'<label><input type="radio" name="{name}" value="{value}"'
        f"{' checked' if value == checked else ''}> {escape(gettext(locale, label))}</label>"
        for value, label in options
    )


def _summary(payment: SandboxPayment, locale: str, base: str) -> str:
    amount, description = gettext(locale, "Amount"), gettext(locale, "Description")
    method = gettext(locale, "Method")
    price = format_money(payment.amount_cents, payment.currency, locale)
    return (
        f"<dl><dt>{escape(amount)}</dt>"
        f'<dd class="amount">{escape(price)}</dd>'
        f"<dt>{escape(description)}</dt><dd>{escape(payment.description)}</dd>"
        f"<dt>{escape(method)}</dt><dd>{_method(payment, locale, base)}</dd></dl>"
    )


def _settled_page(payment: SandboxPayment, locale: str, base: str) -> str:
    note = gettext(locale, "This payment is no longer open.")
    status = gettext(locale, _STATUS_LABELS.get(payment.status, payment.status))
    back = gettext(locale, "Back to the website")
    return _page(
        locale,
        f'<p class="note">{escape(note)} <strong>{escape(status)}</strong></p>'
        f"{_summary(payment, locale, base)}"
        f'<a class="button" href="{escape(payment.redirect_url)}">{escape(back)}</a>',
    )


def checkout_page(payment: SandboxPayment, base: str) -> str:
    """The choice form for an open payment, else where it stands and the way back."""
    locale = page_locale(payment)
    if payment.status != "open":
        return _settled_page(payment, locale, base)
    note = gettext(locale, "Built-in test provider: no real money is charged.")
    outcome, webhook = gettext(locale, "Outcome"), gettext(locale, "Webhook")
    button = gettext(locale, "Continue")
    return _page(
        locale,
        f'<p class="note">{escape(note)}</p>{_summary(payment, locale, base)}'
        f'<form method="post"><fieldset><legend>{escape(outcome)}</legend>'
        f"{_choices(locale, 'outcome', OUTCOMES, 'paid')}</fieldset>"
        f"<fieldset><legend>{escape(webhook)}</legend>"
        f"{_choices(locale, 'webhook', TIMINGS, Timing.BEFORE)}</fieldset>"
        f'<button type="submit">{escape(button)}</button></form>',
    )


def not_found_page() -> str:
    text = gettext(DEFAULT_LOCALE, "Payment not found")
    return _page(DEFAULT_LOCALE, f"<p>{escape(text)}</p>")


def chosen(form: dict[str, str]) -> tuple[str, Timing] | None:
    """The outcome and webhook timing the form sent; None if either is not one we offer."""
    outcome, timing = form.get("outcome", ""), form.get("webhook", Timing.BEFORE)
    if outcome not in _STATUS_LABELS or timing not in {value for value, _ in TIMINGS}:
        return None
    return outcome, Timing(timing)
