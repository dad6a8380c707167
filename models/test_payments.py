"""The built-in test provider's own books: payments, refunds, chargebacks, and the customers
and direct debit mandates a Mollie test account keeps (services/payments/test_provider serves
them over Mollie's v2 API).

Amounts in cents. A payment moves open -> pending -> paid/failed/canceled/expired, never back;
an open payment past `expires_at` turns expired when next looked at. A refund is queued and
turns refunded once `settles_at` has passed. A direct debit on a mandate starts pending and is
collected (paid) once `collects_at` has passed, unless it was settled before.
"""

import secrets
import string
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import JSON, Column
from sqlmodel import Field, Session, SQLModel, delete, select

from models.member import utcnow
from models.payment_methods import DIRECT_DEBIT

_ID_ALPHABET = string.ascii_letters + string.digits
UNSPECIFIED_REASON = "MS03"  # the banks' "reason not specified"
KEPT_FOR = timedelta(days=400)  # past the 13 months in which a payer may claim a debit back
SETTLED = frozenset({"paid", "failed", "canceled", "expired"})
_MAY_BECOME = {
    "open": frozenset({"pending", *SETTLED}),
    "pending": SETTLED,
}


def new_id(prefix: str) -> str:
    """A Mollie-style id: `tr_`, `re_`, `cst_`, `mdt_` or `chb_` and ten random letters and
    digits."""
    return prefix + "".join(secrets.choice(_ID_ALPHABET) for _ in range(10))


class SandboxPayment(SQLModel, table=True):
    __tablename__ = "testpay_payment"

    id: str = Field(primary_key=True, max_length=20)
    idempotency_key: str | None = Field(default=None, max_length=64, unique=True)
    amount_cents: int
    currency: str = Field(max_length=3)
    description: str = Field(max_length=255)
    method: str | None = Field(default=None, max_length=20)
    locale: str = Field(default="en_US", max_length=10)
    redirect_url: str | None = Field(default=None, max_length=500)  # none on a mandate
    webhook_url: str | None = Field(default=None, max_length=500)
    payment_metadata: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    status: str = Field(default="open", max_length=12)
    refunded_cents: int = 0
    charged_back_cents: int = 0
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime
    settled_at: datetime | None = None  # when it became paid, failed, canceled or expired
    sequence_type: str = Field(default="oneoff", max_length=10)
    customer_id: str | None = Field(default=None, max_length=20)
    mandate_id: str | None = Field(default=None, max_length=20)
    collects_at: datetime | None = None  # a direct debit on a mandate is collected then
    # the mandate's consumer and reference as the payment took them (Mollie's `details`)
    payment_details: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    bank_reason_code: str | None = Field(default=None, max_length=4)  # a failed direct debit


class SandboxCustomer(SQLModel, table=True):
    __tablename__ = "testpay_customer"

    id: str = Field(primary_key=True, max_length=20)
    idempotency_key: str | None = Field(default=None, max_length=64, unique=True)
    name: str = Field(default="", max_length=255)
    email: str = Field(default="", max_length=320)
    locale: str | None = Field(default=None, max_length=10)
    customer_metadata: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    created_at: datetime = Field(default_factory=utcnow)


class SandboxMandate(SQLModel, table=True):
    """A SEPA direct debit mandate, valid from creation (as Mollie's are)."""

    __tablename__ = "testpay_mandate"

    id: str = Field(primary_key=True, max_length=20)
    customer_id: str = Field(foreign_key="testpay_customer.id", index=True, max_length=20)
    idempotency_key: str | None = Field(default=None, max_length=64, unique=True)
    method: str = Field(default="directdebit", max_length=20)
    status: str = Field(default="valid", max_length=10)
    consumer_name: str = Field(max_length=255)
    consumer_account: str = Field(max_length=34)  # the IBAN
    consumer_bic: str | None = Field(default=None, max_length=11)
    signature_date: date | None = None
    mandate_reference: str | None = Field(default=None, max_length=35)
    created_at: datetime = Field(default_factory=utcnow)


class SandboxChargeback(SQLModel, table=True):
    __tablename__ = "testpay_chargeback"

    id: str = Field(primary_key=True, max_length=20)
    payment_id: str = Field(foreign_key="testpay_payment.id", index=True, max_length=20)
    amount_cents: int
    currency: str = Field(max_length=3)
    reason_code: str | None = Field(default=None, max_length=4)
    created_at: datetime = Field(default_factory=utcnow)


class SandboxRefund(SQLModel, table=True):
    __tablename__ = "testpay_refund"

    id: str = Field(primary_key=True, max_length=20)
    payment_id: str = Field(foreign_key="testpay_payment.id", index=True, max_length=20)
    idempotency_key: str | None = Field(default=None, max_length=64, unique=True)
    amount_cents: int
    currency: str = Field(max_length=3)
    description: str = Field(default="", max_length=255)
    status: str = Field(default="queued", max_length=12)
    created_at: datetime = Field(default_factory=utcnow)
    settles_at: datetime


def payment_by_key(db: Session, idempotency_key: str) -> SandboxPayment | None:
    query = select(SandboxPayment).where(SandboxPayment.idempotency_key == idempotency_key)
    return db.exec(query).first()


def refund_by_key(db: Session, idempotency_key: str) -> SandboxRefund | None:
    query = select(SandboxRefund).where(SandboxRefund.idempotency_key == idempotency_key)
    return db.exec(query).first()


def customer_by_key(db: Session, idempotency_key: str) -> SandboxCustomer | None:
    query = select(SandboxCustomer).where(SandboxCustomer.idempotency_key == idempotency_key)
    return db.exec(query).first()


def mandate_by_key(db: Session, idempotency_key: str) -> SandboxMandate | None:
    query = select(SandboxMandate).where(SandboxMandate.idempotency_key == idempotency_key)
    return db.exec(query).first()


def mandate_of(db: Session, customer_id: str, mandate_id: str | None) -> SandboxMandate | None:
    """The customer's mandate `mandate_id`, or without one their latest valid mandate."""
    query = select(SandboxMandate).where(SandboxMandate.customer_id == customer_id)
    if mandate_id is not None:
        return db.exec(query.where(SandboxMandate.id == mandate_id)).first()
    valid = query.where(SandboxMandate.status == "valid")
    return db.exec(valid.order_by(SandboxMandate.created_at.desc())).first()


def chargebacks_of(db: Session, payment_id: str) -> list[SandboxChargeback]:
    query = select(SandboxChargeback).where(SandboxChargeback.payment_id == payment_id)
    return list(db.exec(query.order_by(SandboxChargeback.created_at, SandboxChargeback.id)))


def refunds_of(db: Session, payment_id: str) -> list[SandboxRefund]:
    query = select(SandboxRefund).where(SandboxRefund.payment_id == payment_id)
    return list(db.exec(query.order_by(SandboxRefund.created_at, SandboxRefund.id)).all())


def move(
    payment: SandboxPayment, status: str, now: datetime, bank_reason_code: str | None = None
) -> bool:
    """Move the payment forward to `status`; False (and no change) if it may not go there.
    A failed direct debit keeps the bank's reason code (unspecified when none is given)."""
    if status not in _MAY_BECOME.get(payment.status, frozenset()):
        return False
    payment.status = status
    if status in SETTLED:
        payment.settled_at = now
    if status == "failed" and payment.method == DIRECT_DEBIT:
        payment.bank_reason_code = bank_reason_code or UNSPECIFIED_REASON
    return True


def collect_if_due(payment: SandboxPayment, now: datetime) -> bool:
    """A pending direct debit whose collection day has come is paid."""
    due = payment.collects_at is not None and payment.collects_at <= now
    return payment.status == "pending" and due and move(payment, "paid", now)


def expire_if_due(payment: SandboxPayment, now: datetime) -> bool:
    return payment.status == "open" and payment.expires_at <= now and move(payment, "expired", now)


def settle_due_refunds(db: Session, payment_id: str, now: datetime) -> bool:
    """Queued refunds whose time has come are refunded; True if any was."""
    due = [r for r in refunds_of(db, payment_id) if r.status == "queued" and r.settles_at <= now]
    for refund in due:
        refund.status = "refunded"
        db.add(refund)
    return bool(due)


def refresh(db: Session, payment: SandboxPayment, now: datetime) -> bool:
    """Apply what time has done to the payment (expiry, refunds); True if anything changed."""
    moved = expire_if_due(payment, now) or collect_if_due(payment, now)
    settled = settle_due_refunds(db, payment.id, now)
    if moved:
        db.add(payment)
    db.flush()
    return moved or settled


def remaining_cents(payment: SandboxPayment) -> int:
    """What can still be refunded or charged back."""
    if payment.status != "paid":
        return 0
    return max(0, payment.amount_cents - payment.refunded_cents - payment.charged_back_cents)


def add_refund(
    db: Session,
    payment: SandboxPayment,
    cents: int,
    description: str,
    idempotency_key: str | None,
    settles_at: datetime,
) -> SandboxRefund | None:
    """A queued refund of `cents`, or None when the payment cannot give that much back."""
    if cents <= 0 or cents > remaining_cents(payment):
        return None
    refund = SandboxRefund(
        id=new_id("re_"),
        payment_id=payment.id,
        idempotency_key=idempotency_key,
        amount_cents=cents,
        currency=payment.currency,
        description=description,
        settles_at=settles_at,
    )
    payment.refunded_cents += cents
    db.add_all((payment, refund))
    db.flush()
    return refund


def charge_back(
    db: Session,
    payment: SandboxPayment,
    cents: int | None = None,
    reason_code: str | None = None,
    now: datetime | None = None,
) -> bool:
    """The customer's bank claws back `cents` (default: all that is left) for `reason_code`;
    False if nothing is left."""
    amount = remaining_cents(payment) if cents is None else cents
    if amount <= 0 or amount > remaining_cents(payment):
        return False
    payment.charged_back_cents += amount
    chargeback = SandboxChargeback(
        id=new_id("chb_"),
        payment_id=payment.id,
        amount_cents=amount,
        currency=payment.currency,
        reason_code=reason_code,
        created_at=now or utcnow(),
    )
    db.add_all((payment, chargeback))
    db.flush()
    return True


def due_payment_ids(db: Session, now: datetime) -> list[str]:
    """Payments that time has changed: open ones past their expiry, direct debits due for
    collection, ones with a refund due."""
    expiring = select(SandboxPayment.id).where(
        SandboxPayment.status == "open", SandboxPayment.expires_at <= now
    )
    collecting = select(SandboxPayment.id).where(
        SandboxPayment.status == "pending", SandboxPayment.collects_at <= now
    )
    refunding = select(SandboxRefund.payment_id).where(
        SandboxRefund.status == "queued", SandboxRefund.settles_at <= now
    )
    due = (db.exec(query).all() for query in (expiring, collecting, refunding))
    return sorted({payment_id for ids in due for payment_id in ids})


def forget_settled(db: Session, now: datetime) -> None:
    """Payments settled more than KEPT_FOR ago go, with their refunds and chargebacks."""
    cutoff = now - KEPT_FOR
    old = select(SandboxPayment.id).where(SandboxPayment.settled_at < cutoff)  # type: ignore[operator]
    for table in (SandboxRefund, SandboxChargeback):
        db.exec(delete(table).where(table.payment_id.in_(old)))  # type: ignore[attr-defined]
    db.exec(delete(SandboxPayment).where(SandboxPayment.settled_at < cutoff))  # type: ignore[operator]
