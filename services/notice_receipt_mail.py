"""The receipt of an Art. 16 notice (/complaints), sent at once in the language of the page the
notice was sent from, quoting its reference and what was reported (docs/reports.md)."""

from babel.dates import format_date

from models.moderation import Report
from models.report_rules import CATEGORY_LABELS
from models.routes import url
from services.mail import OutgoingMail
from services.mail_frame import MailBody, Recipient, Section, public_link, render
from services.site_settings import current_settings
from translations.catalog import N_, gettext
from translations.locales import DEFAULT_LOCALE, supported

SUBJECT = N_("We received your notice {reference}")
LEAD = N_("Thank you for your notice.")
BODY = N_(
    "We have received your notice about content on {site}. Our moderators will review it "
    "and let you know what they decided, with the ways to contest that decision. Please "
    "quote the reference {reference} if you write to us about it."
)
BUTTON = N_("Go to {site}")
NOTE = N_("Did you not send this notice? Then you can ignore this e-mail.")
SECTION = N_("Your notice")
REFERENCE = N_("Reference")
ADDRESS = N_("Web address")
CATEGORY = N_("Category")
RECEIVED = N_("Received on")


def notice_receipt(notice: Report) -> OutgoingMail:
    settings = current_settings()
    locale = supported(notice.language) or DEFAULT_LOCALE
    values = {"site": settings.name, "reference": notice.reference}
    rows = (
        (gettext(locale, REFERENCE), notice.reference),
        (gettext(locale, ADDRESS), notice.url),
        (gettext(locale, CATEGORY), gettext(locale, CATEGORY_LABELS[notice.category])),
        (gettext(locale, RECEIVED), format_date(notice.created_at, format="long", locale=locale)),
    )
    body = MailBody(
        subject=gettext(locale, SUBJECT, **values),
        lead=gettext(locale, LEAD),
        body=gettext(locale, BODY, **values),
        button=gettext(locale, BUTTON, **values),
        link=public_link(url("index")),
        note=gettext(locale, NOTE),
        sections=(Section(gettext(locale, SECTION), rows),),
    )
    return render(body, Recipient(notice.notifier_email, notice.notifier_name, locale), settings)
