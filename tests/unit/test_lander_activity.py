"""The social network lander's feed (actions/lander_reads.lander_activity): in the area the
lander shows, the most recently active members first, each with their latest event at its real
time: an approved photo added later than joining, else joining. Pending and rejected photos are
no event; the visibility rule and the niche are the landers'. SQLite and PostgreSQL."""

from datetime import UTC, datetime, timedelta
from itertools import count

from sqlmodel import Session

from actions.lander_reads import (
    ANYWHERE,
    JOINED,
    NEW_PHOTO,
    PLACE,
    LanderAsk,
    LanderMembers,
    lander_activity,
)
from models.lander_slug import LanderPlace, LanderTarget
from models.member import Member
from models.site_settings import SiteSettings
from tests.factories import add_photo, block_member, edit_profile, make_member

NOW = datetime.now(UTC).replace(microsecond=0)
SETTINGS = SiteSettings()
AMSTERDAM = LanderPlace("NL", "NL-NH", "Amsterdam")
_made = count()


def _photo(db: Session, member: Member, at: datetime, status: str = "approved", main=False):
    photo = add_photo(db, member, f"p{next(_made)}", main=main)
    photo.created_at, photo.status = at, status
    db.add(photo)
    db.commit()
    return photo


def _member(db: Session, joined: timedelta, **profile) -> Member:
    """A listed woman in Amsterdam who joined `joined` ago with her main photo."""
    number = next(_made)
    member = make_member(db, f"a{number}@example.com", signup_date=NOW - joined)
    edit_profile(db, member, **{"city": "Amsterdam", "region": "NL-NH", **profile})
    _photo(db, member, NOW - joined + timedelta(minutes=3), main=True)
    return member


def _feed(db: Session, target: LanderTarget, viewer_id: int | None = None, limit: int = 20):
    return lander_activity(db, LanderAsk(target, "NL", "en", limit, viewer_id, SETTINGS, NOW))


def _events(found: LanderMembers) -> list[tuple[int, str, datetime]]:
    return [(m["id"], m["event"], m["at"]) for m in found.members]


def test_the_latest_event_of_each_member_most_recent_first(db: Session) -> None:
    newcomer = _member(db, timedelta(hours=2))
    with_photo = _member(db, timedelta(days=10))
    _photo(db, with_photo, NOW - timedelta(hours=5))
    _photo(db, with_photo, NOW - timedelta(days=2))
    pending = _member(db, timedelta(days=3))
    _photo(db, pending, NOW - timedelta(minutes=10), status="pending")
    _photo(db, pending, NOW - timedelta(minutes=20), status="rejected")
    long_ago = _member(db, timedelta(days=400))
    _photo(db, long_ago, NOW - timedelta(days=31))  # no news any more: her event is joining

    found = _feed(db, LanderTarget("she", AMSTERDAM))
    assert _events(found) == [
        (newcomer.id, JOINED, NOW - timedelta(hours=2)),
        (with_photo.id, NEW_PHOTO, NOW - timedelta(hours=5)),
        (pending.id, JOINED, NOW - timedelta(days=3)),
        (long_ago.id, JOINED, NOW - timedelta(days=400)),
    ]
    assert found.members[0]["name"] and found.members[0]["srcset"]
    assert (found.counted, found.area, found.widened) == (4, ANYWHERE, True)


def test_the_area_and_niche_of_the_lander(db: Session) -> None:
    near = [_member(db, timedelta(days=day)) for day in (5, 6)]
    far = _member(db, timedelta(hours=1), city="Utrecht", region="NL-UT")
    _member(db, timedelta(hours=1), gender="male", sexuality="gay")

    found = _feed(db, LanderTarget("she", AMSTERDAM), limit=2)
    assert [m["id"] for m in found.members] == [near[0].id, near[1].id]
    assert (found.counted, found.area, found.widened) == (2, PLACE, False)
    widened = _feed(db, LanderTarget("she", AMSTERDAM), limit=3)
    assert [m["id"] for m in widened.members] == [far.id, near[0].id, near[1].id]


def test_nobody_hidden_banned_invisible_private_or_blocked(db: Session) -> None:
    shown = _member(db, timedelta(days=1))
    left_out = []
    for fields in ({"invisible": True}, {"status": "banned"}, {"status": "disabled"}):
        member = _member(db, timedelta(hours=1))
        for name, value in fields.items():
            setattr(member, name, value)
        db.add(member)
        db.commit()
        left_out.append(member.id)
    private = _member(db, timedelta(hours=3))
    private.privacy_mode = True
    db.add(private)
    db.commit()
    viewer, blocked = _member(db, timedelta(days=9)), _member(db, timedelta(hours=4))
    block_member(db, viewer.id, blocked.id)

    seen = {m["id"] for m in _feed(db, LanderTarget()).members}
    assert seen == {shown.id, viewer.id, blocked.id}
    as_member = {m["id"] for m in _feed(db, LanderTarget(), viewer_id=viewer.id).members}
    assert as_member == {shown.id, private.id}
    assert not set(left_out) & (seen | as_member)
