"""Mail as a job: deferred in the action's transaction, sent once it committed, retried while the
mail server refuses, and never sent twice (each mail's key is marked once it went out)."""

import asyncio
from dataclasses import asdict
from typing import Any
from uuid import uuid4

from sqlmodel import Session

from models.effect_marks import is_marked, mark
from services.database import db_session, transaction
from services.jobs import defer, job
from services.mail import OutgoingMail, send_mail

SEND_MAIL = "send_mail"
DELAYS = (30.0, 120.0, 600.0, 3600.0, 4 * 3600.0)  # a mail server down for hours still gets it


def mail_later(db: Session, mail: OutgoingMail) -> None:
    """Defer sending `mail` in `db`'s transaction."""
    defer(db, SEND_MAIL, key=f"mail:{uuid4().hex}", mail=asdict(mail))


def _mail_of(fields: dict[str, Any]) -> OutgoingMail:
    links = tuple(fields.pop("links", ()))
    headers = tuple(tuple(pair) for pair in fields.pop("headers", ()))
    return OutgoingMail(**fields, links=links, headers=headers)  # type: ignore[arg-type]


@job(SEND_MAIL, DELAYS)
async def send_mail_job(key: str, mail: dict[str, Any]) -> None:
    await asyncio.to_thread(send_once, key, _mail_of(dict(mail)))


def send_once(key: str, mail: OutgoingMail) -> None:
    """Send unless the key says it went out; a failure raises (MailDeliveryError), so the job
    is tried again. Between the send and its mark only a crash can come: the one window."""
    with db_session() as db:
        if is_marked(db, key):
            return
    send_mail(mail)
    with transaction() as db:
        mark(db, key)
