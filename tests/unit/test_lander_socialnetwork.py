"""The social network lander's server HTML (components/landers/socialnetwork.py): the niche's
members near the visitor, the most recently active first, each with their latest event (a new
approved photo, else joining) and its real time in the visitor's language; each leads to the
signup aimed at that member; nobody hidden."""

from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

from sqlmodel import Session

from components.landers import socialnetwork
from components.landers.common import lander_mark
from models.member import Profile
from tests.factories import add_photo
from tests.unit.lander_pages import Parsed, lander_member, request

PATH = "/landers/socialnetwork/she-amsterdam"


class Times(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__()
        self.times: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "time":
            self.times.append(dict(attrs)["datetime"] or "")


async def _parts(locale: str) -> tuple[Parsed, Parsed, list[str]]:
    parts = await socialnetwork.write(request(PATH, locale))
    feed = parts[lander_mark("feed")]
    return Parsed(parts[lander_mark("head")]), Parsed(feed), Times(feed).times


def _photo(db: Session, member, ago: timedelta, status: str = "approved") -> None:
    photo = add_photo(db, member, f"extra{member.id}{status}")
    photo.created_at, photo.status = datetime.now(UTC) - ago, status
    db.add(photo)
    db.commit()


async def test_the_latest_events_with_their_real_times(db: Session) -> None:
    newcomer = lander_member(db, "Nina", 28, joined=timedelta(hours=3, minutes=5))
    with_photo = lander_member(db, "Femke", 33, joined=timedelta(days=20))
    _photo(db, with_photo, timedelta(minutes=42))
    waiting = lander_member(db, "Sanne", 41, joined=timedelta(days=2, hours=1))
    _photo(db, waiting, timedelta(minutes=5), status="pending")  # not shown: no event
    banned = lander_member(db, "Banned", 30, joined=timedelta(minutes=10))
    banned.status = "banned"
    db.add(banned)
    db.commit()

    head, feed, times = await _parts("en")
    assert head.texts[:2] == ["Meet women who are looking for a man", "3 members with a photo"]
    assert feed.texts[0] == "Recent activity"
    items = [text for text in feed.texts[1:] if text != "Amsterdam, Netherlands"]
    assert items == [
        "Femke, 33", "New photo", "42 minutes ago", "Say hello",
        "Nina, 28", "New member", "3 hours ago", "Say hello",
        "Sanne, 41", "New member", "2 days ago", "Say hello",
    ]  # fmt: skip
    assert feed.links[:2] == [f"/members/{with_photo.id}/signup"] * 2
    assert {f"/members/{newcomer.id}/signup", f"/members/{waiting.id}/signup"} <= set(feed.links)
    assert {image["loading"] for image in feed.images} == {"lazy"}  # the headline paints first
    signed_up = db.get(Profile, newcomer.id).signup_date.replace(tzinfo=UTC)
    assert datetime.fromisoformat(times[1]) == signed_up.replace(second=0, microsecond=0)

    _, feed, _ = await _parts("de")
    assert feed.texts[3:5] == ["Neues Foto", "vor 42 Minuten"]
    assert "vor 2 Tagen" in feed.texts and "Sag Hallo" in feed.texts


def test_time_ago_is_never_in_the_future() -> None:
    now = datetime.now(UTC)
    assert socialnetwork.time_ago(now + timedelta(seconds=5), now, "en") == "1 minute ago"
    assert socialnetwork.time_ago(now - timedelta(days=400), now, "fi") == "1 vuosi sitten"


async def test_nobody_yet(db: Session) -> None:
    _, feed, _ = await _parts("fr")
    assert feed.texts == ["Personne pour l’instant. Inscrivez-vous et soyez parmi les premiers."]
