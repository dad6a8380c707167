"""Outgoing SMS: Twilio's Messages API when SMS_URL is `twilio://ACCOUNT_SID:AUTH_TOKEN@+FROM`,
else one `.txt` file per SMS in the SMS outbox (DATA_DIR/sms_outbox) and a log line, like mail.

The text of an SMS (it carries a code) is logged only in outbox mode; the auth token never.
"""

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import httpx

from services.config import get_config
from services.outbox import outbox_files, write_to_outbox
from services.tls import tls_context

log = logging.getLogger(__name__)

TWILIO_API_URL = "https://api.twilio.com/2010-04-01"
TIMEOUT_SECONDS = 15.0
_TWILIO_SCHEME = "twilio://"
_UNDELIVERED = frozenset({"failed", "undelivered", "canceled"})


@dataclass(frozen=True)
class SmsMessage:
    to: str
    text: str
    path: Path


@dataclass(frozen=True)
class TwilioAccount:
    account_sid: str
    auth_token: str
    sender: str  # a phone number in E.164, or an alphanumeric sender id


def twilio_account(url: str) -> TwilioAccount:
    """Parse `twilio://ACCOUNT_SID:AUTH_TOKEN@SENDER` (parts percent-encoded where needed)."""
    if not url.startswith(_TWILIO_SCHEME):
        raise ValueError("SMS_URL must start with twilio://")
    credentials, _, sender = url[len(_TWILIO_SCHEME) :].rpartition("@")
    sid, _, token = credentials.partition(":")
    if not (sid and token and sender):
        raise ValueError("SMS_URL needs twilio://ACCOUNT_SID:AUTH_TOKEN@SENDER")
    return TwilioAccount(unquote(sid), unquote(token), unquote(sender.rstrip("/")))


async def send_sms(
    to_e164: str, text: str, transport: httpx.AsyncBaseTransport | None = None
) -> bool:
    """Send through SMS_URL's gateway, or write to the outbox; False (logged) when it failed."""
    config = get_config()
    if not config.sms_url:
        content = f"To: {to_e164}\n\n{text}".encode()
        path = await asyncio.to_thread(write_to_outbox, config.sms_outbox_dir, ".txt", content)
        log.info("sms to %s (outbox: %s): %s", to_e164, path.name, text)
        return True
    try:
        account = twilio_account(config.sms_url)
    except ValueError as error:
        log.error("sms to %s not sent: %s", to_e164, error)
        return False
    return await send_twilio(account, to_e164, text, transport)


async def send_twilio(
    account: TwilioAccount,
    to_e164: str,
    text: str,
    transport: httpx.AsyncBaseTransport | None = None,
) -> bool:
    """POST to Twilio's Messages resource; True when Twilio accepted the message."""
    url = f"{TWILIO_API_URL}/Accounts/{account.account_sid}/Messages.json"
    form = {"To": to_e164, "From": account.sender, "Body": text}
    try:
        async with httpx.AsyncClient(
            verify=tls_context(), transport=transport, timeout=TIMEOUT_SECONDS
        ) as client:
            answer = await client.post(
                url, data=form, auth=(account.account_sid, account.auth_token)
            )
        body = answer.json()
    except (httpx.HTTPError, ValueError) as error:
        log.error("sms to %s not sent: %s", to_e164, type(error).__name__)
        return False
    if not isinstance(body, dict):
        log.error("sms to %s not sent: HTTP %s", to_e164, answer.status_code)
        return False
    if answer.is_success and body.get("status") not in _UNDELIVERED:
        log.info("sms to %s: %s (%s)", to_e164, body.get("sid"), body.get("status"))
        return True
    log.error(
        "sms to %s not sent: HTTP %s, Twilio error %s: %s",
        to_e164,
        answer.status_code,
        body.get("code") or body.get("error_code"),
        body.get("message") or body.get("error_message"),
    )
    return False


def sms_outbox_messages(folder: Path | None = None) -> list[SmsMessage]:
    """Every SMS in the outbox, oldest first."""
    folder = folder if folder is not None else get_config().sms_outbox_dir
    messages = []
    for path in outbox_files(folder, ".txt"):
        header, _, text = path.read_text(encoding="utf-8").partition("\n\n")
        messages.append(SmsMessage(header.removeprefix("To: "), text, path))
    return messages
