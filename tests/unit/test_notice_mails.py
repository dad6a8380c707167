"""Notification e-mails: a member who is not on the site hears of a new message, like or match
by e-mail, in their language, at most once per conversation every 4 hours and 5 times a day,
with a one-click unsubscribe (RFC 8058) that switches them off with the reason "unsubscribe";
the job that tells them, run again, never mails twice."""

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from urllib.parse import parse_qs, urlsplit
from uuid import uuid4

import pytest
from sqlalchemy import text
from sqlmodel import Session

from actions import notices
from actions.chat import send, send_outside
from actions.effects import settle
from actions.likes import like
from actions.notices import NEW_LIKE, NEW_MESSAGE, NOTIFY, here_now
from actions.runner import act
from actions.viewer import Viewer
from models.chat import ChatError, Outgoing
from models.likes import like_member
from models.member import Member
from models.notice_mails import NoticeMail, claim_notice
from models.notification_prefs import save_preferences
from models.push_subscription import save_subscription
from services import jobs
from services.loop_database import serve_on_loop
from services.mail import links_in
from services.tab_registry import MemoryTabRegistry
from tests.factories import committed, make_member, row_count

Outbox = Callable[[], list[EmailMessage]]
NOON = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
SECRET = "Shall we meet at the lake on Sunday?"


def _claims(db: Session, member: Member, topics: list[str], at: datetime) -> list[bool]:
    return [committed(db, claim_notice, member.id, topic, at) for topic in topics]


def test_one_mail_per_topic_every_four_hours(db: Session) -> None:
    anna = make_member(db)
    assert _claims(db, anna, ["chat:1", "chat:1", "chat:2"], NOON) == [True, False, True]
    assert _claims(db, anna, ["chat:1"], NOON + timedelta(hours=3, minutes=59)) == [False]
    assert _claims(db, anna, ["chat:1"], NOON + timedelta(hours=4, minutes=1)) == [True]


def test_at_most_five_mails_in_any_24_hours(db: Session) -> None:
    anna = make_member(db)
    topics = [f"chat:{n}" for n in range(7)]
    assert _claims(db, anna, topics, NOON) == [True] * 5 + [False] * 2
    assert _claims(db, anna, ["chat:9"], NOON + timedelta(hours=23)) == [False]
    assert _claims(db, anna, ["chat:9"], NOON + timedelta(hours=24, minutes=1)) == [True]
    assert row_count(db, NoticeMail) == 1  # the day before is forgotten


def viewer_of(member: Member) -> Viewer:
    return Viewer(member.id, member.status, member.language, False)


async def told(
    what: str, member: Member, about: Member, conversation: int = 0, event: str = "", **more
):
    """Run the job that tells `member` of `what` about `about`, then the mail it deferred."""
    kwargs = {"what": what, "member_id": member.id, "about_id": about.id}
    kwargs |= {"conversation_id": conversation, "event": event or uuid4().hex, **more}
    assert await jobs.run_now(jobs.Call(NOTIFY, kwargs))
    await settle()


async def message_from(anna: Member, bo: Member, conversation: int = 7, event: str = "") -> None:
    await told(NEW_MESSAGE, bo, anna, conversation, event)


def text_of(mail: EmailMessage) -> str:
    part = mail.get_body(preferencelist=("plain",))
    assert part is not None
    return part.get_content()


async def test_a_message_to_an_absent_member_is_mailed_in_their_language(
    db: Session, outbox: Outbox
) -> None:
    anna, bo = make_member(db), make_member(db, email="bo@example.com", language="de")
    await message_from(anna, bo)
    [mail] = outbox()
    assert mail["To"] == "bo@example.com"
    assert mail["Subject"].startswith("Anna hat dir eine Nachricht geschickt")
    assert mail["Content-Language"] == "de"
    assert links_in(mail)[0].endswith("/chats/7")
    assert SECRET not in mail.as_string()


async def test_every_notice_mail_has_a_one_click_unsubscribe(db: Session, outbox: Outbox) -> None:
    anna, bo = make_member(db), make_member(db, email="bo@example.com")
    await message_from(anna, bo)
    [mail] = outbox()
    header = mail["List-Unsubscribe"]
    assert header.startswith("<") and header.endswith(">")
    one_click = urlsplit(header[1:-1])
    assert one_click.path == "/api/unsubscribe.php"
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    key = parse_qs(one_click.query)["key"][0]
    assert f"/unsubscribe?key={key}" in text_of(mail)  # the footer's link, for people


async def test_more_messages_in_the_same_conversation_send_no_second_mail(
    db: Session, outbox: Outbox
) -> None:
    anna, bo = make_member(db), make_member(db, email="bo@example.com")
    await message_from(anna, bo, 7)
    await message_from(anna, bo, 7)
    await message_from(anna, bo, 8)
    assert [links_in(mail)[0].rsplit("/", 1)[1] for mail in outbox()] == ["7", "8"]


async def test_a_member_on_the_site_gets_no_mail(
    db: Session, outbox: Outbox, tab_registry_in_memory: MemoryTabRegistry
) -> None:
    anna, bo = make_member(db), make_member(db, email="bo@example.com")
    await tab_registry_in_memory.add(bo.id, "bo-tab")
    await message_from(anna, bo)
    assert outbox() == []


@pytest.mark.parametrize(
    "fields",
    [
        {"notifications_disabled": ["bounce"]},
        {"notification_settings": {"email_messages": False}},
        {"status": "not_confirmed"},
        {"is_demo": True},
    ],
    ids=["bounced", "switched-off", "unconfirmed", "demo"],
)
async def test_no_mail_to_who_does_not_want_or_cannot_get_it(
    db: Session, outbox: Outbox, fields: dict
) -> None:
    anna, bo = make_member(db), make_member(db, email="bo@example.com", **fields)
    await message_from(anna, bo)
    assert outbox() == []


async def test_a_like_is_mailed_with_the_likers_name(db: Session, outbox: Outbox) -> None:
    anna, bo = make_member(db), make_member(db, email="bo@example.com", language="nl")
    assert (await act(like, viewer_of(anna), bo.id)).stored
    await settle()
    [mail] = outbox()
    assert mail["Subject"].startswith("Anna liket je")
    assert links_in(mail)[0].endswith("/likes/received")


async def test_likes_share_one_mail_per_four_hours(db: Session, outbox: Outbox) -> None:
    anna, cleo = make_member(db), make_member(db, email="cleo@example.com")
    bo = make_member(db, email="bo@example.com")
    await told(NEW_LIKE, bo, anna)
    await told(NEW_LIKE, bo, cleo)
    assert len(outbox()) == 1


async def test_a_match_is_mailed_to_both_and_not_as_a_like(db: Session, outbox: Outbox) -> None:
    anna = make_member(db, language="fr")
    bo = make_member(db, email="bo@example.com", language="pl")
    committed(db, like_member, bo.id, anna.id)
    assert (await act(like, viewer_of(anna), bo.id)).matched
    await settle()
    subjects = sorted(mail["Subject"].split(" – ")[0] for mail in outbox())
    assert subjects == ["C\u2019est un match avec Bo\u00a0!", "Nowe dopasowanie: Anna!"]
    chats = sorted(links_in(mail)[0].rsplit("/", 2)[1] for mail in outbox())
    assert chats == sorted([str(anna.id), str(bo.id)])  # each opens the chat with the other


async def test_the_likes_switch_stops_like_and_match_mails(db: Session, outbox: Outbox) -> None:
    anna, bo = make_member(db), make_member(db, email="bo@example.com")
    committed(db, save_preferences, bo.id, {"email_likes": False})
    await told(NEW_LIKE, bo, anna)
    assert outbox() == []


async def test_the_job_run_again_mails_once(db: Session, outbox: Outbox) -> None:
    """A worker that died after the claim committed (with the mail's own job) runs the job
    again with the same event: the claim is taken, so no second mail."""
    anna, bo = make_member(db), make_member(db, email="bo@example.com")
    await message_from(anna, bo, 7, event="e1")
    await message_from(anna, bo, 7, event="e1")
    assert [mail["To"] for mail in outbox()] == ["bo@example.com"]


@pytest.fixture
def deferred(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """The arguments of the notice jobs deferred from now on (not run), on either path."""
    found: list[dict] = []

    async def on_loop(_transaction, _name, **kwargs) -> None:
        found.append(kwargs)

    monkeypatch.setattr(notices, "defer", lambda _db, _name, **kwargs: found.append(kwargs))
    monkeypatch.setattr(notices, "defer_on_loop", on_loop)
    return found


@pytest.fixture(params=["thread", "loop"])
def message_sent(request: pytest.FixtureRequest) -> Callable[[Member, Member], Awaitable[None]]:
    """Anna's message to Bo through the chat's send action: in the thread pool, or as a text
    the chat page posts (on PostgreSQL on the serving loop's own connection)."""

    async def sent(anna: Member, bo: Member) -> None:
        outgoing = Outgoing(anna.id, bo.id, uuid4().hex, text="Hello")
        here = await here_now(bo.id)
        if request.param == "thread":
            await act(send, viewer_of(anna), outgoing, "anna-tab", here)
            return
        async with serve_on_loop(wait=True):
            await send_outside(viewer_of(anna), outgoing, "anna-tab", here, "")

    return sent


async def test_a_message_to_a_member_on_the_site_without_push_defers_no_job(
    db: Session, deferred: list[dict], tab_registry_in_memory: MemoryTabRegistry, message_sent
) -> None:
    """Nothing to do: no mail for a member on the site as it arrives, no browser to push to."""
    anna = make_member(db, credits=100)
    bo = make_member(db, email="bo@example.com")
    await tab_registry_in_memory.add(bo.id, "bo-tab")
    await message_sent(anna, bo)
    assert deferred == []
    await tab_registry_in_memory.remove(bo.id, "bo-tab")
    await message_sent(anna, bo)
    assert [job["mail"] for job in deferred] == [True]


async def test_the_notice_is_a_job_of_the_sends_own_transaction(db: Session, message_sent) -> None:
    """On PostgreSQL Bo's notice is a procrastinate job written with Anna's message; a send
    refused (Cleo has no credits) writes none."""
    if db.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite runs the job in process once the send committed")
    anna, cleo = make_member(db, credits=100), make_member(db, email="cleo@example.com")
    bo = make_member(db, email="bo@example.com")
    await message_sent(anna, bo)
    with pytest.raises(ChatError):
        await message_sent(cleo, bo)
    jobs = db.exec(text("SELECT task_name, args FROM procrastinate_jobs")).all()
    assert [(name, args["member_id"], args["about_id"]) for name, args in jobs] == [
        (NOTIFY, bo.id, anna.id)
    ]


async def test_a_member_on_the_site_as_a_message_arrives_is_pushed_and_never_mailed(
    db: Session,
    outbox: Outbox,
    deferred: list[dict],
    tab_registry_in_memory: MemoryTabRegistry,
    message_sent,
) -> None:
    """Bo's browser still gets the push (the job's), and the job mails no one, even once Bo
    has left."""
    anna = make_member(db, credits=100)
    bo = make_member(db, email="bo@example.com")
    committed(db, save_subscription, bo.id, "https://fcm.googleapis.com/fcm/send/bo", "k", "a")
    await tab_registry_in_memory.add(bo.id, "bo-tab")
    await message_sent(anna, bo)
    assert [job["mail"] for job in deferred] == [False]
    cleo = make_member(db, email="cleo@example.com")  # away, and never subscribed
    await told(NEW_MESSAGE, cleo, anna, 7, mail=False)
    assert outbox() == []
