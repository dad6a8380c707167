"""Effects that reach a member's open tabs; `state/live.py` and `state/chats.py` handle them."""

from dataclasses import dataclass


@dataclass(frozen=True)
class BadgesChanged:
    """The member's balance or badges changed (a like, a purchase): their tabs show it."""

    member_id: int
