"""Outgoing SMS: the outbox without SMS_URL, Twilio's Messages API with it (answered by
httpx.MockTransport with Twilio's documented JSON), and the SmsOut effect."""

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import pytest

from actions.effects import dispatch, settle
from actions.sms import SmsOut
from services.config import get_config
from services.sms import (
    TwilioAccount,
    send_sms,
    send_twilio,
    sms_outbox_messages,
    twilio_account,
)

SID = "ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"
TOKEN = "s3cret/t:ken"
SENDER = "+15005550006"
MESSAGE = f"/2010-04-01/Accounts/{SID}/Messages/SMXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"
TO = "+31612345678"
TEXT = "Amorly: 424242 is je code. Geldig 10 minuten – Åsa"
ACCOUNT = TwilioAccount(SID, TOKEN, SENDER)

# Twilio's documented answer to POST /2010-04-01/Accounts/{AccountSid}/Messages.json (201)
CREATED = {
    "account_sid": SID,
    "api_version": "2010-04-01",
    "body": TEXT,
    "date_created": "Thu, 24 Aug 2023 05:01:45 +0000",
    "date_sent": None,
    "date_updated": "Thu, 24 Aug 2023 05:01:45 +0000",
    "direction": "outbound-api",
    "error_code": None,
    "error_message": None,
    "from": SENDER,
    "messaging_service_sid": None,
    "num_media": "0",
    "num_segments": "1",
    "price": None,
    "price_unit": None,
    "sid": "SMXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "status": "queued",
    "subresource_uris": {"media": f"{MESSAGE}/Media.json"},
    "to": TO,
    "uri": f"{MESSAGE}.json",
}
# Twilio's documented error body (400)
INVALID_TO = {
    "code": 21211,
    "message": "The 'To' number +3161 is not a valid phone number.",
    "more_info": "https://www.twilio.com/docs/errors/21211",
    "status": 400,
}


@pytest.fixture
def sms_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Outbox mode under tmp_path; yields the SMS outbox folder."""
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.delenv("SMS_URL", raising=False)
    get_config.cache_clear()
    yield tmp_path / "sms_outbox"
    get_config.cache_clear()


class Twilio:
    """A MockTransport that records requests and answers with one status and body."""

    def __init__(self, status: int = 201, body: object = CREATED) -> None:
        self.requests: list[httpx.Request] = []
        self.status, self.body = status, body
        self.transport = httpx.MockTransport(self._answer)

    def _answer(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(self.status, content=json.dumps(self.body).encode())


async def test_without_sms_url_each_sms_goes_to_the_outbox_and_the_log(
    sms_env: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="services.sms")
    assert await send_sms(TO, TEXT)
    assert await send_sms("+4915123456789", "second\n\nwith a blank line")
    messages = sms_outbox_messages()
    assert [(m.to, m.text) for m in messages] == [
        (TO, TEXT),
        ("+4915123456789", "second\n\nwith a blank line"),
    ]
    assert all(m.path.parent == sms_env for m in messages)
    assert TEXT in caplog.text and TO in caplog.text
    assert not list(sms_env.glob(".sms-*"))


def test_an_empty_outbox(tmp_path: Path) -> None:
    assert sms_outbox_messages(tmp_path / "missing") == []


async def test_twilio_gets_the_form_its_api_documents() -> None:
    twilio = Twilio()
    assert await send_twilio(ACCOUNT, TO, TEXT, twilio.transport)
    [request] = twilio.requests
    assert request.method == "POST"
    assert str(request.url) == f"https://api.twilio.com/2010-04-01/Accounts/{SID}/Messages.json"
    assert request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert parse_qs(request.content.decode()) == {"To": [TO], "From": [SENDER], "Body": [TEXT]}
    expected = httpx.BasicAuth(SID, TOKEN).auth_flow(httpx.Request("GET", "https://x"))
    assert request.headers["authorization"] == next(expected).headers["authorization"]


async def test_twilios_error_is_logged_without_the_token(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="services.sms")
    assert not await send_twilio(ACCOUNT, TO, TEXT, Twilio(400, INVALID_TO).transport)
    assert "21211" in caplog.text and "not a valid phone number" in caplog.text
    assert TOKEN not in caplog.text and "424242" not in caplog.text


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (401, {"code": 20003, "message": "Authenticate", "more_info": "", "status": 401}),
        (201, {**CREATED, "status": "failed", "error_code": 30006}),
        (500, "<html>Internal Server Error</html>"),
        (503, []),
    ],
)
async def test_anything_but_an_accepted_message_is_a_failure(status: int, body: object) -> None:
    assert not await send_twilio(ACCOUNT, TO, TEXT, Twilio(status, body).transport)


async def test_an_unreachable_twilio_is_a_failure() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    assert not await send_twilio(ACCOUNT, TO, TEXT, httpx.MockTransport(refuse))


async def test_sms_url_selects_twilio(sms_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SMS_URL", f"twilio://{SID}:s3cret%2Ft%3Aken@{SENDER}")
    get_config.cache_clear()
    twilio = Twilio()
    assert await send_sms(TO, TEXT, twilio.transport)
    assert len(twilio.requests) == 1
    assert sms_outbox_messages() == []


async def test_a_broken_sms_url_sends_nothing(
    sms_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SMS_URL", "smpp://somewhere")
    get_config.cache_clear()
    assert not await send_sms(TO, TEXT, Twilio().transport)


@pytest.mark.parametrize(
    ("url", "account"),
    [
        (f"twilio://{SID}:{TOKEN}@{SENDER}", ACCOUNT),
        (f"twilio://{SID}:a%40b@Amorly/", TwilioAccount(SID, "a@b", "Amorly")),
    ],
)
def test_twilio_urls(url: str, account: TwilioAccount) -> None:
    assert twilio_account(url) == account


@pytest.mark.parametrize("url", ["twilio://", f"twilio://{SID}@{SENDER}", "https://x"])
def test_bad_twilio_urls(url: str) -> None:
    with pytest.raises(ValueError):
        twilio_account(url)


async def test_the_effect_sends_after_the_commit(sms_env: Path) -> None:
    dispatch([SmsOut(TO, TEXT)])
    await settle()
    assert [(m.to, m.text) for m in sms_outbox_messages()] == [(TO, TEXT)]
