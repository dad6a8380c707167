"""Web Push: what leaves the server is a real push (VAPID-signed, aes128gcm-encrypted for the
browser's keys) in the recipient's language with no message text or sender name; subscriptions
the push service no longer knows are forgotten, a busy service is asked again (the job is
retried), and an endpoint on any other host is never posted to."""

import dataclasses
from collections.abc import Iterator
from uuid import uuid4

import httpx
import pytest
from py_vapid import Vapid02
from sqlmodel import Session, select

import actions.push_notify as push_notify
import services.web_push as web_push
from actions.effects import settle
from actions.likes import like
from actions.notices import NEW_LIKE, NEW_MESSAGE, NOTIFY, tell_later
from actions.runner import Done, act
from actions.viewer import Viewer
from models.likes import like_member
from models.member import Member
from models.notification_prefs import save_preferences
from models.push_subscription import PushSubscription, save_subscription
from services import jobs
from services.config import get_config
from services.database import transaction
from services.web_push import Delivery, delivery_of, push_host_allowed
from tests.factories import committed, make_member
from tests.push_service import HOST, LocalPushService

SECRET = "Shall we meet at the lake on Sunday?"


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalPushService]:
    local = LocalPushService()
    key = Vapid02()
    key.generate_keys()
    config = dataclasses.replace(get_config(), push_service_hosts=frozenset({HOST}))
    monkeypatch.setattr(web_push, "get_config", lambda: config)
    monkeypatch.setattr(web_push, "vapid", lambda: key)
    monkeypatch.setattr(
        push_notify,
        "push_client",
        lambda: httpx.AsyncClient(transport=httpx.ASGITransport(app=local.app)),
    )
    notify = jobs.kinds()[NOTIFY]
    retried_at_once = dataclasses.replace(notify, delays=(0.0, 0.0, 0.0))
    monkeypatch.setitem(jobs._kinds, NOTIFY, retried_at_once)
    yield local


async def told_of_message(member_id: int, event: str = "") -> bool:
    """The job that tells `member_id` of a message in conversation 7, run here with its
    retries; whether it succeeded."""
    told = {"what": NEW_MESSAGE, "member_id": member_id, "about_id": 99, "conversation_id": 7}
    return await jobs.run_now(jobs.Call(NOTIFY, {"event": event or uuid4().hex, **told}))


def subscribed(db: Session, service: LocalPushService, name: str, **member_fields):
    member = make_member(db, email=f"{name}@example.com", **member_fields)
    browser = service.subscribe(name)
    committed(db, save_subscription, member.id, browser.endpoint, browser.p256dh, browser.auth)
    return member


def endpoints(db: Session) -> list[str]:
    db.expire_all()
    return [row.endpoint for row in db.exec(select(PushSubscription))]


async def test_a_new_message_arrives_decryptable_in_the_recipients_language(
    db: Session, service: LocalPushService
) -> None:
    bo = subscribed(db, service, "bo", language="pl")
    await told_of_message(bo.id)
    [push] = service.received
    assert push.payload == {
        "title": "Nowa wiadomość",
        "body": "Masz nową wiadomość. Otwórz czat, aby ją przeczytać.",
        "openUrl": "/chats/7",
        "checkUrl": "/chats/7",
    }
    assert SECRET not in str(push.payload) and "Anna" not in str(push.payload)
    assert (push.headers["ttl"], push.headers["urgency"]) == ("86400", "high")
    assert push.vapid_claims["aud"] == f"https://{HOST}"


async def test_a_like_goes_out_after_the_like_is_stored(db: Session, service) -> None:
    anna = make_member(db)
    bo = subscribed(db, service, "bo", language="de")
    viewer = Viewer(anna.id, anna.status, anna.language, False)
    assert (await act(like, viewer, bo.id)).stored
    await settle()
    [push] = service.received
    assert push.payload["title"] == "Neues Like!" and push.payload["openUrl"] == "/likes/received"
    assert (push.headers["ttl"], push.headers["urgency"]) == (str(3 * 24 * 3600), "normal")


async def test_liking_back_pushes_the_match_to_both_and_no_like(db: Session, service) -> None:
    anna = subscribed(db, service, "anna", language="fr")
    bo = subscribed(db, service, "bo", language="pl")
    committed(db, like_member, bo.id, anna.id)
    viewer = Viewer(anna.id, anna.status, anna.language, False)
    assert (await act(like, viewer, bo.id)).matched
    await settle()
    titles = sorted(push.payload["title"] for push in service.received)
    assert titles == ["C\u2019est un match\u00a0!", "Macie dopasowanie!"]
    assert {push.payload["openUrl"] for push in service.received} == {"/likes/matches"}


async def test_a_member_who_switched_pushes_off_gets_none(db: Session, service) -> None:
    bo = subscribed(db, service, "bo")
    committed(db, save_preferences, bo.id, {"push_messages": False})
    await told_of_message(bo.id)
    assert service.received == []


@pytest.mark.parametrize("status", [404, 410, 400, 403])
async def test_a_subscription_the_service_refuses_for_good_is_forgotten(
    db: Session, service: LocalPushService, status: int
) -> None:
    bo = subscribed(db, service, "bo")
    service.answers.append(status)
    await told_of_message(bo.id)
    assert service.received == [] and endpoints(db) == []


async def test_a_busy_service_is_asked_again(db: Session, service: LocalPushService) -> None:
    bo = subscribed(db, service, "bo")
    service.answers.extend([429, 503])
    assert await told_of_message(bo.id)
    assert len(service.received) == 1 and len(endpoints(db)) == 1


async def test_a_service_that_stays_busy_is_given_up_and_the_subscription_kept(
    db: Session, service: LocalPushService
) -> None:
    bo = subscribed(db, service, "bo")
    service.answers.extend([500, 502, 503, 429])
    assert not await told_of_message(bo.id)  # the job failed for good
    assert service.received == [] and not service.answers and len(endpoints(db)) == 1


async def test_every_browser_of_the_member_gets_it(db: Session, service) -> None:
    bo = subscribed(db, service, "bo")
    phone = service.subscribe("bo-phone")
    committed(db, save_subscription, bo.id, phone.endpoint, phone.p256dh, phone.auth)
    await told_of_message(bo.id)
    assert sorted(push.subscription for push in service.received) == ["bo", "bo-phone"]


async def test_an_endpoint_on_another_host_is_never_posted_to(db: Session, service) -> None:
    bo = make_member(db)
    committed(db, save_subscription, bo.id, "https://127.0.0.1:6379/x", "key", "auth")
    await told_of_message(bo.id)
    assert service.received == [] and endpoints(db) == []


def _telling(member_id: int, fail: bool) -> Done[None]:
    with transaction() as db:
        tell_later(db, NEW_LIKE, db.get(Member, member_id), 99)
        if fail:
            raise RuntimeError("the action failed after deferring")
    return Done(None)


async def test_the_push_job_exists_if_and_only_if_its_transaction_committed(
    db: Session, service: LocalPushService
) -> None:
    bo = subscribed(db, service, "bo")
    with pytest.raises(RuntimeError):
        await act(_telling, bo.id, True)
    await settle()
    assert service.received == []
    await act(_telling, bo.id, False)
    await settle()
    assert [push.payload["openUrl"] for push in service.received] == ["/likes/received"]


async def test_a_busy_service_then_a_201_delivers_exactly_once_through_the_engine(
    db: Session, service: LocalPushService
) -> None:
    """The like's job meets a 503, the engine runs it again (on PostgreSQL procrastinate, after
    its delay, here none), the 201 is the only push; later runs find nothing due."""
    anna, bo = make_member(db), subscribed(db, service, "bo")
    service.answers.append(503)
    assert (await act(like, Viewer(anna.id, anna.status, anna.language, False), bo.id)).stored
    for _ in range(3):
        await settle()
    assert len(service.received) == 1 and not service.answers


async def test_a_retry_pushes_only_to_the_browsers_that_did_not_get_it(
    db: Session, service: LocalPushService
) -> None:
    bo = subscribed(db, service, "bo")
    phone = service.subscribe("bo-phone")
    committed(db, save_subscription, bo.id, phone.endpoint, phone.p256dh, phone.auth)
    service.answers.append(503)  # whichever browser's push comes first
    assert await told_of_message(bo.id)
    assert sorted(push.subscription for push in service.received) == ["bo", "bo-phone"]


async def test_a_job_run_again_after_a_crash_pushes_nothing_twice(
    db: Session, service: LocalPushService
) -> None:
    """A worker that died after the push was marked but before the job was finished: the engine
    runs the job again, with the same event."""
    bo = subscribed(db, service, "bo")
    assert await told_of_message(bo.id, event="e1")
    assert await told_of_message(bo.id, event="e1")
    assert len(service.received) == 1
    assert await told_of_message(bo.id, event="e2")  # another message is pushed
    assert len(service.received) == 2


@pytest.mark.parametrize(
    ("endpoint", "allowed"),
    [("https://fcm.googleapis.com/fcm/send/a", True),
     ("https://updates.push.services.mozilla.com/wpush/v2/a", True),
     ("https://web.push.apple.com/a", True), ("https://wns2-par02p.notify.windows.com/w/a", True),
     ("http://fcm.googleapis.com/fcm/send/a", False),
     ("https://evil-fcm.googleapis.com.x.io/", False),
     ("https://127.0.0.1/a", False), ("https://localhost/a", False),
     ("https://fcm.googleapis.com:443/fcm/send/a", True),
     ("https://fcm.googleapis.com:6379/fcm/send/a", False),
     ("https://web.push.apple.com:8443/a", False), ("https://fcm.googleapis.com:/a", False),
     ("https://fcm.googleapis.com:99999/a", False),
     ("https://me@fcm.googleapis.com/fcm/send/a", False)],
)  # fmt: skip
def test_only_the_browsers_push_services_are_allowed(endpoint: str, allowed: bool) -> None:
    assert push_host_allowed(endpoint) is allowed


def test_the_answer_decides_what_becomes_of_the_subscription() -> None:
    assert [delivery_of(status) for status in (201, 404, 410, 413, 429, 500, 503)] == [
        Delivery.SENT, Delivery.GONE, Delivery.GONE, Delivery.GONE, Delivery.LATER,
        Delivery.LATER, Delivery.LATER,
    ]  # fmt: skip
