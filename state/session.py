"""Who is asking: the member behind the tab's HttpOnly session cookie, and what the nav shows."""

import reflex as rx
from sqlmodel import Session
from starlette.requests import cookie_parser

from models.auth_session import member_id_for_token
from models.chat import unread_total
from models.likes import new_like_count
from models.member import Member, MemberStatus, Profile
from services.database import db_session

SESSION_COOKIE = "auth.session"
BADGE_CAP = 99
CREDITS_WARNING_AT = 10


def badge_text(count: int) -> str:
    if count <= 0:
        return ""
    return f"{BADGE_CAP}+" if count > BADGE_CAP else str(count)


def session_token(cookie_header: str) -> str | None:
    """The session cookie's value; a neighbouring cookie the strict parser dislikes (JSON, a
    space) must not hide it, so this reads cookies the way Starlette's requests do."""
    return cookie_parser(cookie_header or "").get(SESSION_COOKIE) or None


def _signed_in_member(token: str | None) -> tuple[Member, Profile | None] | None:
    with db_session() as db:
        member_id = member_id_for_token(db, token)
        member = db.get(Member, member_id) if member_id else None
        if member is None or (member.status != MemberStatus.ACTIVE and not _unconfirmed(member)):
            return None
        return member, db.get(Profile, member.id)


def _counts(member_id: int) -> tuple[int, int]:
    """(unread messages, new likes) of the member."""
    with db_session() as db:
        return unread_total(db, member_id), new_like_count(db, member_id)


def _unconfirmed(member: Member) -> bool:
    return member.status == MemberStatus.NOT_CONFIRMED


class SessionState(rx.State):
    logged_in: bool = False
    name: str = ""
    email: str = ""
    credits: int = 0
    paid_user: bool = False
    unread_messages: int = 0
    new_likes: int = 0
    needs_activation: bool = False
    _member_id: int | None = None
    _language: str | None = None

    def load(self) -> None:
        """Read the session cookie from the websocket request and load the member it names."""
        found = _signed_in_member(self.cookie_token())
        if found is None:
            self.clear()
            return
        member, profile = found
        self._member_id, self._language = member.id, member.language
        self.logged_in = True
        self.name = profile.name if profile else ""
        self.email = member.email
        self.credits = member.credits
        self.paid_user = member.paid_user
        self.unread_messages, self.new_likes = _counts(member.id)
        self.needs_activation = (
            _unconfirmed(member)
            and (profile is None or profile.status == "disabled")
            and not member.notifications_disabled
        )

    def refresh_counts(self) -> None:
        """Balance, premium and badges again from the database, after something changed them."""
        if self._member_id is None:
            return
        with db_session() as db:
            member = db.get(Member, self._member_id)
            if member is None:
                return
            self.credits, self.paid_user = member.credits, member.paid_user
        self.unread_messages, self.new_likes = _counts(self._member_id)

    def refresh_for_chat(self, db: Session) -> None:
        """After a chat changed: the balance and the unread count (two cheap queries)."""
        if self._member_id is None:
            return
        member = db.get(Member, self._member_id, populate_existing=True)
        if member is not None:
            self.credits = member.credits
            self.unread_messages = unread_total(db, member.id)

    def cookie_token(self) -> str | None:
        return session_token(self.router.headers.cookie)

    def verified_member_id(self) -> int | None:
        """The member behind the cookie now (the session may have ended since the page loaded)."""
        found = _signed_in_member(self.cookie_token())
        return found[0].id if found else None

    def clear(self) -> None:
        self._member_id = self._language = None
        self.logged_in = self.paid_user = self.needs_activation = False
        self.name = self.email = ""
        self.credits = self.unread_messages = self.new_likes = 0

    @rx.var
    def unread_badge(self) -> str:
        return badge_text(self.unread_messages)

    @rx.var
    def attention(self) -> int:
        """What the tab title and the app badge count: unread messages plus new likes."""
        return self.unread_messages + self.new_likes

    @rx.var
    def likes_badge(self) -> str:
        return badge_text(self.new_likes)

    @rx.var
    def show_credits_badge(self) -> bool:
        return self.paid_user and self.credits <= CREDITS_WARNING_AT

    @rx.var
    def credits_badge_color(self) -> str:
        return "red" if self.credits <= 0 else "amber"
