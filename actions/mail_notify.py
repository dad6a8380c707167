"""E-mail when something happens for a member who is not on the site: a new message, a new
like, a match. Runs as an effect after the commit (actions/effects.py), beside the push, for
members with no tab open who keep the kind switched on (/notifications) and whose e-mail the
mail system has not switched off. Batched by models/notice_mails.py: one mail per conversation
(likes, match) per few hours, a daily cap."""

from dataclasses import dataclass

from actions.chat import MessageStored
from actions.effects import handles
from actions.likes import RECEIVED, LikeArrived, MatchMade
from actions.runner import Done, act
from models.member import Member, MemberStatus, Profile, utcnow
from models.notice_mails import LIKES_TOPIC, chat_topic, claim_notice, match_topic
from models.notification_prefs import email_wanted, unsubscribe_key
from models.routes import chat_url, likes_url, member_chat_url
from services.database import transaction
from services.mail import OutgoingMail, delivered
from services.mail_frame import MailText, Recipient
from services.notice_mail import LIKE_MAIL, MATCH_MAIL, MESSAGE_MAIL, Notice, notice_mail
from services.site_settings import current_settings
from services.tab_registry import ONLINE_SECONDS, tab_registry


@dataclass(frozen=True)
class NoticeFor:
    """A mail to `member_id` about `about_id`, under the /notifications switch `preference`."""

    member_id: int
    about_id: int
    text: MailText
    preference: str
    topic: str
    path: str


def _mailable(member: Member | None, preference: str) -> bool:
    return (
        member is not None
        and member.status == MemberStatus.ACTIVE
        and not member.is_demo
        and email_wanted(member, preference)
    )


def claim_notice_mail(notice: NoticeFor) -> Done[OutgoingMail | None]:
    """The mail, if the member wants it and the batching rules let it go now (the claim is kept:
    a mail that then fails is not sent again)."""
    with transaction() as db:
        member = db.get(Member, notice.member_id)
        own, about = db.get(Profile, notice.member_id), db.get(Profile, notice.about_id)
        if not _mailable(member, notice.preference) or own is None or about is None:
            return Done(None)
        if not claim_notice(db, notice.member_id, notice.topic, utcnow()):
            return Done(None)
        to = Recipient(member.email, own.name, member.language)
        key = unsubscribe_key(db, member)
        news = Notice(notice.text, about.name, notice.path)
        return Done(notice_mail(news, to, key, current_settings()))


async def mail_if_away(notice: NoticeFor) -> None:
    if await tab_registry().tokens(notice.member_id, within=ONLINE_SECONDS):
        return  # on the site: the page shows it live
    mail = await act(claim_notice_mail, notice)
    if mail is not None:
        await delivered(mail)


@handles(MessageStored)
async def _message_mailed(stored: MessageStored) -> None:
    conversation = stored.conversation_id
    await mail_if_away(
        NoticeFor(
            stored.recipient_id,
            stored.sender_id,
            MESSAGE_MAIL,
            "email_messages",
            chat_topic(conversation),
            chat_url(conversation),
        )
    )


@handles(LikeArrived)
async def _like_mailed(arrived: LikeArrived) -> None:
    await mail_if_away(
        NoticeFor(
            arrived.member_id,
            arrived.liker_id,
            LIKE_MAIL,
            "email_likes",
            LIKES_TOPIC,
            likes_url(RECEIVED),
        )
    )


@handles(MatchMade)
async def _match_mailed(made: MatchMade) -> None:
    first, second = made.member_ids
    for member_id, other_id in ((first, second), (second, first)):
        await mail_if_away(
            NoticeFor(
                member_id,
                other_id,
                MATCH_MAIL,
                "email_likes",
                match_topic(other_id),
                member_chat_url(other_id),
            )
        )
