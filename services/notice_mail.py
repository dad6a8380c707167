"""The e-mails that tell an absent member the news (a message, a like, a match), in their
language, with a one-click unsubscribe. They name who it is about, never what they wrote."""

from dataclasses import dataclass

from models.routes import url
from models.site_settings import SiteSettings
from services.mail import OutgoingMail
from services.mail_frame import MailText, Recipient, Unsubscribe, public_link, write
from translations.catalog import N_

UNSUBSCRIBE_API = "/api/unsubscribe.php"
_NOTE = N_("You choose which e-mails we send you under Notifications in your account.")

MESSAGE_MAIL = MailText(
    N_("{sender} sent you a message"),
    N_("Hello {name},"),
    N_("{sender} wrote to you on {site}. Reply while the conversation is fresh."),
    N_("Read the message"),
    _NOTE,
)
LIKE_MAIL = MailText(
    N_("{sender} likes you"),
    N_("Hello {name},"),
    N_("{sender} likes your profile on {site}. Like back, and if you both do, it's a match."),
    N_("See your likes"),
    _NOTE,
)
MATCH_MAIL = MailText(
    N_("It's a match with {sender}!"),
    N_("Hello {name},"),
    N_("You and {sender} like each other on {site}. Send the first message and get talking."),
    N_("Send a message"),
    _NOTE,
)


@dataclass(frozen=True)
class Notice:
    """Which mail, about whom, and the page its button opens."""

    text: MailText
    sender: str  # the profile name of the member it is about
    path: str


def unsubscribe_links(key: str) -> Unsubscribe:
    return Unsubscribe(
        page=public_link(url("unsubscribe", key=key)),
        one_click=public_link(f"{UNSUBSCRIBE_API}?key={key}"),
    )


def notice_mail(
    notice: Notice, to: Recipient, unsubscribe_key: str, settings: SiteSettings
) -> OutgoingMail:
    link = public_link(notice.path)
    unsubscribe = unsubscribe_links(unsubscribe_key)
    return write(notice.text, to, link, settings, unsubscribe, sender=notice.sender)
