import logging
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import parseaddr
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from services.config import get_config
from services.mail import (
    MailDeliveryError,
    OutgoingMail,
    build_message,
    delivered,
    links_in,
    outbox_messages,
    send_mail,
    send_mail_async,
)
from tests.network import free_port

SENDER = "noreply@amorly.example"
LINK = "https://amorly.example/confirm?token=abc123"
SMTP_USER = "mailer"
SMTP_PASSWORD = "s3cr:t@pass word/%"
SMTP_PASSWORD_IN_URL = "s3cr%3At%40pass%20word%2F%25"


def _mail(**changes) -> OutgoingMail:
    fields = {
        "to": "asa@example.com",
        "subject": "Bevestig je e-mailadres – Åsa",
        "text": f"Hoi Åsa,\n\nBevestig je adres: {LINK}.\n\nGroeten",
        "html": f'<p>Hoi Åsa,</p><p><a href="{LINK}">Bevestig</a></p>',
        "from_name": "Amorly Ünited",
        "language": "nl",
        "links": (LINK,),
    }
    fields.update(changes)
    return OutgoingMail(**fields)


@pytest.fixture
def mail_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Outbox mode under tmp_path; yields the outbox folder."""
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("MAIL_FROM", SENDER)
    monkeypatch.delenv("SMTP_URL", raising=False)
    get_config.cache_clear()
    yield tmp_path / "outbox"
    get_config.cache_clear()


class _Collector:
    def __init__(self) -> None:
        self.envelopes: list = []

    async def handle_DATA(self, server, session, envelope) -> str:
        self.envelopes.append(envelope)
        return "250 Message accepted for delivery"


def _accept_one_user(server, session, envelope, mechanism, auth_data) -> AuthResult:
    ok = (
        isinstance(auth_data, LoginPassword)
        and auth_data.login == SMTP_USER.encode()
        and auth_data.password == SMTP_PASSWORD.encode()
    )
    return AuthResult(success=ok, handled=False)  # handled=False: aiosmtpd replies 535


@pytest.fixture
def smtp_server() -> Iterator[tuple[Controller, _Collector]]:
    collector = _Collector()
    controller = Controller(collector, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield controller, collector
    finally:
        controller.stop()


@pytest.fixture
def smtp_auth_server() -> Iterator[tuple[Controller, _Collector]]:
    collector = _Collector()
    controller = Controller(
        collector,
        hostname="127.0.0.1",
        port=free_port(),
        authenticator=_accept_one_user,
        auth_require_tls=False,
    )
    controller.start()
    try:
        yield controller, collector
    finally:
        controller.stop()


def _parts(message: EmailMessage) -> tuple[str, str]:
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    assert text is not None and html is not None
    return text.get_content(), html.get_content()


def test_build_message_headers_and_parts() -> None:
    message = build_message(_mail(), SENDER)
    assert message.get_content_type() == "multipart/alternative"
    assert [part.get_content_type() for part in message.iter_parts()] == [
        "text/plain",
        "text/html",
    ]
    assert all(part.get_content_charset() == "utf-8" for part in message.iter_parts())
    assert parseaddr(str(message["From"])) == ("Amorly Ünited", SENDER)
    assert message["To"] == "asa@example.com"
    assert message["Auto-Submitted"] == "auto-generated"
    assert message["Content-Language"] == "nl"
    assert message["Date"]
    assert str(message["Message-ID"]).endswith("@amorly.example>")


def test_outbox_mode_writes_parseable_eml(mail_env: Path, caplog) -> None:
    caplog.set_level(logging.INFO, logger="services.mail")
    send_mail(_mail())

    files = list(mail_env.glob("*.eml"))
    assert len(files) == 1
    assert not [p for p in mail_env.iterdir() if p.suffix != ".eml"]  # no temp file left
    [message] = outbox_messages()
    assert message["Subject"] == "Bevestig je e-mailadres – Åsa"
    assert message["To"] == "asa@example.com"
    assert parseaddr(str(message["From"])) == ("Amorly Ünited", SENDER)
    assert message["Auto-Submitted"] == "auto-generated"
    assert str(message["Message-ID"]).endswith("@amorly.example>")
    text, html = _parts(message)
    assert "Hoi Åsa" in text and f'href="{LINK}"' in html
    assert links_in(message) == [LINK]

    logged = [record.getMessage() for record in caplog.records]
    assert (
        f"mail to asa@example.com: Bevestig je e-mailadres – Åsa (outbox: {files[0].name})"
        in logged
    )
    assert f"mail link: {LINK}" in logged


def test_outbox_messages_oldest_first(mail_env: Path) -> None:
    for number in range(3):
        send_mail(_mail(subject=f"mail {number}"))
    assert [m["Subject"] for m in outbox_messages(mail_env)] == ["mail 0", "mail 1", "mail 2"]


def test_outbox_messages_without_outbox(mail_env: Path) -> None:
    assert outbox_messages() == []


def test_links_in_finds_every_link_in_order() -> None:
    second = "http://localhost:3000/unsubscribe?id=7"
    message = build_message(_mail(text=f"Eerst {LINK}\nDan ({second})."), SENDER)
    assert links_in(message) == [LINK, second]


def test_smtp_mode_delivers(mail_env: Path, smtp_server, monkeypatch, caplog) -> None:
    caplog.set_level(logging.INFO, logger="services.mail")
    controller, collector = smtp_server
    monkeypatch.setenv("SMTP_URL", f"smtp://{controller.hostname}:{controller.port}")
    get_config.cache_clear()

    send_mail(_mail())

    [envelope] = collector.envelopes
    assert envelope.mail_from == SENDER
    assert envelope.rcpt_tos == ["asa@example.com"]
    received = message_from_bytes(envelope.original_content, policy=policy.default)
    assert received["Subject"] == "Bevestig je e-mailadres – Åsa"
    text, html = _parts(received)
    assert "Hoi Åsa" in text and "<p>Hoi Åsa,</p>" in html
    assert links_in(received) == [LINK]
    assert not mail_env.exists()  # nothing went to the outbox
    assert not [r for r in caplog.records if LINK in r.getMessage()]  # links log people in


def test_smtp_with_login(mail_env: Path, smtp_auth_server, monkeypatch, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    controller, collector = smtp_auth_server
    url = f"smtp://{SMTP_USER}:{SMTP_PASSWORD_IN_URL}@{controller.hostname}:{controller.port}"
    monkeypatch.setenv("SMTP_URL", url)
    get_config.cache_clear()

    send_mail(_mail())

    [envelope] = collector.envelopes
    assert envelope.rcpt_tos == ["asa@example.com"]
    assert not any(
        SMTP_PASSWORD in record.getMessage() or SMTP_PASSWORD_IN_URL in record.getMessage()
        for record in caplog.records
        if record.name.startswith("services")
    )


def test_smtp_wrong_password_raises(mail_env: Path, smtp_auth_server, monkeypatch) -> None:
    controller, collector = smtp_auth_server
    monkeypatch.setenv("SMTP_URL", f"smtp://{SMTP_USER}:wrong@127.0.0.1:{controller.port}")
    get_config.cache_clear()

    with pytest.raises(MailDeliveryError) as raised:
        send_mail(_mail())
    assert "wrong" not in str(raised.value)
    assert collector.envelopes == []


def test_non_ascii_password_raises(mail_env: Path, smtp_auth_server, monkeypatch) -> None:
    controller, _ = smtp_auth_server
    monkeypatch.setenv("SMTP_URL", f"smtp://{SMTP_USER}:%C3%B8@127.0.0.1:{controller.port}")
    get_config.cache_clear()

    with pytest.raises(MailDeliveryError):
        send_mail(_mail())


def test_unreachable_smtp_raises(mail_env: Path, monkeypatch) -> None:
    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{free_port()}")
    get_config.cache_clear()

    with pytest.raises(MailDeliveryError) as raised:
        send_mail(_mail())
    assert isinstance(raised.value.__cause__, OSError)


def test_unsupported_scheme_raises(mail_env: Path, monkeypatch) -> None:
    monkeypatch.setenv("SMTP_URL", "http://127.0.0.1:25")
    get_config.cache_clear()

    with pytest.raises(MailDeliveryError):
        send_mail(_mail())


async def test_send_mail_async(mail_env: Path) -> None:
    await send_mail_async(_mail(subject="async"))
    [message] = outbox_messages()
    assert message["Subject"] == "async"


async def test_delivered_answers_false_and_logs_when_the_server_is_down(
    mail_env: Path, monkeypatch, caplog
) -> None:
    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{free_port()}")
    get_config.cache_clear()
    assert await delivered(_mail()) is False
    assert any("failed" in r.getMessage() for r in caplog.records if r.levelname == "ERROR")
    monkeypatch.delenv("SMTP_URL")
    get_config.cache_clear()
    assert await delivered(_mail()) is True
