"""The admins' discount codes: the form's rules, a new code (typed or generated, general or for
one member), its uses counted from paid orders, and a disabled code that no member can use."""

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import Session, select

from actions.discount_admin import CODE_TAKEN, NO_MEMBER, code_page, create_code, disable_code
from actions.staff_viewer import StaffViewer
from models.account_errors import AccountError
from models.audit import AuditEntry
from models.discount_codes import (
    DISABLED,
    NEVER,
    REUSABLE,
    DiscountCode,
    check_code,
    redeem,
    time_bonus_code,
)
from models.discount_form import CODE_FORMAT, CODE_RESERVED, LAST_DAY, discount_form
from models.member import Member
from models.orders import Order
from models.staff import Role
from tests.factories import make_member
from translations.errors import DISCOUNT_CODE_NOT_FOUND

TODAY = date(2026, 11, 27)
COUNTRIES = ("NL", "BE", "DE")
CURRENCIES = ("EUR", "GBP")
FORM = {"percentage": "15", "validity": "once-per-user"}


def checked(**fields: str):
    return discount_form({**FORM, **fields}, COUNTRIES, CURRENCIES, TODAY)


def refusal(**fields: str) -> tuple[str, str]:
    with pytest.raises(AccountError) as error:
        checked(**fields)
    return error.value.field, error.value.message


def test_a_full_form():
    assert checked(percentage="90").value_percentage == 90
    new = checked(
        code=" spring-26 ", percentage="20", country="nl", currency="EUR", minimum="19,95",
        validity="reusable", expires="2026-12-31", **{"method.ideal": "on", "method.x": "on"},
        member=" anna@example.com ",
    )  # fmt: skip
    assert (new.code, new.value_percentage, new.country, new.currency) == (
        "SPRING-26",
        20,
        "NL",
        "EUR",
    )
    assert (new.minimum_order_value, new.validity, new.paymentmethods) == (
        1995,
        REUSABLE,
        ["ideal"],
    )
    assert new.expires_at == datetime(2027, 1, 1, tzinfo=UTC)  # works through 31 December
    assert new.member == "anna@example.com"


def test_an_empty_form_means_generated_for_everyone_everywhere_for_good():
    new = checked()
    assert new.code.startswith("AM-") and len(new.code) == 9
    assert (new.country, new.currency, new.minimum_order_value) == (None, None, 0)
    assert (new.expires_at, new.paymentmethods, new.member) == (NEVER, [], "")
    assert checked().code != new.code


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"code": "AB"}, "code", CODE_FORMAT),
        ({"code": "SPRING 26"}, "code", CODE_FORMAT),
        ({"code": "x" * 41}, "code", CODE_FORMAT),
        ({"code": "STAY50-ABC"}, "code", CODE_RESERVED),
        ({"percentage": "0"}, "percentage", None),
        ({"percentage": "91"}, "percentage", None),
        ({"percentage": "ten"}, "percentage", None),
        ({"country": "US"}, "country", None),
        ({"currency": "USD"}, "currency", None),
        ({"minimum": "-1"}, "minimum", None),
        ({"minimum": "100001"}, "minimum", None),
        ({"validity": "forever"}, "validity", None),
        ({"expires": "2026-11-27"}, "expires", LAST_DAY),
        ({"expires": "2031-11-28"}, "expires", LAST_DAY),
        ({"expires": "soon"}, "expires", LAST_DAY),
    ],
)
def test_the_forms_rules(fields, field, message):
    refused_field, refused_message = refusal(**fields)
    assert refused_field == field
    assert message is None or refused_message == message


# ----- the actions -----


@pytest.fixture
def admin(db: Session) -> StaffViewer:
    member = make_member(db, "ada@example.com")
    return StaffViewer(member.id, Role.ADMIN, frozenset({Role.ADMIN}), "en", "203.0.113.9")


@pytest.fixture
def anna(db: Session) -> Member:
    return make_member(db, "anna@example.com")


def paid_order(db: Session, member: Member) -> Order:
    order = Order(
        member_id=member.id, tier="p0", credits=100, list_cents=1995, amount_cents=1696,
        currency="EUR", country="NL", method="ideal", provider="test", paid_at=datetime.now(UTC),
    )  # fmt: skip
    db.add(order)
    db.commit()
    return order


def test_a_code_for_one_member_is_made_audited_and_listed(db, admin, anna):
    text = create_code(admin, checked(code="anna15", member="ANNA@example.com"), "Goodwill").value
    assert text == "ANNA15"
    code = db.exec(select(DiscountCode).where(DiscountCode.code == "ANNA15")).one()
    assert (code.member_id, code.value_percentage) == (anna.id, 15)
    entry = db.exec(select(AuditEntry)).one()
    assert (entry.action, entry.target_id, entry.reason) == ("discount.create", code.id, "Goodwill")
    assert entry.after["code"] == "ANNA15" and entry.after["member_id"] == anna.id

    by_number = create_code(admin, checked(member=str(anna.id)), "Goodwill").value
    rows = code_page(1).rows
    assert [r["code"] for r in rows] == [by_number, "ANNA15"]
    assert rows[1]["member"] == "anna@example.com" and rows[1]["uses"] == 0


def test_a_taken_code_or_an_unknown_member_is_refused(db, admin, anna):
    create_code(admin, checked(code="SPRING"), "Campaign")
    for new, message in (
        (checked(code="spring"), CODE_TAKEN),
        (checked(member="nobody@example.com"), NO_MEMBER),
        (checked(member="99999"), NO_MEMBER),
        (checked(member="not an address"), NO_MEMBER),
    ):
        with pytest.raises(AccountError) as error:
            create_code(admin, new, "Campaign")
        assert error.value.message == message
    assert len(db.exec(select(DiscountCode)).all()) == 1


def test_uses_count_paid_orders_only(db, admin, anna):
    create_code(admin, checked(code="MANY", validity="reusable"), "Campaign")
    code = db.exec(select(DiscountCode)).one()
    for _ in range(2):
        redeem(db, code.id, anna.id, paid_order(db, anna).id, paid=True)
    unpaid = paid_order(db, anna)
    unpaid.paid_at = None
    db.add(unpaid)
    db.commit()
    redeem(db, code.id, anna.id, unpaid.id)
    db.commit()
    assert code_page(1).rows[0]["uses"] == 2


def test_a_disabled_code_is_unknown_to_members(db, admin, anna):
    create_code(admin, checked(code="SPRING"), "Campaign")
    code = db.exec(select(DiscountCode)).one()
    now = datetime.now(UTC) + timedelta(seconds=1)

    def check() -> str:
        return check_code(db, "spring", anna.id, "NL", "EUR", 1995, "ideal", now).error

    assert check() == ""
    assert disable_code(admin, code.id, "Leaked on a forum").value is True
    assert disable_code(admin, code.id, "Again").value is False
    db.expire_all()
    assert db.get(DiscountCode, code.id).status == DISABLED
    assert check() == DISCOUNT_CODE_NOT_FOUND
    actions = db.exec(select(AuditEntry.action).order_by(AuditEntry.id)).all()
    assert actions == ["discount.create", "discount.disable"]


def test_the_countdowns_code_stays(db, admin):
    bonus = time_bonus_code(db)
    db.commit()
    assert disable_code(admin, bonus.id, "Tidy up").value is False
    assert db.exec(select(AuditEntry)).all() == []
