"""The receipt of an Art. 16 notice (/complaints), sent at once in the language of the page the
notice was sent from, quoting its reference and what was reported (docs/reports.md)."""

from babel.dates import format_date

from models.moderation import Report
from models.report_rules import CATEGORY_LABELS
from models.routes import url
from services.mail import OutgoingMail
from services.mail_frame import MailText, Recipient, Section, public_link, write
from services.site_settings import current_settings
from translations.catalog import N_, gettext
from translations.locales import DEFAULT_LOCALE, supported

SUBJECT = N_("We received your notice {reference}")
NOTICE_RECEIPT = MailText(
    SUBJECT,
    N_("Thank you for your notice."),
    N_(
        "We have received your notice about content on {site}. Our moderators will review it "
        "and let you know what they decided, with the ways to contest that decision. Please "
        "quote the reference {reference} if you write to us about it."
    ),
    N_("Go to {site}"),
    N_("Did you not send this notice? Then you can ignore this e-mail."),
)
SECTION = N_("Your notice")
REFERENCE = N_("Reference")
ADDRESS = N_("Web address")
CATEGORY = N_("Category")
RECEIVED = N_("Received on")


def notice_receipt(notice: Report) -> OutgoingMail:
    locale = supported(notice.language) or DEFAULT_LOCALE
    rows = (
        (gettext(locale, REFERENCE), notice.reference),
        (gettext(locale, ADDRESS), notice.url),
        (gettext(locale, CATEGORY), gettext(locale, CATEGORY_LABELS[notice.category])),
        (gettext(locale, RECEIVED), format_date(notice.created_at, format="long", locale=locale)),
    )
    to = Recipient(notice.notifier_email, notice.notifier_name, locale)
    sections = (Section(gettext(locale, SECTION), rows),)
    link, settings = public_link(url("index")), current_settings()
    return write(NOTICE_RECEIPT, to, link, settings, sections=sections, reference=notice.reference)
