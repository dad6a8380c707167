"""Payment records of erased accounts go once the 7 years of Dutch fiscal retention are over."""

from datetime import UTC, datetime, timedelta

from sqlmodel import Session, select

from models.credits import CreditEntry
from models.direct_debit import MandateStatus, SddMandate, SmsCode
from models.discount_codes import DiscountCode, DiscountRedemption
from models.member import Member, MemberStatus, utcnow
from models.orders import Order, OrderRefund
from models.payment_retention import purge_retained_payments
from models.test_payments import SandboxPayment, SandboxRefund
from services.account_purge import purge_expired_accounts
from tests.factories import committed, make_member

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)


def _member(db: Session, email: str, status: str = MemberStatus.DELETED) -> Member:
    return make_member(db, email, status=status)


def _order(db: Session, member: Member, created: datetime, payment_id: str | None = None) -> Order:
    order = Order(
        member_id=member.id, tier="p1", credits=100, list_cents=1000, amount_cents=1000,
        currency="EUR", country="NL", method="ideal", provider="test", status="paid",
        provider_payment_id=payment_id, created_at=created,
    )  # fmt: skip
    db.add(order)
    db.commit()
    return order


def _with_records(db: Session, order: Order) -> None:
    """A refund, both ledger lines, a signed mandate with its SMS code, a discount redemption
    and the sandbox payment with its refund: everything that refers to the order."""
    refund = OrderRefund(order_id=order.id, amount_cents=500, credits_taken=50, status="refunded")
    mandate = SddMandate(
        member_id=order.member_id, order_id=order.id, tier="p1", payment_country="NL",
        account_holder="A", iban="NL91ABNA0417164300", street="S", house_number="1",
        zip="1015 CJ", city="C", country="NL", phone_e164="+31612345678", mandate_text="text",
        status=MandateStatus.SIGNED,
    )  # fmt: skip
    code = DiscountCode(code=f"CODE{order.id}", value_percentage=10, expires_at=order.created_at)
    db.add_all([refund, mandate, code])
    db.flush()
    member_id = order.member_id
    db.add_all(
        [
            CreditEntry(member_id=member_id, amount=100, reason="p", reference=f"order:{order.id}"),
            CreditEntry(member_id=member_id, amount=-5, reason="", reference=f"refund:{refund.id}"),
            SmsCode(
                mandate_id=mandate.id, member_id=member_id, phone_e164="+31612345678",
                salt="s", code_hash="h", expires_at=order.created_at,
            ),
            DiscountRedemption(code_id=code.id, member_id=member_id, order_id=order.id, once=True),
        ]
    )  # fmt: skip
    if order.provider_payment_id:
        db.add(
            SandboxPayment(
                id=order.provider_payment_id, amount_cents=1000, currency="EUR",
                description="d", expires_at=order.created_at,
            )
        )  # fmt: skip
        db.flush()
        db.add(
            SandboxRefund(
                id=f"re_{order.id}", payment_id=order.provider_payment_id, amount_cents=500,
                currency="EUR", settles_at=order.created_at,
            )
        )  # fmt: skip
    db.commit()


def _left(db: Session) -> dict[str, int]:
    db.expire_all()
    tables = (Order, OrderRefund, CreditEntry, SddMandate, SmsCode, DiscountRedemption)
    counts = {t.__name__: len(db.exec(select(t)).all()) for t in tables}
    counts["sandbox"] = len(db.exec(select(SandboxPayment)).all())
    counts["sandbox refunds"] = len(db.exec(select(SandboxRefund)).all())
    return counts


def test_an_erased_accounts_8_year_old_order_goes_with_every_record_of_it(db: Session) -> None:
    member = _member(db, "gone@example.com")
    _with_records(db, _order(db, member, NOW - timedelta(days=8 * 365), "tr_old"))
    assert committed(db, purge_retained_payments, NOW) == 1
    assert set(_left(db).values()) == {0}
    assert db.get(Member, member.id) is not None


def test_a_6_year_old_order_of_an_erased_account_stays(db: Session) -> None:
    member = _member(db, "gone@example.com")
    order = _order(db, member, NOW - timedelta(days=6 * 365), "tr_recent")
    _with_records(db, order)
    assert committed(db, purge_retained_payments, NOW) == 0
    assert set(_left(db).values()) == {1, 2}  # two ledger lines, one of everything else


def test_a_live_members_old_orders_stay(db: Session) -> None:
    for status in (MemberStatus.ACTIVE, MemberStatus.DELETED_PENDING):
        _order(db, _member(db, f"{status}@example.com", status), NOW - timedelta(days=10 * 365))
    assert committed(db, purge_retained_payments, NOW) == 0
    assert _left(db)["Order"] == 2


def test_the_7_years_run_from_the_end_of_the_dutch_calendar_year(db: Session) -> None:
    """In 2026 the orders of 2018 go, those of 2019 (Amsterdam time) stay."""
    member = _member(db, "gone@example.com")
    last_of_2018 = _order(db, member, datetime(2018, 12, 31, 22, 59, tzinfo=UTC))
    first_of_2019 = _order(db, member, datetime(2018, 12, 31, 23, 0, tzinfo=UTC))  # 0:00 CET
    assert committed(db, purge_retained_payments, datetime(2026, 1, 1, 0, tzinfo=UTC)) == 1
    db.expire_all()
    assert db.get(Order, last_of_2018.id) is None and db.get(Order, first_of_2019.id) is not None
    assert committed(db, purge_retained_payments, datetime(2026, 12, 31, 12, tzinfo=UTC)) == 0


def test_a_run_deletes_at_most_its_bound_oldest_first(db: Session) -> None:
    member = _member(db, "gone@example.com")
    orders = [_order(db, member, NOW - timedelta(days=9 * 365 + n)) for n in range(5)]
    assert committed(db, purge_retained_payments, NOW, limit=3) == 3
    assert [o.id for o in db.exec(select(Order).order_by(Order.id))] == [o.id for o in orders[3:]]
    assert committed(db, purge_retained_payments, NOW, limit=3) == 2
    assert _left(db)["Order"] == 0


def test_the_hourly_purge_deletes_them(db: Session) -> None:
    old = _order(db, _member(db, "gone@example.com"), utcnow() - timedelta(days=8 * 366))
    kept = _order(db, _member(db, "live@example.com", MemberStatus.ACTIVE), old.created_at)
    old_id, kept_id = old.id, kept.id
    purge_expired_accounts()
    db.expire_all()
    assert db.get(Order, old_id) is None and db.get(Order, kept_id) is not None
