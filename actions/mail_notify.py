"""E-mail when something happens for a member who is not on the site: a new message, a new
like, a match. Decided by the job that tells the member (actions/notices.py), beside the push,
for members with no tab open when it runs who keep the kind switched on (/notifications) and
whose e-mail the mail system has not switched off. Batched by models/notice_mails.py: one mail
per conversation (likes, match) per few hours, a daily cap. The claim and the mail's own job
(services/mail_job.py) commit together: a mail claimed is sent, once, even after a crash."""

from dataclasses import dataclass

from actions.mail import MailOut, mailed
from actions.runner import Done, act
from models.member import Member, MemberStatus, Profile, utcnow
from models.notice_mails import claim_notice
from models.notification_prefs import email_wanted, unsubscribe_key
from services.database import transaction
from services.mail_frame import MailText, Recipient
from services.notice_mail import Notice, notice_mail
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


def mailable(member: Member | None, preference: str) -> bool:
    return (
        member is not None
        and member.status == MemberStatus.ACTIVE
        and not member.is_demo
        and email_wanted(member, preference)
    )


def claim_notice_mail(notice: NoticeFor) -> Done[MailOut | None]:
    """The mail, deferred with its claim, if the member wants it and the batching rules let it
    go now; the claim stays, so a second try finds nothing to mail."""
    with transaction() as db:
        member = db.get(Member, notice.member_id)
        own, about = db.get(Profile, notice.member_id), db.get(Profile, notice.about_id)
        if not mailable(member, notice.preference) or own is None or about is None:
            return Done(None)
        if not claim_notice(db, notice.member_id, notice.topic, utcnow()):
            return Done(None)
        to = Recipient(member.email, own.name, member.language)
        key = unsubscribe_key(db, member)
        news = Notice(notice.text, about.name, notice.path)
        out = mailed(db, notice_mail(news, to, key, current_settings()))
    return Done(out, (out,))


async def on_site(member_id: int) -> bool:
    """A tab of the member was seen in the last ONLINE_SECONDS: the page shows news live."""
    return bool(await tab_registry().tokens(member_id, within=ONLINE_SECONDS))


async def mail_if_away(notice: NoticeFor) -> None:
    if await on_site(notice.member_id):
        return
    await act(claim_notice_mail, notice)
