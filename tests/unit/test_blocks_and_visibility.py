"""Blocking and who sees whom: profile access, contact and the member lists."""

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import Session, select

from models.blocks import Block, blocked_either_way, has_blocked
from models.directory import age_on, newest_members
from models.member import Member, MemberStatus, Profile
from models.visibility import ProfileAccess, can_contact, listed_to, profile_access, shown_to
from tests.factories import add_photo, block_member, edit_profile, make_member, unblock_member

TODAY = date(2025, 6, 15)


@pytest.fixture
def anna(db: Session) -> Member:
    return make_member(db, "anna@example.com")


@pytest.fixture
def bert(db: Session) -> Member:
    return make_member(db, "bert@example.com")


def _hide(db: Session, member: Member, status: str, profile_status: str) -> None:
    member.status = status
    db.add(member)
    edit_profile(db, member, status=profile_status)


def _ids(db: Session, where) -> set[int]:
    query = select(Member.id).join(Profile, Profile.member_id == Member.id).where(where)
    return set(db.exec(query))


# --- blocking -----------------------------------------------------------------------------


def test_blocking_is_one_way_and_idempotent(db: Session, anna: Member, bert: Member) -> None:
    block_member(db, anna.id, bert.id)
    block_member(db, anna.id, bert.id)
    assert len(db.exec(select(Block)).all()) == 1
    assert has_blocked(db, anna.id, bert.id) and not has_blocked(db, bert.id, anna.id)
    assert blocked_either_way(db, anna.id, bert.id) and blocked_either_way(db, bert.id, anna.id)
    assert not has_blocked(db, None, bert.id)


def test_unblocking_lifts_the_block(db: Session, anna: Member, bert: Member) -> None:
    block_member(db, anna.id, bert.id)
    unblock_member(db, anna.id, bert.id)
    unblock_member(db, anna.id, bert.id)
    assert not blocked_either_way(db, anna.id, bert.id)


def test_a_member_cannot_block_themselves(db: Session, anna: Member) -> None:
    with pytest.raises(ValueError):
        block_member(db, anna.id, anna.id)
    assert db.exec(select(Block)).all() == []


# --- profile access -----------------------------------------------------------------------


def test_owner_always_sees_their_own_profile(db: Session, anna: Member) -> None:
    _hide(db, anna, MemberStatus.DELETED_PENDING, "disabled")
    assert profile_access(db, anna.id, anna.id) == ProfileAccess.OWN


def test_shown_member_is_visible_to_visitors_and_members(
    db: Session, anna: Member, bert: Member
) -> None:
    assert profile_access(db, None, anna.id) == ProfileAccess.VISIBLE
    assert profile_access(db, bert.id, anna.id) == ProfileAccess.VISIBLE


@pytest.mark.parametrize(
    ("status", "profile_status"),
    [
        (MemberStatus.DELETED_PENDING, "disabled"),
        (MemberStatus.NOT_CONFIRMED, "disabled"),
        (MemberStatus.NOT_CONFIRMED, "enabled"),
        (MemberStatus.ACTIVE, "disabled"),
        (MemberStatus.DELETED, "enabled"),
    ],
)
def test_hidden_members_are_not_found(
    db: Session, anna: Member, bert: Member, status: str, profile_status: str
) -> None:
    _hide(db, anna, status, profile_status)
    assert profile_access(db, None, anna.id) == ProfileAccess.NOT_FOUND
    assert profile_access(db, bert.id, anna.id) == ProfileAccess.NOT_FOUND
    assert not can_contact(db, bert.id, anna.id)


def test_unknown_or_erased_member_is_not_found(db: Session, anna: Member) -> None:
    assert profile_access(db, anna.id, 9999) == ProfileAccess.NOT_FOUND
    bert = make_member(db, "bert@example.com")
    db.delete(db.get(Profile, bert.id))
    db.commit()
    assert profile_access(db, anna.id, bert.id) == ProfileAccess.NOT_FOUND


def test_member_who_blocked_the_viewer_is_not_found_by_them_only(
    db: Session, anna: Member, bert: Member
) -> None:
    carl = make_member(db, "carl@example.com")
    block_member(db, anna.id, bert.id)
    assert profile_access(db, bert.id, anna.id) == ProfileAccess.NOT_FOUND
    assert profile_access(db, carl.id, anna.id) == ProfileAccess.VISIBLE
    assert profile_access(db, None, anna.id) == ProfileAccess.VISIBLE


def test_viewer_still_sees_a_member_they_blocked_so_they_can_unblock(
    db: Session, anna: Member, bert: Member
) -> None:
    block_member(db, bert.id, anna.id)
    assert profile_access(db, bert.id, anna.id) == ProfileAccess.VISIBLE


def test_privacy_mode_asks_visitors_to_log_in(db: Session, anna: Member, bert: Member) -> None:
    anna.privacy_mode = True
    db.add(anna)
    db.commit()
    assert profile_access(db, None, anna.id) == ProfileAccess.LOGIN_REQUIRED
    assert profile_access(db, bert.id, anna.id) == ProfileAccess.VISIBLE


def test_contact_needs_a_visible_member_and_no_block_either_way(
    db: Session, anna: Member, bert: Member
) -> None:
    assert can_contact(db, bert.id, anna.id) and can_contact(db, anna.id, bert.id)
    assert not can_contact(db, anna.id, anna.id)
    block_member(db, anna.id, bert.id)
    assert not can_contact(db, bert.id, anna.id)
    assert not can_contact(db, anna.id, bert.id)
    unblock_member(db, anna.id, bert.id)
    assert can_contact(db, anna.id, bert.id)


# --- lists --------------------------------------------------------------------------------


def test_lists_leave_out_hidden_invisible_blocked_members_and_the_viewer(
    db: Session, anna: Member, bert: Member
) -> None:
    shown = make_member(db, "shown@example.com")
    invisible = make_member(db, "invisible@example.com", invisible=True)
    private = make_member(db, "private@example.com", privacy_mode=True)
    blocker = make_member(db, "blocker@example.com")
    blocked = make_member(db, "blocked@example.com")
    _hide(db, make_member(db, "gone@example.com"), MemberStatus.DELETED_PENDING, "disabled")
    make_member(db, "new@example.com", status=MemberStatus.NOT_CONFIRMED)
    block_member(db, blocker.id, anna.id)
    block_member(db, anna.id, blocked.id)
    everybody = {anna.id, bert.id, shown.id, private.id, blocker.id, blocked.id}

    assert _ids(db, listed_to(anna.id)) == {bert.id, shown.id, private.id}
    assert _ids(db, listed_to(None)) == everybody - {private.id}
    assert _ids(db, listed_to(bert.id)) == everybody - {bert.id}
    assert _ids(db, shown_to(anna.id)) == {bert.id, shown.id, private.id, invisible.id}


def test_newest_members_come_newest_first_as_tiles(db: Session, anna: Member) -> None:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    members = [
        make_member(
            db, f"m{i}@example.com", signup_date=start + timedelta(days=i), paid_user=i == 2
        )
        for i in range(4)
    ]
    edit_profile(db, members[3], city="Utrecht", date_of_birth=date(2000, 6, 16))
    for i, member in enumerate([*members, anna]):
        add_photo(db, member, f"m{i}", main=True)
    anna.signup_date = start - timedelta(days=1)
    db.add(anna)
    db.commit()

    first_page = newest_members(db, TODAY, limit=2, viewer_id=anna.id)
    second_page = newest_members(db, TODAY, limit=2, offset=2, viewer_id=anna.id)
    assert [t.id for t in first_page + second_page] == [m.id for m in reversed(members)]
    newest, second = first_page
    assert (newest.name, newest.age, newest.city, newest.country) == ("M3", 24, "Utrecht", "NL")
    assert (newest.thumb_filename, newest.premium) == ("m3_t.jpg", False)
    assert (second.thumb_filename, second.premium, second.city) == ("m2_t.jpg", True, "")
    assert anna.id in {t.id for t in newest_members(db, TODAY, limit=10)}


def test_newest_members_leave_out_members_without_a_main_photo(db: Session, anna: Member) -> None:
    with_photo = make_member(db, "photo@example.com")
    add_photo(db, with_photo, "main", main=True)
    only_extra = make_member(db, "extra@example.com")
    add_photo(db, only_extra, "extra")
    make_member(db, "none@example.com")

    assert [t.id for t in newest_members(db, TODAY, limit=10, viewer_id=anna.id)] == [with_photo.id]


@pytest.mark.parametrize(
    ("born", "today", "age"),
    [
        (date(2000, 6, 15), TODAY, 25),
        (date(2000, 6, 16), TODAY, 24),
        (date(2004, 2, 29), date(2022, 2, 28), 17),
        (date(2004, 2, 29), date(2022, 3, 1), 18),
        (date(2006, 2, 28), date(2024, 2, 29), 18),
    ],
)
def test_age_on_counts_whole_years(born: date, today: date, age: int) -> None:
    assert age_on(born, today) == age
