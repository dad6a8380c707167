"""Mail as a job: an action that mails calls `mailed(db, mail)` inside its transaction, which
defers the send (services/mail_job.py), and lists the returned `MailOut` among its effects, for
its caller and tests to see what went out."""

from dataclasses import dataclass
from typing import ClassVar

from sqlmodel import Session

from services.mail import OutgoingMail
from services.mail_job import mail_later


@dataclass(frozen=True)
class MailOut:
    mail: OutgoingMail
    durable: ClassVar[bool] = True  # its job runs it: nothing to dispatch after the commit


def mailed(db: Session, mail: OutgoingMail) -> MailOut:
    """Defer `mail` in `db`'s transaction: it goes out once that commits, never otherwise."""
    mail_later(db, mail)
    return MailOut(mail)
