"""Web Push when something happens for a member: a new message, a new like, a match. Runs as an
effect after the commit (actions/effects.py), so it never holds up the member who acted. Goes to
each of the recipient's subscribed browsers while they keep the kind switched on (/notifications),
in the recipient's account language, and carries neither the message's text nor who sent it:
the notification names what happened and opens the page where it is."""

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import httpx

from actions.chat import MessageStored
from actions.effects import handles
from actions.likes import MATCHES, RECEIVED, LikeArrived, MatchMade
from actions.runner import Done, act, read
from models.member import Member
from models.notification_prefs import preferences
from models.push_subscription import forget_subscription, subscriptions_of
from models.routes import chat_url, likes_url
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

log = logging.getLogger(__name__)

# Seconds before asking a busy push service (429, 5xx, no answer) again; then it is dropped.
RETRY_DELAYS = (2.0, 15.0, 60.0)


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
    targets: tuple[PushTarget, ...]


def push_recipient(member_id: int, kind: PushKind) -> Recipient | None:
    """The member's language and subscribed browsers, if they want pushes of `kind`."""
    with db_session() as db:
        member = db.get(Member, member_id)
        if member is None or not preferences(member)[kind.preference]:
            return None
        targets = tuple(
            PushTarget(row.endpoint, row.p256dh, row.auth)
            for row in subscriptions_of(db, member_id)
        )
        return Recipient(member.language, targets) if targets else None


def forget_push_target(endpoint: str) -> Done[None]:
    with transaction() as db:
        forget_subscription(db, endpoint)
    return Done(None)


def push_message(kind: PushKind, language: str, path: str) -> PushMessage:
    payload = {
        "title": gettext(language, kind.title),
        "body": gettext(language, kind.body),
        "openUrl": path,
        "checkUrl": path,
    }
    return PushMessage(payload, kind.ttl, kind.urgency, kind.topic)


async def _posted(client: httpx.AsyncClient, push: ReadyPush) -> Delivery:
    """Post, asking again after each delay while the push service says later."""
    for delay in (*RETRY_DELAYS, None):
        delivery = await post_push(client, push)
        if delivery is not Delivery.LATER or delay is None:
            break
        await asyncio.sleep(delay)
    return delivery


async def deliver(
    client: httpx.AsyncClient, target: PushTarget, push: ReadyPush | None
) -> Delivery:
    """Post the push; a subscription the service no longer knows, or that cannot be pushed
    to (None), is forgotten."""
    delivery = Delivery.GONE if push is None else await _posted(client, push)
    if delivery is Delivery.GONE:
        await act(forget_push_target, target.endpoint)
    elif delivery is Delivery.LATER:
        log.warning("push to %s dropped: the push service kept saying later", target.endpoint[:60])
    return delivery


def ready_pushes(targets: Sequence[PushTarget], message: PushMessage) -> list[ReadyPush | None]:
    return [ready_push(target, message) for target in targets]


async def deliver_all(targets: Sequence[PushTarget], message: PushMessage) -> list[Delivery]:
    """The message to each of the targets at once, on one client. Encrypting and signing run
    in a thread: on the event loop they would hold up the members' own events."""
    pushes = await asyncio.to_thread(ready_pushes, targets, message)
    async with push_client() as client:
        return list(await asyncio.gather(*map(partial(deliver, client), targets, pushes)))


async def notify(member_id: int, kind: PushKind, path: str) -> None:
    recipient = await read(push_recipient, member_id, kind)
    if recipient is not None:
        await deliver_all(recipient.targets, push_message(kind, recipient.language, path))


@handles(MessageStored)
async def _message_pushed(stored: MessageStored) -> None:
    await notify(stored.recipient_id, MESSAGE, chat_url(stored.conversation_id))


@handles(LikeArrived)
async def _like_pushed(arrived: LikeArrived) -> None:
    await notify(arrived.member_id, LIKE, likes_url(RECEIVED))


@handles(MatchMade)
async def _match_pushed(made: MatchMade) -> None:
    await asyncio.gather(
        *(notify(member_id, MATCH, likes_url(MATCHES)) for member_id in made.member_ids)
    )
