"""The test provider's reads and writes, one transaction each. Synchronous: the app runs
them with asyncio.to_thread, never on the event loop. Returned rows are detached snapshots."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from models.test_payments import (
    SandboxChargeback,
    SandboxCustomer,
    SandboxMandate,
    SandboxPayment,
    SandboxRefund,
    add_refund,
    charge_back,
    chargebacks_of,
    customer_by_key,
    due_payment_ids,
    forget_settled,
    mandate_by_key,
    mandate_of,
    move,
    new_id,
    payment_by_key,
    refresh,
    refund_by_key,
    refunds_of,
)
from services.database import transaction

T = TypeVar("T")


@dataclass(frozen=True)
class NewPayment:
    amount_cents: int
    currency: str
    description: str
    method: str | None
    locale: str
    redirect_url: str | None
    webhook_url: str | None
    metadata: dict[str, Any] | None
    lifetime: timedelta
    status: str = "open"  # "pending" for a direct debit on a mandate
    sequence_type: str = "oneoff"
    customer_id: str | None = None  # a recurring payment's customer and their mandate
    mandate_id: str | None = None
    collects_at: datetime | None = None
    details: dict[str, Any] | None = None


@dataclass(frozen=True)
class NewCustomer:
    name: str
    email: str
    locale: str | None
    metadata: dict[str, Any] | None


@dataclass(frozen=True)
class NewMandate:
    consumer_name: str
    consumer_account: str
    consumer_bic: str | None
    signature_date: date | None
    mandate_reference: str | None


@dataclass(frozen=True)
class Looked:
    """A payment as it is after time had its say; `changed` when that changed it."""

    payment: SandboxPayment | None
    changed: bool = False


def _once(create: Callable[[], T], made_before: Callable[[], T | None]) -> T:
    """`create`, or what a concurrent request with the same idempotency key made a moment ago
    (the key's unique index refused ours)."""
    try:
        return create()
    except IntegrityError:
        existing = made_before()
        if existing is None:
            raise
        return existing


def _by_key(find: Callable[..., T | None], key: str | None) -> T | None:
    if not key:
        return None
    with transaction() as db:
        return find(db, key)


def create(new: NewPayment, key: str | None, now: datetime) -> SandboxPayment:
    """The payment for `key`: the one made before with it, else a new one."""
    return _once(lambda: _create(new, key, now), lambda: _by_key(payment_by_key, key))


def _create(new: NewPayment, key: str | None, now: datetime) -> SandboxPayment:
    with transaction() as db:
        if key and (existing := payment_by_key(db, key)):
            return existing
        payment = SandboxPayment(
            id=new_id("tr_"),
            idempotency_key=key,
            amount_cents=new.amount_cents,
            currency=new.currency,
            description=new.description,
            method=new.method,
            locale=new.locale,
            redirect_url=new.redirect_url,
            webhook_url=new.webhook_url,
            payment_metadata=new.metadata,
            status=new.status,
            created_at=now,
            expires_at=now + new.lifetime,
            sequence_type=new.sequence_type,
            customer_id=new.customer_id,
            mandate_id=new.mandate_id,
            collects_at=new.collects_at,
            payment_details=new.details,
        )
        db.add(payment)
        return payment


def create_customer(new: NewCustomer, key: str | None, now: datetime) -> SandboxCustomer:
    return _once(lambda: _create_customer(new, key, now), lambda: _by_key(customer_by_key, key))


def _create_customer(new: NewCustomer, key: str | None, now: datetime) -> SandboxCustomer:
    with transaction() as db:
        if key and (existing := customer_by_key(db, key)):
            return existing
        customer = SandboxCustomer(
            id=new_id("cst_"),
            idempotency_key=key,
            name=new.name,
            email=new.email,
            locale=new.locale,
            customer_metadata=new.metadata,
            created_at=now,
        )
        db.add(customer)
        return customer


def customer(customer_id: str) -> SandboxCustomer | None:
    with transaction() as db:
        return db.get(SandboxCustomer, customer_id)


def create_mandate(
    customer_id: str, new: NewMandate, key: str | None, now: datetime
) -> SandboxMandate | None:
    """The customer's new valid mandate (the one made before with `key`, if any); None when
    there is no such customer."""
    return _once(
        lambda: _create_mandate(customer_id, new, key, now),
        lambda: _by_key(mandate_by_key, key),
    )


def _create_mandate(
    customer_id: str, new: NewMandate, key: str | None, now: datetime
) -> SandboxMandate | None:
    with transaction() as db:
        if key and (existing := mandate_by_key(db, key)):
            return existing
        if db.get(SandboxCustomer, customer_id) is None:
            return None
        mandate = SandboxMandate(
            id=new_id("mdt_"),
            customer_id=customer_id,
            idempotency_key=key,
            consumer_name=new.consumer_name,
            consumer_account=new.consumer_account,
            consumer_bic=new.consumer_bic,
            signature_date=new.signature_date,
            mandate_reference=new.mandate_reference,
            created_at=now,
        )
        db.add(mandate)
        return mandate


def mandate(customer_id: str, mandate_id: str | None) -> SandboxMandate | None:
    """The customer's mandate `mandate_id`, or without one their latest valid mandate."""
    with transaction() as db:
        return mandate_of(db, customer_id, mandate_id)


def revoke_mandate(customer_id: str, mandate_id: str) -> bool:
    """The mandate turns invalid; False when the customer has no such mandate."""
    with transaction() as db:
        mandate = mandate_of(db, customer_id, mandate_id)
        if mandate is None:
            return False
        mandate.status = "invalid"
        db.add(mandate)
        return True


def customer_payments(customer_id: str) -> list[SandboxPayment]:
    """The customer's payments, newest first (Mollie's first page: 250)."""
    with transaction() as db:
        query = select(SandboxPayment).where(SandboxPayment.customer_id == customer_id)
        newest = query.order_by(SandboxPayment.created_at.desc()).limit(250)  # type: ignore[union-attr]
        return list(db.exec(newest).all())


def look(payment_id: str, now: datetime) -> Looked:
    with transaction() as db:
        payment = db.get(SandboxPayment, payment_id, with_for_update=True)
        return Looked(payment, payment is not None and refresh(db, payment, now))


def settle(payment_id: str, status: str, now: datetime, reason: str | None = None) -> Looked:
    """Move the payment to `status` ("open" leaves it be; a failed direct debit for the bank's
    `reason`); `changed` if it moved."""
    with transaction() as db:
        payment = db.get(SandboxPayment, payment_id, with_for_update=True)
        if payment is None:
            return Looked(None)
        expired = refresh(db, payment, now)
        moved = status != "open" and move(payment, status, now, reason)
        db.add(payment)
        return Looked(payment, expired or moved)


@dataclass(frozen=True)
class Refunded:
    """A refund asked for: `refund` None when the payment cannot give that much back; `new`
    when this request made it (not a repeat of one with the same idempotency key)."""

    refund: SandboxRefund | None
    new: bool = False


def refund(
    payment_id: str, cents: int, description: str, key: str | None, settles_at: datetime
) -> Refunded:
    """The queued refund (the one made before with `key`, if any)."""
    with transaction() as db:
        if key and (existing := refund_by_key(db, key)):
            return Refunded(existing)
        payment = db.get(SandboxPayment, payment_id, with_for_update=True)
        made = add_refund(db, payment, cents, description, key, settles_at) if payment else None
        return Refunded(made, made is not None)


def refunds(payment_id: str, now: datetime) -> tuple[Looked, list[SandboxRefund]]:
    with transaction() as db:
        payment = db.get(SandboxPayment, payment_id, with_for_update=True)
        if payment is None:
            return Looked(None), []
        changed = refresh(db, payment, now)
        return Looked(payment, changed), refunds_of(db, payment_id)


def chargeback(payment_id: str, cents: int | None, reason: str | None, now: datetime) -> Looked:
    with transaction() as db:
        payment = db.get(SandboxPayment, payment_id, with_for_update=True)
        taken = payment is not None and charge_back(db, payment, cents, reason, now)
        return Looked(payment, taken)


def chargebacks(payment_id: str, now: datetime) -> tuple[Looked, list[SandboxChargeback]]:
    with transaction() as db:
        payment = db.get(SandboxPayment, payment_id, with_for_update=True)
        if payment is None:
            return Looked(None), []
        changed = refresh(db, payment, now)
        return Looked(payment, changed), chargebacks_of(db, payment_id)


def forget_old(now: datetime) -> None:
    with transaction() as db:
        forget_settled(db, now)


def sweep(now: datetime) -> list[SandboxPayment]:
    """Apply expiry and due refunds everywhere; the payments that changed."""
    with transaction() as db:
        ids = due_payment_ids(db, now)
    changed = [look(payment_id, now) for payment_id in ids]
    return [looked.payment for looked in changed if looked.changed and looked.payment]
