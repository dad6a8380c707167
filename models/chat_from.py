"""Who may start a chat with a member (`Member.chat_from`): everyone, only members they liked,
or only premium members. An existing conversation goes on whatever the setting."""

from enum import StrEnum

from sqlalchemy import ColumnElement, exists

from models.likes import Like
from translations.catalog import N_


class ChatFrom(StrEnum):
    EVERYONE = "everyone"
    LIKED = "liked"  # members the recipient liked
    PREMIUM = "premium"


ONLY_LIKED = N_("{name} only accepts new chats from members they have liked.")
ONLY_PREMIUM = N_("{name} only accepts new chats from Premium members.")


def liked_by(liker_id: int | ColumnElement[int], liked_id: int | ColumnElement[int]):
    """SQL: `liker_id` liked `liked_id`."""
    return exists().where(Like.liker_id == liker_id, Like.liked_id == liked_id)


def start_refusal(chat_from: str, sender_paid: bool, liked_sender: bool) -> str | None:
    """The msgid refusing a new chat under the recipient's setting, or None when it may start."""
    if chat_from == ChatFrom.LIKED and not liked_sender:
        return ONLY_LIKED
    if chat_from == ChatFrom.PREMIUM and not sender_paid:
        return ONLY_PREMIUM
    return None
