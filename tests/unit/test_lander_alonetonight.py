"""The recently-active lander: who counts as active (a message, an own like, a swipe or a photo in
the window; not the site's automatic likes, not fictional profiles, nobody hidden), the 24-hour
window before the 7-day one, the newest members when too few were active, and the page's honest
wording in every language (SQLite and PostgreSQL)."""

from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

import pytest
from sqlmodel import Session

from actions.lander_reads import (
    ANYWHERE,
    COUNTRY,
    FEW_ACTIVE,
    ActiveMembers,
    LanderAsk,
    lander_recently_active,
)
from components.landers.alonetonight import SHOWN
from components.landers.common import lander_mark
from components.landers.writers import write_lander
from components.server_parts import PageRequest
from models.chat import Conversation, Message
from models.lander_slug import LanderTarget
from models.likes import Like
from models.member import Member, Photo
from models.site_settings import SiteSettings
from models.swipes import Swipe
from tests.factories import add_photo, edit_profile, make_member
from translations.locales import LOCALES

NOW = datetime.now(UTC)
SETTINGS = SiteSettings()
LONG_AGO = NOW - timedelta(days=60)
HOUR_AGO, DAYS_AGO = NOW - timedelta(hours=1), NOW - timedelta(days=3)
_made = iter(range(10_000))


class Texts(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.feed(html)

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def _member(db: Session, country: str = "NL", **profile) -> Member:
    """A listed woman with a photo uploaded long ago: not active until she acts."""
    number = next(_made)
    member = make_member(db, f"a{number}@example.com", signup_date=LONG_AGO)
    edit_profile(db, member, name=f"Eva{number}", country=country, **profile)
    photo = add_photo(db, member, f"a{number}", main=True)
    photo.created_at = LONG_AGO
    db.add(photo)
    db.commit()
    return member


def _send(db: Session, sender: Member, to: Member, at: datetime) -> None:
    talk = Conversation(member_a=min(sender.id, to.id), member_b=max(sender.id, to.id))
    talk.started_by = sender.id
    db.add(talk)
    db.commit()
    db.add(Message(conversation_id=talk.id, sender_id=sender.id, client_id="c", created_at=at))
    db.commit()


def _act(db: Session, member: Member, kind: str, at: datetime, other: Member) -> None:
    if kind == "message":
        _send(db, member, other, at)
    elif kind in ("like", "automatic like"):
        automatic = kind == "automatic like"
        db.add(Like(liker_id=member.id, liked_id=other.id, created_at=at, automatic=automatic))
    elif kind == "swipe":
        db.add(Swipe(member_id=member.id, other_id=other.id, liked=False, created_at=at))
    else:
        db.add(
            Photo(member_id=member.id, filename="x.jpg", thumb_filename="x_t.jpg", created_at=at)
        )
    db.commit()


def _read(db: Session, country: str | None = "NL", niche: str = "none") -> ActiveMembers:
    ask = LanderAsk(LanderTarget(niche), country, "en", SHOWN, None, SETTINGS, NOW)
    return lander_recently_active(db, ask)


def _ids(found: ActiveMembers) -> set[int]:
    return {member["id"] for member in found.members}


def test_what_counts_as_active_in_the_last_24_hours(db: Session) -> None:
    other = _member(db, country="SE")
    active = [_member(db) for _ in range(4)]
    for member, kind in zip(active, ("message", "like", "swipe", "photo"), strict=True):
        _act(db, member, kind, HOUR_AGO, other)
    active += [_member(db), _member(db)]
    _act(db, active[-2], "message", HOUR_AGO, other)
    _act(db, active[-1], "photo", HOUR_AGO, other)
    not_active = [_member(db) for _ in range(2)]
    _act(db, not_active[0], "automatic like", HOUR_AGO, other)  # the site's, not hers
    _act(db, not_active[1], "message", LONG_AGO, other)
    fictional = _member(db)
    fictional.fictional_icon = True  # an operator's writing is no member's activity
    db.add(fictional)
    banned = _member(db)
    banned.status = "banned"
    db.add(banned)
    db.commit()
    for member in (fictional, banned):
        _act(db, member, "message", HOUR_AGO, other)

    found = _read(db)
    assert found.within == timedelta(days=1)
    assert _ids(found) == {member.id for member in active}
    assert (found.counted, found.area, found.widened) == (6, ANYWHERE, True)


def test_the_week_when_the_day_is_too_quiet_and_the_newest_when_the_week_is(db: Session) -> None:
    other = _member(db, country="SE")
    today, this_week = _member(db), [_member(db) for _ in range(FEW_ACTIVE - 1)]
    _act(db, today, "like", HOUR_AGO, other)
    for member in this_week:
        _act(db, member, "swipe", DAYS_AGO, other)
    found = _read(db)
    assert found.within == timedelta(days=7)
    assert found.counted == FEW_ACTIVE and _ids(found) == {today.id} | {m.id for m in this_week}

    db.delete(db.get(Swipe, (this_week[0].id, other.id)))
    db.commit()
    newest = _read(db)
    assert newest.within is None  # too few active: the newest members, said so
    assert newest.counted == FEW_ACTIVE + 1  # every listed member with a photo, counted


def test_the_nearer_window_wins_over_the_shorter(db: Session) -> None:
    other = _member(db, country="SE")
    for _ in range(FEW_ACTIVE):
        _act(db, _member(db, country="DE"), "message", HOUR_AGO, other)
    for _ in range(SHOWN):
        _act(db, _member(db), "photo", DAYS_AGO, other)
    found = _read(db)
    assert (found.within, found.area, found.counted) == (timedelta(days=7), COUNTRY, SHOWN)
    anywhere = _read(db, country=None)  # nothing nearer asked: the fresher measure
    assert anywhere.within == timedelta(days=1) and anywhere.counted == FEW_ACTIVE


async def _page(locale: str, path: str = "/landers/alonetonight") -> tuple[list[str], list[str]]:
    headers = {"accept-language": "nl-NL"}
    parts = await write_lander(PageRequest(path, headers, SETTINGS, locale, None))
    return Texts(parts[lander_mark("head")]).texts, Texts(parts[lander_mark("grid")]).texts


async def test_the_page_says_what_was_measured(db: Session) -> None:
    other = _member(db, country="SE")
    for _ in range(SHOWN):
        _act(db, _member(db, city="Utrecht"), "message", HOUR_AGO, other)
    head, grid = await _page("en")
    assert head == [
        "Meet new people and start chatting",
        "Netherlands: 18 members were active in the last 24 hours",
        "Active means: sent a message or a like, swiped or added a photo.",
    ]
    assert sum(text.startswith("Eva") for text in grid) == SHOWN
    head, _grid = await _page("de")
    assert head[1] == "Niederlande: 18 Mitglieder waren in den letzten 24 Stunden aktiv"


async def test_too_few_active_says_these_are_the_newest(db: Session) -> None:
    for _ in range(3):
        _member(db, gender="female", sexuality="hetero")
    head, grid = await _page("en", "/landers/alonetonight/she")
    assert head == [
        "Meet women who are looking for a man",
        "3 members with a photo",
        "Netherlands: only a few of them so far, so we also show members further away.",
        "Few members have been active in the last 7 days, so these are the newest members.",
    ]
    assert not any("tonight" in text.lower() or "online" in text.lower() for text in head + grid)


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != "en"])
async def test_every_language_has_its_own_words(db: Session, locale: str) -> None:
    other = _member(db, country="SE")
    for _ in range(FEW_ACTIVE):
        _act(db, _member(db), "like", HOUR_AGO, other)
    english, _grid = await _page("en")
    translated, _grid = await _page(locale)
    assert len(translated) == len(english) == 4  # headline, count, widened, meaning
    for mine, theirs in zip(translated, english, strict=True):
        assert mine != theirs, (locale, theirs)
