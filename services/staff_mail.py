"""The staff second factor's security mails: an authenticator set up, a recovery code used.
Each tells the member in their language, so a takeover of the console does not go unseen."""

from sqlmodel import Session

from models.member import Member
from models.routes import url
from services.account_mail import account_mail
from services.mail import OutgoingMail
from services.mail_frame import MailText
from translations.catalog import N_

TOTP_ENROLLED = MailText(
    N_("An authenticator app was set up"),
    N_("Hello {name},"),
    N_(
        "An authenticator app was just set up for the staff console of your {site} account. "
        "If that was you, there is nothing more to do."
    ),
    N_("Change your password"),
    N_("Wasn't it you? Change your password at once and tell an administrator."),
)
RECOVERY_CODE_USED = MailText(
    N_("A recovery code was used"),
    N_("Hello {name},"),
    N_(
        "One of your recovery codes was just used to open the staff console of your {site} "
        "account. Each code works only once."
    ),
    N_("Change your password"),
    N_("Wasn't it you? Change your password at once and tell an administrator."),
)


def staff_security_mail(db: Session, member: Member, text: MailText) -> OutgoingMail:
    """`text` to the member, with a button to their settings to change the password."""
    return account_mail(db, member, text, url("settings"), "")
