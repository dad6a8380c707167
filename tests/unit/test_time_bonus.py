"""The welcome time bonus: 14 400 s from signup, never reset or extended."""

from datetime import UTC, datetime, timedelta

from sqlmodel import Session

from models.discount_codes import redeem, time_bonus_code
from models.member import Member
from models.orders import Order
from models.time_bonus import WINDOW, active_time_bonus, clear_time_bonus, start_time_bonus
from tests.factories import make_member

SIGNUP = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
DEADLINE = SIGNUP + timedelta(seconds=14_400)


def member(db: Session, **fields) -> Member:
    return make_member(db, "anna@example.com", signup_date=SIGNUP, **fields)


def later(seconds: int) -> datetime:
    return SIGNUP + timedelta(seconds=seconds)


def test_the_window_is_four_hours() -> None:
    assert WINDOW == 14_400


def test_a_new_free_member_gets_the_deadline_from_signup(db: Session) -> None:
    anna = member(db)
    assert start_time_bonus(db, anna, later(60)) == DEADLINE
    assert anna.time_bonus_until == DEADLINE


def test_starting_again_neither_resets_nor_extends_it(db: Session) -> None:
    anna = member(db)
    start_time_bonus(db, anna, later(60))
    clear_time_bonus(anna)  # logged out
    assert start_time_bonus(db, anna, later(10_000)) == DEADLINE


def test_no_bonus_after_the_window_or_for_paid_members(db: Session) -> None:
    anna = member(db)
    assert start_time_bonus(db, anna, later(14_400)) is None
    assert start_time_bonus(db, anna, later(20_000)) is None
    bert = make_member(db, "bert@example.com", signup_date=SIGNUP, paid_user=True)
    bert.time_bonus_until = DEADLINE
    assert start_time_bonus(db, bert, later(60)) is None
    assert bert.time_bonus_until is None


def test_no_bonus_once_timebonus25_was_redeemed(db: Session) -> None:
    anna = member(db)
    order = Order(
        member_id=anna.id, tier="p0", credits=100, list_cents=1995, amount_cents=1496,
        currency="EUR", country="NL", method="ideal", provider="test", status="paid",
        paid_at=later(30),
    )  # fmt: skip
    db.add(order)
    db.commit()
    assert redeem(db, time_bonus_code(db).id, anna.id, order.id, paid=True)
    assert start_time_bonus(db, anna, later(60)) is None


def test_the_active_bonus_runs_until_its_deadline_then_clears(db: Session) -> None:
    anna = member(db)
    assert active_time_bonus(anna, later(60)) is None  # never started
    start_time_bonus(db, anna, later(60))
    db.add(anna)
    db.commit()
    stored = _reloaded(db, anna)  # SQLite returns the stored deadline without its zone
    assert active_time_bonus(stored, later(14_399)) == DEADLINE
    assert active_time_bonus(stored, later(14_400)) is None
    assert stored.time_bonus_until is None


def test_paying_ends_the_bonus(db: Session) -> None:
    anna = member(db)
    start_time_bonus(db, anna, later(60))
    anna.paid_user = True
    assert active_time_bonus(anna, later(120)) is None
    assert anna.time_bonus_until is None


def _reloaded(db: Session, row: Member) -> Member:
    db.expunge_all()
    fresh = db.get(Member, row.id)
    assert fresh is not None
    return fresh
