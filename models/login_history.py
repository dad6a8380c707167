"""Where and on what a member logged in: one row per successful log-in, kept 12 months, and a
short device summary of a browser's User-Agent for it and for the session it opened."""

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlmodel import Field, Session, SQLModel

from models.auth_session import AuthSession
from models.member import utcnow

KEPT_FOR = timedelta(days=365)
DEVICE_LENGTH = 60
ADDRESS_LENGTH = 64
# The first of each list found in the User-Agent names it (Edge and Opera also say "Chrome",
# Chrome also says "Safari", so the specific ones come first).
_BROWSERS = (
    ("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("SamsungBrowser", "Samsung"),
    ("Chromium", "Chromium"), ("Chrome/", "Chrome"), ("Safari/", "Safari"),
)  # fmt: skip
_SYSTEMS = (
    ("Android", "Android"), ("iPhone", "iOS"), ("iPad", "iPadOS"), ("Windows", "Windows"),
    ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"),
)  # fmt: skip
_COUNTRY = re.compile(r"^[A-Z]{2}$")


class LoginEvent(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    at: datetime = Field(default_factory=utcnow, index=True)
    address: str = Field(default="", max_length=ADDRESS_LENGTH)
    device: str = Field(default="", max_length=DEVICE_LENGTH)
    place: str = Field(default="", max_length=2)  # ISO country code, "" when unknown


def _first(user_agent: str, names: tuple[tuple[str, str], ...]) -> str:
    return next((name for mark, name in names if mark in user_agent), "")


def device_of(user_agent: str) -> str:
    """ "Firefox · Linux", "Safari · iOS", or the start of an unknown User-Agent."""
    browser, system = _first(user_agent, _BROWSERS), _first(user_agent, _SYSTEMS)
    if browser and system:
        return f"{browser} · {system}"
    return (browser or system or user_agent.strip())[:DEVICE_LENGTH]


def place_of(country: str) -> str:
    """The country a proxy's header named, when it is a country code."""
    code = country.strip().upper()
    return code if _COUNTRY.match(code) else ""


@dataclass(frozen=True)
class Seen:
    """The browser a log-in came from, as its request showed it."""

    address: str
    user_agent: str
    country: str  # a proxy's country header, "" without one

    @property
    def device(self) -> str:
        return device_of(self.user_agent)

    @property
    def place(self) -> str:
        return place_of(self.country)


def note_login(db: Session, session: AuthSession, seen: Seen) -> None:
    """The log-in that opens `session`: the device and place on the session, and its row in
    the history (`redeem_handoff`'s `noted`). Caller commits."""
    address = seen.address[:ADDRESS_LENGTH]
    session.device, session.address, session.place = seen.device, address, seen.place
    db.add(
        LoginEvent(
            member_id=session.member_id, address=address, device=seen.device, place=seen.place
        )
    )


def purge_login_history(db: Session, now: datetime) -> int:
    """Forget log-ins older than 12 months; how many went."""
    return db.exec(delete(LoginEvent).where(LoginEvent.at < now - KEPT_FOR)).rowcount
