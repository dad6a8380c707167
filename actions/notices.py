"""Telling a member what happened for them: a new message, a like, a match. The action that
caused it defers one `notify_member` job in its own transaction (services/jobs.py), so the
member is told if and only if it committed, even when the process dies right after. The job
mails a member who is not on the site, neither when it happened nor when the job runs
(actions/mail_notify.py), and pushes to their browsers (actions/push_notify.py); it is tried
again while a push service says later, and the marks and the mail's claim keep a retry from
mailing or pushing twice. A message's recipient on the site with no browser to push to gets
no job: there is nothing to tell."""

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from uuid import uuid4

from sqlmodel import Session

from actions.mail_notify import NoticeFor, mail_if_away, mailable, on_site
from actions.push_notify import LIKE, MATCH, MESSAGE, PushKind, push_once, push_wanted
from models.chat import Message
from models.member import Member
from models.notice_mails import LIKES_TOPIC, chat_topic, match_topic
from models.routes import MATCHES, RECEIVED, chat_url, likes_url, member_chat_url
from services.jobs import defer, defer_on_loop, job
from services.loop_database import LoopTransaction
from services.notice_mail import LIKE_MAIL, MATCH_MAIL, MESSAGE_MAIL

NOTIFY = "notify_member"
# Seconds before asking a busy push service (429, 5xx, no answer) again; then it is dropped.
DELAYS = (2.0, 15.0, 60.0, 300.0)
NEW_MESSAGE, NEW_LIKE, NEW_MATCH = "message", "like", "match"


@dataclass(frozen=True)
class Told:
    mail: NoticeFor
    push: PushKind
    push_path: str


def told(what: str, member_id: int, about_id: int, conversation_id: int) -> Told:
    """How the member hears of `what` (one of NEW_*) about the member `about_id`."""
    if what == NEW_MESSAGE:
        path, topic = chat_url(conversation_id), chat_topic(conversation_id)
        mail = NoticeFor(member_id, about_id, MESSAGE_MAIL, "email_messages", topic, path)
        return Told(mail, MESSAGE, path)
    if what == NEW_LIKE:
        path = likes_url(RECEIVED)
        mail = NoticeFor(member_id, about_id, LIKE_MAIL, "email_likes", LIKES_TOPIC, path)
        return Told(mail, LIKE, path)
    topic, path = match_topic(about_id), member_chat_url(about_id)
    mail = NoticeFor(member_id, about_id, MATCH_MAIL, "email_likes", topic, path)
    return Told(mail, MATCH, likes_url(MATCHES))


def tell_later(
    db: Session,
    what: str,
    member: Member | None,
    about_id: int,
    conversation_id: int = 0,
    *,
    here: bool = False,
    subscribed: bool | None = None,
) -> None:
    """Defer telling `member` in `db`'s transaction, unless they can get neither a mail (the
    kind switched off, or `here`: on the site as it happens, the page shows it live) nor a push
    (known from their row and `subscribed`; without it, a subscription is looked up only when
    no mail is wanted)."""
    if member is None:
        return
    pushed = partial(push_wanted, db, member, subscribed=subscribed)
    if (call := _notice(what, member, about_id, conversation_id, here, pushed)) is not None:
        defer(db, NOTIFY, **call)


def _notice(
    what: str,
    member: Member,
    about_id: int,
    conversation_id: int,
    here: bool,
    pushed: Callable[[PushKind], bool],
) -> dict | None:
    """The `notify_member` job's arguments, None when `member` can get neither a mail nor a
    push (`pushed`: they want pushes of a kind and have a browser)."""
    news = told(what, member.id, about_id, conversation_id)
    mail = not here and mailable(member, news.mail.preference)
    if not (mail or pushed(news.push)):
        return None
    return {
        "event": uuid4().hex,
        "what": what,
        "member_id": member.id,
        "about_id": about_id,
        "conversation_id": conversation_id,
        "mail": not here,
    }


async def here_now(member_id: int) -> bool:
    """Whether the member has a tab on the site now; False when the tab registry cannot say
    (the job then decides when it runs)."""
    try:
        return await on_site(member_id)
    except Exception:
        return False


def message_told(
    db: Session, message: Message, recipient: Member, subscribed: bool, here: bool = False
) -> None:
    """models/chat.send_message's hook (`here` bound by the caller): the recipient hears of a
    new message."""
    tell_later(
        db,
        NEW_MESSAGE,
        recipient,
        message.sender_id,
        message.conversation_id,
        here=here,
        subscribed=subscribed,
    )


async def message_told_on_loop(
    transaction: LoopTransaction, message: Message, recipient: Member, subscribed: bool, here: bool
) -> None:
    """`message_told` for a send in a transaction on the event loop (actions/chat.py)."""
    pushed = partial(push_wanted, None, recipient, subscribed=subscribed)
    call = _notice(NEW_MESSAGE, recipient, message.sender_id, message.conversation_id, here, pushed)
    if call is not None:
        await defer_on_loop(transaction, NOTIFY, **call)


@job(NOTIFY, DELAYS)
async def notify_member(
    event: str,
    what: str,
    member_id: int,
    about_id: int,
    conversation_id: int = 0,
    mail: bool = True,
) -> None:
    """The mail first (a retry finds it claimed; none for a member who was on the site when it
    happened), then the pushes not yet delivered."""
    news = told(what, member_id, about_id, conversation_id)
    if mail:
        await mail_if_away(news.mail)
    await push_once(event, member_id, news.push, news.push_path)
