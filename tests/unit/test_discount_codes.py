"""Discount codes: who may use which code for what order, and redeeming once."""

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from threading import Barrier

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from models.discount_codes import (
    ONCE_PER_USER,
    REUSABLE,
    TIME_BONUS_CODE,
    WELCOME_CODE,
    DiscountCode,
    DiscountRedemption,
    check_code,
    redeem,
    release,
    retention_code,
    retention_offered,
    seed_discount_codes,
    time_bonus_code,
    welcome_code,
)
from models.member import Member
from models.orders import Order
from tests.concurrency import at_once, postgres_only
from tests.factories import make_member
from translations.errors import (
    DISCOUNT_CODE_COUNTRY,
    DISCOUNT_CODE_CURRENCY,
    DISCOUNT_CODE_EXPIRED,
    DISCOUNT_CODE_METHOD,
    DISCOUNT_CODE_MINIMUM,
    DISCOUNT_CODE_NOT_FOUND,
    DISCOUNT_CODE_USED,
)

NOW = datetime.now(UTC)


@pytest.fixture
def anna(db: Session) -> Member:
    return make_member(db, "anna@example.com")


@pytest.fixture
def bert(db: Session) -> Member:
    return make_member(db, "bert@example.com")


def add_code(db: Session, code: str = "SPRING20", **fields) -> DiscountCode:
    row = DiscountCode(
        code=code,
        value_percentage=fields.pop("value_percentage", 20),
        expires_at=fields.pop("expires_at", NOW + timedelta(days=7)),
        **fields,
    )
    db.add(row)
    db.commit()
    return row


def order_for(db: Session, member: Member, paid: bool = False) -> Order:
    order = Order(
        member_id=member.id, tier="p0", credits=100, list_cents=1995, amount_cents=1596,
        currency="EUR", country="NL", method="ideal", provider="test",
        paid_at=NOW if paid else None,
    )  # fmt: skip
    db.add(order)
    db.commit()
    return order


def check(db: Session, member: Member, text: str, **order) -> str:
    """The error of checking `text` for a NL order of 19.95 by iDEAL ("" when it applies)."""
    found = check_code(
        db,
        text,
        member.id,
        order.get("country", "NL"),
        order.get("currency", "EUR"),
        order.get("amount", 1995),
        order.get("method", "ideal"),
        order.get("now", NOW),
    )
    assert (found.error == "") == (found.code is not None)  # a code, or why not
    return found.error


def test_a_valid_code_applies_whatever_its_case(db, anna) -> None:
    code = add_code(db)
    found = check_code(db, "  spring20 ", anna.id, "NL", "EUR", 1995, "ideal", NOW)
    assert found.error == "" and found.code.id == code.id and found.params == ()


def test_unknown_disabled_and_other_peoples_codes_are_not_found(db, anna, bert) -> None:
    add_code(db, "OFF", status="inactive")
    stay = retention_code(db, bert.id, 50)
    db.commit()
    assert [check(db, anna, text) for text in ("NOPE", "", "OFF", stay.code)] == [
        DISCOUNT_CODE_NOT_FOUND
    ] * 4
    assert check(db, bert, stay.code.lower()) == ""


def test_an_expired_code_says_so(db, anna) -> None:
    add_code(db, "OLD", expires_at=NOW - timedelta(seconds=1))
    add_code(db, "ENDED", status="expired")
    assert check(db, anna, "OLD") == check(db, anna, "ENDED") == DISCOUNT_CODE_EXPIRED
    add_code(db, "SOON", expires_at=NOW + timedelta(hours=1))
    assert check(db, anna, "SOON", now=NOW + timedelta(hours=2)) == DISCOUNT_CODE_EXPIRED


def test_country_currency_and_method_restrict_a_code(db, anna) -> None:
    add_code(db, country="NL", currency="EUR", paymentmethods=["ideal", "creditcard"])
    assert check(db, anna, "SPRING20", country="BE") == DISCOUNT_CODE_COUNTRY
    assert check(db, anna, "SPRING20", currency="GBP") == DISCOUNT_CODE_CURRENCY
    assert check(db, anna, "SPRING20", method="paypal") == DISCOUNT_CODE_METHOD
    assert check(db, anna, "SPRING20", method="creditcard") == ""
    assert check(db, anna, "SPRING20", method=None) == ""  # looked up before choosing


def test_below_the_minimum_order_value_names_the_minimum(db, anna) -> None:
    add_code(db, minimum_order_value=3995)
    refused = check_code(db, "SPRING20", anna.id, "NL", "EUR", 1995, None, NOW, "nl")
    assert (refused.error, refused.params) == (DISCOUNT_CODE_MINIMUM, (("amount", "€\xa039,95"),))
    assert (
        check(db, anna, "SPRING20", amount=3995) == check(db, anna, "SPRING20", amount=None) == ""
    )


def test_a_once_per_user_code_is_used_once_per_member(db, anna, bert) -> None:
    code = add_code(db, validity=ONCE_PER_USER)
    first, second = order_for(db, anna, paid=True), order_for(db, anna)
    assert redeem(db, code.id, anna.id, first.id)
    assert redeem(db, code.id, anna.id, first.id)  # the same order again: nothing new
    assert not redeem(db, code.id, anna.id, second.id)
    db.commit()
    assert len(db.exec(select(DiscountRedemption)).all()) == 1
    assert check(db, anna, "SPRING20") == DISCOUNT_CODE_USED
    assert check(db, bert, "SPRING20") == ""
    assert redeem(db, code.id, bert.id, order_for(db, bert).id)


def test_a_code_held_by_an_unpaid_order_is_free_again_once_released(db, anna) -> None:
    stay = retention_code(db, anna.id, 50)
    held = order_for(db, anna)
    assert redeem(db, stay.id, anna.id, held.id)
    assert not redeem(db, stay.id, anna.id, order_for(db, anna).id)  # one order at a time
    assert check(db, anna, stay.code) == ""  # not used: no paid order has it
    release(db, held.id)
    db.commit()
    assert redeem(db, stay.id, anna.id, order_for(db, anna).id)


def test_a_reusable_code_is_redeemed_by_every_order(db, anna) -> None:
    code = add_code(db, validity=REUSABLE)
    assert all(redeem(db, code.id, anna.id, order_for(db, anna).id) for _ in range(3))
    db.commit()
    assert check(db, anna, "SPRING20") == ""
    assert not redeem(db, code.id + 1, anna.id, order_for(db, anna).id)  # no such code


def test_a_member_gets_one_stay_code_for_good(db, anna, bert) -> None:
    """Issue 28: a STAY code paid an order at 50 %, and claiming again gave a fresh one."""
    stay = retention_code(db, anna.id, 50)
    db.commit()
    assert retention_code(db, anna.id, 50) is None  # while it is open
    assert redeem(db, stay.id, anna.id, order_for(db, anna, paid=True).id, paid=True)
    db.commit()
    assert db.get(DiscountCode, stay.id).status == "used"
    assert check(db, anna, stay.code) == DISCOUNT_CODE_USED
    assert retention_code(db, anna.id, 50) is None  # once it paid an order
    assert retention_code(db, bert.id, 0) is None  # the offer switched off claims nothing
    assert retention_code(db, bert.id, 50) is not None
    db.commit()
    assert [c.member_id for c in db.exec(select(DiscountCode))] == [anna.id, bert.id]


def test_an_expired_stay_code_is_not_replaced(db, anna) -> None:
    stay = retention_code(db, anna.id, 50)
    stay.expires_at = NOW - timedelta(days=1)
    db.add(stay)
    db.commit()
    assert check(db, anna, stay.code) == DISCOUNT_CODE_EXPIRED
    assert retention_code(db, anna.id, 50) is None
    assert retention_offered(db, anna.id)


def test_stay_codes_claimed_at_once_make_one(engine: Engine, db, anna) -> None:
    postgres_only(engine)

    def claim() -> str | None:
        with Session(engine, expire_on_commit=False) as own:
            code = retention_code(own, anna.id, 50)
            own.commit()
            return code.code if code else None

    codes = at_once([claim] * 8)
    assert len([code for code in codes if code]) == 1 and None in codes
    assert len(db.exec(select(DiscountCode)).all()) == 1


def test_the_time_bonus_code_is_the_spec_s_and_made_once(db) -> None:
    code = time_bonus_code(db)
    assert time_bonus_code(db).id == code.id
    assert (code.code, code.value_percentage, code.validity, code.status, code.member_id) == (
        TIME_BONUS_CODE, 25, ONCE_PER_USER, "active", None
    )  # fmt: skip
    assert TIME_BONUS_CODE == "TIMEBONUS25"


def test_the_time_bonus_code_applies_only_while_the_countdown_runs(db, anna) -> None:
    code = time_bonus_code(db)
    db.commit()
    assert check(db, anna, "timebonus25") == DISCOUNT_CODE_EXPIRED
    anna.time_bonus_until = NOW + timedelta(hours=1)
    db.add(anna)
    db.commit()
    assert check(db, anna, TIME_BONUS_CODE) == ""
    assert check(db, anna, TIME_BONUS_CODE, now=NOW + timedelta(hours=2)) == DISCOUNT_CODE_EXPIRED
    redeem(db, code.id, anna.id, order_for(db, anna, paid=True).id)
    db.commit()
    assert check(db, anna, TIME_BONUS_CODE) == DISCOUNT_CODE_USED


def test_the_welcome_code_is_the_newest_general_active_one(db, anna) -> None:
    assert welcome_code(db, NOW) is None
    seed_discount_codes(db)
    seed_discount_codes(db)
    db.commit()
    assert welcome_code(db, NOW).code == WELCOME_CODE
    assert check(db, anna, WELCOME_CODE) == ""
    add_code(db, "HELLO", welcome=True, member_id=anna.id)
    add_code(db, "GONE", welcome=True, status="used")
    assert welcome_code(db, NOW).code == WELCOME_CODE
    add_code(db, "HELLO15", welcome=True, value_percentage=15)
    assert welcome_code(db, NOW).code == "HELLO15"
    codes = db.exec(select(DiscountCode.code)).all()
    assert sorted(codes) == sorted({*codes}) and TIME_BONUS_CODE in codes


def test_orders_paid_at_once_redeem_a_once_code_once(engine: Engine, db, anna) -> None:
    """Two orders with the same once-per-user code paid together: one redemption, no error."""
    if engine.dialect.name != "postgresql":
        pytest.skip("parallel transactions are a PostgreSQL matter; SQLite runs one writer")
    code = add_code(db)
    orders = [order_for(db, anna).id for _ in range(10)]
    start = Barrier(len(orders))

    def pay(order_id: int) -> bool:
        with Session(engine, expire_on_commit=False) as own:
            start.wait()
            redeemed = redeem(own, code.id, anna.id, order_id)
            own.commit()
            return redeemed

    with ThreadPoolExecutor(max_workers=len(orders)) as pool:
        assert sorted(pool.map(pay, orders)) == [False] * 9 + [True]
    assert len(db.exec(select(DiscountRedemption)).all()) == 1
