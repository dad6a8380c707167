"""The account e-mails (activation, password reset, e-mail change, reactivation), written in
the member's language in the shared frame (services/mail_frame.py)."""

from datetime import date

from babel.dates import format_date
from sqlmodel import Session

from models.deletion import GRACE_PERIOD
from models.member import Member, Profile
from models.routes import url
from models.site_settings import SiteSettings
from services.mail import OutgoingMail
from services.mail_frame import MailText, Recipient, public_link, write
from services.site_settings import current_settings
from translations.catalog import N_

ACTIVATE_PATH = "/api/activate.php?token="
REACTIVATE_PATH = "/api/reactivate.php?token="
RESET_PATH = url("reset-password-do") + "?token="
MAIL_CHANGE_PATH = url("mail-change-do") + "?token="


ACTIVATION = MailText(
    N_("Confirm your e-mail address"),
    N_("Welcome to {site}, {name}!"),
    N_(
        "Confirm your e-mail address to activate your account. Then other members can "
        "find you and write to you."
    ),
    N_("Confirm e-mail address"),
    N_("This link works once and is valid for 7 days."),
)
PASSWORD_RESET = MailText(
    N_("Reset your password"),
    N_("Hello {name},"),
    N_(
        "Someone asked to reset the password of your {site} account. If that was you, "
        "choose a new password with the button below."
    ),
    N_("Choose a new password"),
    N_(
        "This link works once and is valid for one hour. If you did not ask for it, "
        "ignore this e-mail: your password stays the same."
    ),
)
EMAIL_CHANGE = MailText(
    N_("Confirm your new e-mail address"),
    N_("Hello {name},"),
    N_("Confirm that you want to use this address for your {site} account from now on."),
    N_("Confirm new address"),
    N_(
        "This link works once and is valid for 24 hours. If you did not ask for this "
        "change, ignore this e-mail."
    ),
)
REACTIVATION = MailText(
    N_("Reactivate your account"),
    N_("Hello {name},"),
    N_(
        "Your account has been deleted and will be erased for good on {date}. Changed "
        "your mind? Reactivate it with the button below."
    ),
    N_("Reactivate my account"),
    N_("Until then nobody can see your profile."),
)


def account_mail(
    db: Session, member: Member, text: MailText, path: str, token: str, **extra
) -> OutgoingMail:
    """The mail with its link, addressed by the member's profile name in their language."""
    profile = db.get(Profile, member.id)
    to = Recipient(extra.pop("to", member.email), profile.name if profile else "", member.language)
    return compose(text, to, public_link(path + token), current_settings(), **extra)


def reactivation_mail(db: Session, member: Member, token: str) -> OutgoingMail:
    """The reactivation link, with the day the account will be erased without it."""
    erase_on = (member.deleted_at + GRACE_PERIOD).date()
    return account_mail(db, member, REACTIVATION, REACTIVATE_PATH, token, erase_on=erase_on)


def compose(
    text: MailText, to: Recipient, link: str, settings: SiteSettings, erase_on: date | None = None
) -> OutgoingMail:
    if erase_on is None:
        return write(text, to, link, settings)
    return write(
        text, to, link, settings, date=format_date(erase_on, format="long", locale=to.locale)
    )
