"""Who is asking: the member behind the tab's HttpOnly session cookie, and what the nav shows.

`current_viewer` is the one check every handler goes through: the tab's own cookie, its session row
still live, the member's status allowed. It runs once per event (Reflex runs every event in a
task of its own, so a context variable keyed by the event's id holds the answer)."""

from contextvars import ContextVar

import reflex as rx
from reflex_base.constants.state import FIELD_MARKER
from reflex_base.event.context import EventContext

from actions.runner import read
from actions.session import Balance, NavFacts, balance_of, nav_facts
from actions.viewer import SIGNED_IN, Viewer, session_token, viewer_now

BADGE_CAP = 99
CREDITS_WARNING_AT = 10

_checked: ContextVar[tuple[str, str | None, frozenset, Viewer | None] | None] = ContextVar(
    "_checked", default=None
)


def badge_text(count: int) -> str:
    if count <= 0:
        return ""
    return f"{BADGE_CAP}+" if count > BADGE_CAP else str(count)


def credits_warned(paid_user: bool, credits: int) -> bool:
    """The nav's balance badge shows: a premium member running low."""
    return paid_user and credits <= CREDITS_WARNING_AT


def credits_color(credits: int) -> str:
    return "red" if credits <= 0 else "amber"


def _event_id() -> str | None:
    try:
        txid = EventContext.get().txid
    except LookupError:
        return None
    return txid or None  # the processor's own root context has an empty id: no event


async def current_viewer(state: rx.State, allowed: frozenset = SIGNED_IN) -> Viewer | None:
    """The member behind the tab's own cookie now (the session may have ended since the page
    loaded), checked once per event. Every handler that acts for a member asks this."""
    token, event = session_token(state.router.headers.cookie), _event_id()
    cached = _checked.get()
    if event is not None and cached is not None and cached[:3] == (event, token, allowed):
        return cached[3]
    found = await viewer_now(token, allowed)
    _remember(token, allowed, found)
    return found


async def current_member_id(state: rx.State, allowed: frozenset = SIGNED_IN) -> int | None:
    found = await current_viewer(state, allowed)
    return found.member_id if found else None


def _remember(token: str | None, allowed: frozenset, found: Viewer | None) -> None:
    if (event := _event_id()) is not None:
        _checked.set((event, token, allowed, found))


class SessionState(rx.State):
    logged_in: bool = False
    name: str = ""
    email: str = ""
    credits: int = 0
    paid_user: bool = False
    unread_messages: int = 0
    new_likes: int = 0
    needs_activation: bool = False
    terms_pending: bool = False  # a newer terms version to accept first (components/terms_update)
    _member_id: int | None = None
    _language: str | None = None

    def _cookie_token(self) -> str | None:
        return session_token(self.router.headers.cookie)

    async def _load(self) -> None:
        """Read the session cookie from the websocket request and load the member it names."""
        facts = await read(nav_facts, self._cookie_token())
        if facts is None:
            self._clear()
            return
        self._show(facts)
        _remember(self._cookie_token(), SIGNED_IN, facts.viewer)

    def _show(self, facts: NavFacts) -> None:
        self._member_id, self._language = facts.viewer.member_id, facts.viewer.language
        self.logged_in = True
        self.name, self.email = facts.name, facts.email
        self.needs_activation = facts.needs_activation
        self.terms_pending = facts.terms_pending
        self._apply_balance(facts.balance)

    async def _refresh_counts(self) -> None:
        """Balance, premium and badges again from the database, after something changed them."""
        if self._member_id is None:
            return
        balance = await read(balance_of, self._member_id)
        if balance is not None:
            self._apply_balance(balance)

    def _apply_balance(self, balance: Balance) -> None:
        self.credits, self.paid_user = balance.credits, balance.paid_user
        self.unread_messages, self.new_likes = balance.unread_messages, balance.new_likes

    def _clear(self) -> None:
        self._member_id = self._language = None
        self.logged_in = self.paid_user = self.needs_activation = self.terms_pending = False
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
        return credits_warned(self.paid_user, self.credits)

    @rx.var
    def credits_badge_color(self) -> str:
        return credits_color(self.credits)


def balance_delta(credits: int, paid_user: bool) -> dict[str, dict[str, object]]:
    """The delta that shows a new balance in a tab without its state (a send outside it,
    state/chats.py): the balance and the computed vars that follow from it."""
    shown = {
        "credits": credits,
        "show_credits_badge": credits_warned(paid_user, credits),
        "credits_badge_color": credits_color(credits),
    }
    return {SessionState.get_full_name(): {name + FIELD_MARKER: v for name, v in shown.items()}}
