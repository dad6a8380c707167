"""Web Push when something happens for a member: a new message, a new like, a match. Sent by
the job that tells the member (actions/notices.py), deferred in the transaction that caused
it, so it never holds up the member who acted and is not lost in a crash. Goes to each of the
recipient's subscribed browsers while they keep the kind switched on (/notifications), in the
recipient's account language, and carries neither the message's text nor who sent it: the
notification names what happened and opens the page where it is. Each browser that got the
push is marked (models/effect_marks.py), so the job, retried while a push service says later,
never pushes twice to the same browser."""

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from hashlib import sha256

import httpx
from sqlmodel import Session

from actions.runner import Done, act, read
from models.effect_marks import mark, marked_among
from models.member import Member
from models.notification_prefs import preferences
from models.push_subscription import (
    forget_subscription,
    has_push_subscription,
    subscriptions_of,
)
from services.database import db_session, transaction
from services.web_push import (
    Delivery,
    PushMessage,
    PushTarget,
    ReadyPush,
    post_push,
    push_client,
    ready_push,
)
from translations.catalog import N_, gettext


class PushLater(Exception):
    """A push service said later (429, 5xx, no answer): the job is tried again."""


@dataclass(frozen=True)
class PushKind:
    preference: str  # the /notifications switch
    title: str
    body: str
    ttl: int
    urgency: str
    topic: str  # a newer push of the kind replaces one the browser has not received yet


MESSAGE = PushKind(
    "push_messages",
    N_("New message"),
    N_("You have a new message. Open the chat to read it."),
    ttl=24 * 3600,
    urgency="high",
    topic="message",
)
LIKE = PushKind(
    "push_likes",
    N_("New like!"),
    N_("Someone likes you. Have a look who it is."),
    ttl=3 * 24 * 3600,
    urgency="normal",
    topic="like",
)
MATCH = PushKind(
    "push_likes",
    N_("It's a match!"),
    N_("You and another member like each other. Say hello!"),
    ttl=3 * 24 * 3600,
    urgency="normal",
    topic="match",
)


@dataclass(frozen=True)
class Recipient:
    language: str
    targets: tuple[PushTarget, ...]  # the browsers this push has not reached yet


def push_wanted(
    db: Session | None, member: Member, kind: PushKind, subscribed: bool | None = None
) -> bool:
    """The member wants pushes of `kind` and has a browser to push to (`subscribed`, when the
    caller read it already; else `db` is asked)."""
    if not preferences(member)[kind.preference]:
        return False
    return has_push_subscription(db, member.id) if subscribed is None else subscribed


def push_key(event: str, endpoint: str) -> str:
    """The effect mark of the push for `event` to one browser."""
    return f"push:{event}:{sha256(endpoint.encode()).hexdigest()[:32]}"


def push_recipient(member_id: int, kind: PushKind, event: str) -> Recipient | None:
    """The member's language and the subscribed browsers the push for `event` has not reached,
    if they want pushes of `kind`."""
    with db_session() as db:
        member = db.get(Member, member_id)
        if member is None or not preferences(member)[kind.preference]:
            return None
        rows = subscriptions_of(db, member_id)
        done = marked_among(db, [push_key(event, row.endpoint) for row in rows])
        targets = tuple(
            PushTarget(row.endpoint, row.p256dh, row.auth)
            for row in rows
            if push_key(event, row.endpoint) not in done
        )
        return Recipient(member.language, targets) if targets else None


def forget_push_target(endpoint: str) -> Done[None]:
    with transaction() as db:
        forget_subscription(db, endpoint)
    return Done(None)


def mark_pushed(event: str, endpoints: list[str]) -> Done[None]:
    with transaction() as db:
        mark(db, *(push_key(event, endpoint) for endpoint in endpoints))
    return Done(None)


def push_message(kind: PushKind, language: str, path: str) -> PushMessage:
    payload = {
        "title": gettext(language, kind.title),
        "body": gettext(language, kind.body),
        "openUrl": path,
        "checkUrl": path,
    }
    return PushMessage(payload, kind.ttl, kind.urgency, kind.topic)


async def deliver(
    client: httpx.AsyncClient, target: PushTarget, push: ReadyPush | None
) -> Delivery:
    """Post the push; a subscription the service no longer knows, or that cannot be pushed
    to (None), is forgotten."""
    delivery = Delivery.GONE if push is None else await post_push(client, push)
    if delivery is Delivery.GONE:
        await act(forget_push_target, target.endpoint)
    return delivery


def ready_pushes(targets: Sequence[PushTarget], message: PushMessage) -> list[ReadyPush | None]:
    return [ready_push(target, message) for target in targets]


async def deliver_all(targets: Sequence[PushTarget], message: PushMessage) -> list[Delivery]:
    """The message to each of the targets at once, on one client. Encrypting and signing run
    in a thread: on the event loop they would hold up the members' own events."""
    pushes = await asyncio.to_thread(ready_pushes, targets, message)
    async with push_client() as client:
        return list(await asyncio.gather(*map(partial(deliver, client), targets, pushes)))


async def push_once(event: str, member_id: int, kind: PushKind, path: str) -> None:
    """Push `event` to each of the member's browsers that has not got it; PushLater when a push
    service said later, for the job to try those again."""
    recipient = await read(push_recipient, member_id, kind, event)
    if recipient is None:
        return
    message = push_message(kind, recipient.language, path)
    deliveries = await deliver_all(recipient.targets, message)
    sent = [
        t.endpoint for t, d in zip(recipient.targets, deliveries, strict=True) if d is Delivery.SENT
    ]
    if sent:
        await act(mark_pushed, event, sent)
    if Delivery.LATER in deliveries:
        waiting = deliveries.count(Delivery.LATER)
        raise PushLater(f"{waiting} push service(s) said later for member {member_id}")
