"""Who is asking: the member behind the tab's HttpOnly session cookie, and what the nav shows."""

from http.cookies import CookieError, SimpleCookie

import reflex as rx

from models.auth_session import member_id_for_token
from models.member import Member, Profile
from services.database import db_session

SESSION_COOKIE = "auth.session"
BADGE_CAP = 99
CREDITS_WARNING_AT = 10


def badge_text(count: int) -> str:
    if count <= 0:
        return ""
    return f"{BADGE_CAP}+" if count > BADGE_CAP else str(count)


def session_token(cookie_header: str) -> str | None:
    try:
        cookies = SimpleCookie(cookie_header or "")
    except CookieError:
        return None
    morsel = cookies.get(SESSION_COOKIE)
    return morsel.value if morsel else None


class SessionState(rx.State):
    logged_in: bool = False
    name: str = ""
    credits: int = 0
    paid_user: bool = False
    unread_messages: int = 0
    new_likes: int = 0
    _member_id: int | None = None
    _language: str | None = None

    def load(self) -> None:
        """Read the session cookie from the websocket request and load the member it names."""
        token = session_token(self.router.headers.cookie)
        with db_session() as db:
            member_id = member_id_for_token(db, token)
            member = db.get(Member, member_id) if member_id else None
            profile = db.get(Profile, member_id) if member_id else None
        if member is None or member.status == "deleted_pending":
            self.clear()
            return
        self._member_id, self._language = member.id, member.language
        self.logged_in = True
        self.name = profile.name if profile else ""
        self.credits = member.credits
        self.paid_user = member.paid_user

    def clear(self) -> None:
        self._member_id = self._language = None
        self.logged_in = self.paid_user = False
        self.name = ""
        self.credits = self.unread_messages = self.new_likes = 0

    @rx.var
    def unread_badge(self) -> str:
        return badge_text(self.unread_messages)

    @rx.var
    def likes_badge(self) -> str:
        return badge_text(self.new_likes)

    @rx.var
    def show_credits_badge(self) -> bool:
        return self.paid_user and self.credits <= CREDITS_WARNING_AT

    @rx.var
    def credits_badge_color(self) -> str:
        return "red" if self.credits <= 0 else "amber"
