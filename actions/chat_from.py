"""Who may start a chat with the viewer (everyone, members they liked, premium members), and
whether the viewer may start one with a member now (the profile's message button)."""

from actions.runner import Done
from actions.viewer import Viewer
from models.chat import start_refused
from models.chat_from import ChatFrom
from models.member import Member
from services.database import db_session, transaction


def chat_from_of(viewer: Viewer) -> str:
    """The viewer's setting (a read)."""
    with db_session() as db:
        member = db.get(Member, viewer.member_id)
        return member.chat_from if member else ChatFrom.EVERYONE.value


def save_chat_from(viewer: Viewer, chat_from: str) -> Done[bool]:
    """Store the setting; False (nothing stored) for a value that is not one of ChatFrom."""
    if chat_from not in {choice.value for choice in ChatFrom}:
        return Done(False)
    with transaction() as db:
        member = db.get(Member, viewer.member_id)
        member.chat_from = chat_from
        db.add(member)
    return Done(True)


def start_refusal(viewer: Viewer, member_id: int) -> tuple[str, str] | None:
    """(msgid, the member's name) when the member's setting refuses a chat the viewer would
    start now; None when the viewer may write (a read)."""
    with db_session() as db:
        return start_refused(db, viewer.member_id, member_id)
