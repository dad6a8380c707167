"""Outgoing mail: SMTP when SMTP_URL is set, else `.eml` files in the outbox folder.

Every sent mail is logged with its recipient, subject and action links, so a tester can follow
a confirmation link straight from the server log. Passwords are never logged.
"""

import asyncio
import email
import email.policy
import logging
import re
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from services.config import get_config
from services.outbox import outbox_files, write_to_outbox

log = logging.getLogger(__name__)

SMTP_TIMEOUT_SECONDS = 20.0
_DEFAULT_PORTS = {"smtp": 25, "smtp+starttls": 587, "smtps": 465}
_URL_PATTERN = re.compile(r"https?://[^\s<>\"']+")
_URL_TRAILING = ".,;:!?)]}"


class MailDeliveryError(Exception):
    """The mail could not be handed to the SMTP server; the cause is chained."""


@dataclass(frozen=True)
class OutgoingMail:
    to: str
    subject: str
    text: str
    html: str
    from_name: str
    language: str  # the locale the texts are written in: Content-Language and <html lang>
    links: tuple[str, ...] = ()
    headers: tuple[tuple[str, str], ...] = ()  # e.g. List-Unsubscribe


@dataclass(frozen=True)
class _SmtpTarget:
    host: str
    port: int
    implicit_tls: bool
    starttls: bool
    username: str | None
    password: str | None


def build_message(mail: OutgoingMail, sender: str) -> EmailMessage:
    """A multipart/alternative message: the text part, then the HTML part, both UTF-8."""
    message = EmailMessage()
    message["From"] = formataddr((mail.from_name, sender))
    message["To"] = mail.to
    message["Subject"] = mail.subject
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "localhost")
    message["Auto-Submitted"] = "auto-generated"
    for name, value in mail.headers:
        message[name] = value
    # Quoted-printable keeps the body 7-bit, so servers without 8BITMIME take it as is.
    message.set_content(mail.text, subtype="plain", charset="utf-8", cte="quoted-printable")
    message.add_alternative(mail.html, subtype="html", charset="utf-8", cte="quoted-printable")
    message["Content-Language"] = mail.language  # after the parts: set_content drops Content-*
    return message


def send_mail(mail: OutgoingMail) -> None:
    """Deliver through SMTP_URL, or write to the outbox; raise MailDeliveryError on failure."""
    config = get_config()
    message = build_message(mail, config.mail_from)
    if config.smtp_url:
        _deliver_smtp(message, config.smtp_url, config.mail_from, mail.to)
        log.info("mail to %s: %s", mail.to, mail.subject)
        return
    path = write_to_outbox(config.outbox_dir, ".eml", message.as_bytes())
    log.info("mail to %s: %s (outbox: %s)", mail.to, mail.subject, path.name)
    for link in mail.links:  # only without SMTP: links log people in, so never in production
        log.info("mail link: %s", link)


async def send_mail_async(mail: OutgoingMail) -> None:
    await asyncio.to_thread(send_mail, mail)


async def delivered(mail: OutgoingMail) -> bool:
    """Send `mail`; a failure is logged and answered False, for callers that carry on."""
    try:
        await send_mail_async(mail)
    except MailDeliveryError:
        log.exception("mail to %s failed: %s", mail.to, mail.subject)
        return False
    return True


def outbox_messages(outbox_dir: Path | None = None) -> list[EmailMessage]:
    """Every mail in the outbox, oldest first."""
    folder = outbox_dir if outbox_dir is not None else get_config().outbox_dir
    messages = []
    for path in outbox_files(folder, ".eml"):
        parsed = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        messages.append(parsed)
    return messages


def links_in(message: EmailMessage) -> list[str]:
    """The http(s) URLs in the message's text part, in order."""
    part = message.get_body(preferencelist=("plain",))
    if part is None:
        return []
    text = part.get_content()
    return [match.rstrip(_URL_TRAILING) for match in _URL_PATTERN.findall(text)]


def _smtp_target(url: str) -> _SmtpTarget:
    """Parse `smtp://`, `smtp+starttls://` or `smtps://[user:pass@]host[:port][?starttls=1]`."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise MailDeliveryError(f"unsupported SMTP_URL scheme {scheme!r}")
    try:
        port = parts.port or _DEFAULT_PORTS[scheme]
    except ValueError as error:
        raise MailDeliveryError("SMTP_URL has an invalid port") from error
    if not parts.hostname:
        raise MailDeliveryError("SMTP_URL has no host")
    query_starttls = parse_qs(parts.query).get("starttls", [""])[-1].lower()
    return _SmtpTarget(
        host=parts.hostname,
        port=port,
        implicit_tls=scheme == "smtps",
        starttls=scheme == "smtp+starttls" or query_starttls in {"1", "true", "yes", "on"},
        username=unquote(parts.username) if parts.username is not None else None,
        password=unquote(parts.password) if parts.password is not None else None,
    )


def _deliver_smtp(message: EmailMessage, url: str, sender: str, recipient: str) -> None:
    target = _smtp_target(url)
    try:
        client: smtplib.SMTP
        if target.implicit_tls:
            client = smtplib.SMTP_SSL(
                target.host,
                target.port,
                timeout=SMTP_TIMEOUT_SECONDS,
                context=ssl.create_default_context(),
            )
        else:
            client = smtplib.SMTP(target.host, target.port, timeout=SMTP_TIMEOUT_SECONDS)
        with client:
            client.ehlo()
            if target.starttls:
                client.starttls(context=ssl.create_default_context())
                client.ehlo()
            if target.username:
                client.login(target.username, target.password or "")
            client.send_message(message, from_addr=sender, to_addrs=[recipient])
    except (smtplib.SMTPException, OSError, UnicodeError) as error:
        # The cause names the server's reply or the socket error, never the password.
        # (UnicodeError: smtplib accepts only ASCII credentials.)
        raise MailDeliveryError(
            f"SMTP delivery to {target.host}:{target.port} failed: {error}"
        ) from error
