"""Customer service mails (docs/customer-service.md): the receipt of a member's message, in the
language of the page it was sent from, and support's answer, in the ticket's language. Both
quote the ticket's reference (the receipt never the message: the form must relay no text to
an address nobody proved) and lead back to the contact form with the reference and the
follow-up token (services/ticket_tokens.py) filled in."""

from babel.dates import format_date

from models.routes import url
from models.tickets import TOPIC_LABELS, Ticket
from services.mail import OutgoingMail
from services.mail_frame import MailText, Recipient, Section, public_link, write
from services.site_settings import current_settings
from services.ticket_tokens import follow_up_token
from translations.catalog import N_, gettext
from translations.locales import DEFAULT_LOCALE, supported

RECEIPT_SUBJECT = N_("We received your message {reference}")
ANSWER_SUBJECT = N_("Answer to your question {reference}")
REPLY = N_("Reply")
RECEIPT = MailText(
    RECEIPT_SUBJECT,
    N_("Thank you for your message."),
    N_(
        "Our customer service team has received your message and will answer you by e-mail. "
        "Please quote the reference {reference} if you write to us about it."
    ),
    REPLY,
    N_("Did you not write to us? Then you can ignore this e-mail."),
)
ANSWER = MailText(
    ANSWER_SUBJECT,
    N_("Customer service has answered your question."),
    "{answer}",  # support's own words, in no catalogue
    REPLY,
    N_(
        "Do you want to reply? Please use the contact form with the reference {reference}: "
        "replies to this e-mail do not reach us."
    ),
)
SECTION = N_("Your question")
REFERENCE = N_("Reference")
TOPIC = N_("Topic")
RECEIVED = N_("Received on")


def ticket_receipt(ticket: Ticket) -> OutgoingMail:
    """The receipt of the ticket's latest message, in the ticket's (the page's) language."""
    return _mail(RECEIPT, ticket)


def ticket_answer(ticket: Ticket, answer: str) -> OutgoingMail:
    """Support's `answer`, in the ticket's language, with the way to reply."""
    return _mail(ANSWER, ticket, answer=answer)


def _mail(text: MailText, ticket: Ticket, **values: str) -> OutgoingMail:
    locale = supported(ticket.locale) or DEFAULT_LOCALE
    link = public_link(
        url("pages-service", reference=ticket.reference, token=follow_up_token(ticket.id))
    )
    to = Recipient(ticket.email, "", locale)
    sections = (_section(ticket, locale),)
    settings = current_settings()
    return write(text, to, link, settings, sections=sections, reference=ticket.reference, **values)


def _section(ticket: Ticket, locale: str) -> Section:
    rows = (
        (gettext(locale, REFERENCE), ticket.reference),
        (gettext(locale, TOPIC), gettext(locale, TOPIC_LABELS[ticket.topic])),
        (gettext(locale, RECEIVED), format_date(ticket.created_at, format="long", locale=locale)),
    )
    return Section(gettext(locale, SECTION), rows)
