"""What the frame shows of the member behind a tab: name, balance, premium and badges."""

from dataclasses import dataclass

from sqlmodel import Session

from actions.viewer import SIGNED_IN, Viewer, viewer_in
from models.chat import unread_total
from models.likes import new_like_count
from models.member import Member, MemberStatus, Profile
from services.database import db_session


@dataclass(frozen=True)
class Balance:
    credits: int
    paid_user: bool
    unread_messages: int
    new_likes: int


@dataclass(frozen=True)
class NavFacts:
    viewer: Viewer
    name: str
    email: str
    needs_activation: bool
    balance: Balance


def _balance(db: Session, member: Member) -> Balance:
    return Balance(
        member.credits,
        member.paid_user,
        unread_total(db, member.id),
        new_like_count(db, member.id),
    )


def _needs_activation(member: Member, profile: Profile | None) -> bool:
    return (
        member.status == MemberStatus.NOT_CONFIRMED
        and (profile is None or profile.status == "disabled")
        and not member.notifications_disabled
    )


def nav_facts(token: str | None) -> NavFacts | None:
    """Everything the frame shows for the tab's session, or None when it is not signed in."""
    with db_session() as db:
        viewer = viewer_in(db, token, SIGNED_IN)
        member = db.get(Member, viewer.member_id) if viewer else None
        if viewer is None or member is None:
            return None
        profile = db.get(Profile, member.id)
        return NavFacts(
            viewer,
            profile.name if profile else "",
            member.email,
            _needs_activation(member, profile),
            _balance(db, member),
        )


def balance_of(member_id: int) -> Balance | None:
    """Balance, premium and badges again, after something changed them."""
    with db_session() as db:
        member = db.get(Member, member_id)
        return _balance(db, member) if member else None
