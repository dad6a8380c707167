"""What the frame shows of the member behind a tab: name, balance, premium and badges."""

from dataclasses import dataclass

from sqlalchemy import ColumnElement, Row
from sqlmodel import select

from actions.viewer import SIGNED_IN, VIEWER_COLUMNS, Viewer, session_member, viewer_of
from models.chat import unread_total_query
from models.consent import accepted_version_query, terms_pending
from models.likes import new_like_count_query
from models.member import Member, MemberStatus, Profile
from models.site_settings import terms_version_date
from services.database import db_session
from services.site_settings import current_settings


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
    terms_pending: bool  # a newer version of the terms awaits the member's acceptance
    balance: Balance


def _balance_columns(member_id: int | ColumnElement[int]) -> tuple[ColumnElement, ...]:
    """The columns of `Balance`, in its order, for a select from `Member`."""
    return (
        Member.credits,
        Member.paid_user,
        unread_total_query(member_id).scalar_subquery(),
        new_like_count_query(member_id).scalar_subquery(),
    )


def _balance(row: Row) -> Balance:
    """The `Balance` of a row that ends with `_balance_columns`."""
    credits, paid_user, unread, new_likes = row[-4:]
    return Balance(credits, paid_user, int(unread), int(new_likes))


def _needs_activation(row: Row) -> bool:
    return (
        row.status == MemberStatus.NOT_CONFIRMED
        and row.profile_status in (None, "disabled")
        and not row.notifications_disabled
    )


def nav_facts(token: str | None) -> NavFacts | None:
    """Everything the frame shows for the tab's session, or None when it is not signed in: the
    viewer check, the member, their profile and badges in one statement."""
    member_id = session_member(token)
    if member_id is None:
        return None
    query = (
        select(
            *VIEWER_COLUMNS,
            Member.email,
            Member.notifications_disabled,
            Profile.name,
            Profile.status.label("profile_status"),
            Member.signup_date,
            accepted_version_query(member_id).label("accepted_terms"),
            *_balance_columns(member_id),
        )
        .outerjoin(Profile, Profile.member_id == Member.id)
        .where(Member.id == member_id)
    )
    with db_session() as db:
        row = db.exec(query).first()
    viewer = viewer_of(row, SIGNED_IN)
    if viewer is None:
        return None
    pending = terms_pending(
        row.accepted_terms, row.signup_date, terms_version_date(current_settings())
    )
    return NavFacts(
        viewer, row.name or "", row.email, _needs_activation(row), pending, _balance(row)
    )


def balance_of(member_id: int) -> Balance | None:
    """Balance, premium and badges again, after something changed them: one statement."""
    with db_session() as db:
        row = db.exec(select(*_balance_columns(member_id)).where(Member.id == member_id)).first()
    return _balance(row) if row is not None else None
