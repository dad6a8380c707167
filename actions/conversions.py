"""Conversions to report to the network a member came from (docs/acquisition.md, "Conversions"):
noted in the transaction of the action that converted (the signup, the confirmed address, the
first paid order, its refund or chargeback), so that a postback exists only if that action
committed; services/postbacks.py sends them. Once per click and event: a replayed
webhook or a second click on the link notes nothing more. Noting runs in a savepoint: a
failure there is logged and undone alone, never failing nor rolling back the action."""

import logging
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import and_, or_
from sqlmodel import Session, col, select

from models.orders import Order, OrderStatus
from models.postback import TID_LENGTH, ConversionEvent, Postback
from models.setting_postbacks import resolve
from models.traffic import TrafficClick, click_of_member
from models.upsert import insert_into
from services.site_settings import current_settings

log = logging.getLogger(__name__)


@contextmanager
def _apart(db: Session, what: str) -> Iterator[None]:
    """Run the block in a savepoint of the caller's transaction: a failure in it is logged and
    rolled back to the savepoint, and the caller's transaction goes on."""
    db.flush()  # the caller's own pending changes: their failure is the caller's
    try:
        with db.begin_nested():
            yield
    except Exception:
        log.exception("noting the conversion %s failed", what)


def note_conversion(
    db: Session,
    member_id: int,
    event: ConversionEvent,
    amount_cents: int | None = None,
    currency: str | None = None,
) -> bool:
    """Note `event` of the member for their click's network: nothing without a click, for a bot's
    click, without a template for its network, or when it was noted before; nothing either when
    noting fails (logged). True when noted."""
    noted = False
    with _apart(db, f"{event} of member {member_id}"):
        noted = _note(db, member_id, event, amount_cents, currency)
    return noted


def _note(
    db: Session,
    member_id: int,
    event: ConversionEvent,
    amount_cents: int | None,
    currency: str | None,
) -> bool:
    click = click_of_member(db, member_id)
    if click is None or click.is_bot:
        return False
    template = current_settings().postback_urls.get(click.network)
    if not template:
        return False
    tid = secrets.token_hex(TID_LENGTH // 2)
    values = {
        "clickid": click.click_id,
        "sub1": click.sub1,
        "sub2": click.sub2,
        "sub3": click.sub3,
        "ref": click.ref,
        "event": event.value,
        "amount": "" if amount_cents is None else f"{amount_cents / 100:.2f}",
        "currency": currency or "",
        "tid": tid,
    }
    row = {
        "click_id": click.id,
        "network": click.network,
        "event": event.value,
        "tid": tid,
        "amount_cents": amount_cents,
        "currency": currency or "",
        "url": resolve(template, values),
    }
    statement = (
        insert_into(db, Postback)
        .values(**Postback(**row).model_dump(exclude={"id"}))
        .on_conflict_do_nothing(index_elements=["click_id", "event"])
        .returning(col(Postback.id))
    )
    noted = db.exec(statement).first() is not None
    if noted:
        log.info("conversion %s of member %s noted for network %s", event, member_id, click.network)
    return noted


def _first_paid(db: Session, order: Order) -> bool:
    """Whether `order` is the member's first paid order (none of theirs paid before it)."""
    if order.paid_at is None:
        return False
    before = or_(
        col(Order.paid_at) < order.paid_at,
        and_(col(Order.paid_at) == order.paid_at, col(Order.id) < order.id),
    )
    earlier = select(Order.id).where(
        Order.member_id == order.member_id, col(Order.paid_at).is_not(None), before
    )
    return db.exec(earlier.limit(1)).first() is None


REVERSED = frozenset({OrderStatus.REFUNDED, OrderStatus.CHARGED_BACK})


def note_order(db: Session, order: Order) -> None:
    """The order just took its status: paid, a sale when it is the member's first paid order;
    refunded or charged back, a reversal when it is that sale and the network was told of it.
    A failure is logged, never the payment's."""
    with _apart(db, f"of order {order.id}"):
        if order.status == OrderStatus.PAID:
            event = ConversionEvent.SALE
        elif order.status in REVERSED and _sale_noted(db, order.member_id):
            event = ConversionEvent.REVERSAL
        else:
            return
        if _first_paid(db, order):
            _note(db, order.member_id, event, order.amount_cents, order.currency)


def _sale_noted(db: Session, member_id: int) -> bool:
    """A network is told of a reversal only of a sale it was told of."""
    query = (
        select(Postback.id)
        .join(TrafficClick, col(TrafficClick.id) == Postback.click_id)
        .where(TrafficClick.member_id == member_id, Postback.event == ConversionEvent.SALE)
    )
    return db.exec(query.limit(1)).first() is not None
