"""The console's numbered pages (actions/paging.py): a page of rows with one more read to tell
whether a next page exists, the page number kept within 1..max_page."""

from sqlmodel import Session, col, select

from actions.paging import page_of
from models.member import Member
from tests.factories import make_member


def _emails(found) -> list[dict]:
    return [{"email": member.email} for member in found]


def test_pages_of_two_the_last_without_a_next(db: Session) -> None:
    for n in range(5):
        make_member(db, f"m{n}@example.com")
    ordered = select(Member).order_by(col(Member.id))
    first = page_of(db, ordered, 1, _emails, size=2)
    assert first.rows == [{"email": "m0@example.com"}, {"email": "m1@example.com"}]
    assert (first.page, first.has_next) == (1, True)
    last = page_of(db, ordered, 3, _emails, size=2)
    assert (last.rows, last.page, last.has_next) == ([{"email": "m4@example.com"}], 3, False)
    assert page_of(db, ordered, 4, _emails, size=2).rows == []


def test_a_page_out_of_bounds_is_the_nearest_within(db: Session) -> None:
    for n in range(5):
        make_member(db, f"m{n}@example.com")
    ordered = select(Member).order_by(col(Member.id))
    assert page_of(db, ordered, 0, _emails, size=2).page == 1
    assert page_of(db, ordered, -7, _emails, size=2).rows[0] == {"email": "m0@example.com"}
    far = page_of(db, ordered, 10**9, _emails, size=2, max_page=2)
    assert (far.page, far.rows[0], far.has_next) == (2, {"email": "m2@example.com"}, True)
