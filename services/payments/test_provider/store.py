"""The test provider's reads and writes, one transaction each. Synchronous: the app runs
them with asyncio.to_thread, never on the event loop. Returned rows are detached snapshots."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError

from models.test_payments import (
    SandboxPayment,
    SandboxRefund,
    add_refund,
    charge_back,
    due_payment_ids,
    move,
    new_id,
    payment_by_key,
    refresh,
    refund_by_key,
    refunds_of,
)
from services.database import transaction


@dataclass(frozen=True)
class NewPayment:
    amount_cents: int
    currency: str
    description: str
    method: str | None
    locale: str
    redirect_url: str
    webhook_url: str | None
    metadata: dict[str, Any] | None
    lifetime: timedelta


@dataclass(frozen=True)
class Looked:
    """A payment as it is after time had its say; `changed` when that changed it."""

    payment: SandboxPayment | None
    changed: bool = False


def create(new: NewPayment, key: str | None, now: datetime) -> SandboxPayment:
    """The payment for `key`: the one made before with it, else a new one."""
    try:
        return _create(new, key, now)
    except IntegrityError:  # the same key, created a moment ago by a concurrent request
        with transaction() as db:
            existing = payment_by_key(db, key) if key else None
        if existing is None:
            raise
        return existing


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
            created_at=now,
            expires_at=now + new.lifetime,
        )
        db.add(payment)
        return payment


def look(payment_id: str, now: datetime) -> Looked:
    with transaction() as db:
        payment = db.get(SandboxPayment, payment_id, with_for_update=True)
        return Looked(payment, payment is not None and refresh(db, payment, now))


def settle(payment_id: str, status: str, now: datetime) -> Looked:
    """Move the payment to `status` ("open" leaves it be); `changed` if it moved."""
    with transaction() as db:
        payment = db.get(SandboxPayment, payment_id, with_for_update=True)
        if payment is None:
            return Looked(None)
        expired = refresh(db, payment, now)
        moved = status != "open" and move(payment, status, now)
        db.add(payment)
        return Looked(payment, expired or moved)


def refund(
    payment_id: str, cents: int, description: str, key: str | None, settles_at: datetime
) -> SandboxRefund | None:
    """The queued refund (the one made before with `key`, if any); None if too much."""
    with transaction() as db:
        if key and (existing := refund_by_key(db, key)):
            return existing
        payment = db.get(SandboxPayment, payment_id, with_for_update=True)
        return add_refund(db, payment, cents, description, key, settles_at) if payment else None


def refunds(payment_id: str, now: datetime) -> tuple[Looked, list[SandboxRefund]]:
    with transaction() as db:
        payment = db.get(SandboxPayment, payment_id, with_for_update=True)
        if payment is None:
            return Looked(None), []
        changed = refresh(db, payment, now)
        return Looked(payment, changed), refunds_of(db, payment_id)


def chargeback(payment_id: str, cents: int | None) -> Looked:
    with transaction() as db:
        payment = db.get(SandboxPayment, payment_id, with_for_update=True)
        return Looked(payment, payment is not None and charge_back(db, payment, cents))


def sweep(now: datetime) -> list[SandboxPayment]:
    """Apply expiry and due refunds everywhere; the payments that changed."""
    with transaction() as db:
        ids = due_payment_ids(db, now)
    changed = [look(payment_id, now) for payment_id in ids]
    return [looked.payment for looked in changed if looked.changed and looked.payment]
