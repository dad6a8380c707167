"""What the payment screens read: the offer with the discount that applies now, the member's
orders with what a withdrawal would refund, a code's check. Nothing here writes."""

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from actions.checkout import MAX_CODE_LENGTH, Discount, choose_discount, payment_country
from actions.payment_views import ActiveDiscount, BundleView, CodeAnswer, CreditsOffer, OrderView
from actions.price_list import bundle_view
from actions.refunds import refund_in_progress, refundable_now
from actions.viewer import Viewer
from models.discount_codes import TIME_BONUS_CODE, check_code, welcome_code
from models.member import Member, utcnow
from models.orders import (
    UNSETTLED,
    Order,
    OrderRefund,
    OrderStatus,
    order_by_payment,
    order_number,
    order_of,
    pro_rata_refund,
)
from models.payment_methods import DIRECT_DEBIT
from models.pricing import Bundle, bundle, bundles_for
from models.site_settings import SiteSettings, currency_for
from models.time_bonus import active_time_bonus
from services.database import db_session
from services.site_settings import current_settings
from translations.errors import DISCOUNT_CODE_NOT_FOUND

ORDERS_SHOWN = 50
UNSETTLED_CHECKED = 5  # before a new checkout, the latest open payments are asked about


@dataclass(frozen=True)
class LastOrder:
    tier: str
    method: str
    country: str


def credits_offer(viewer: Viewer, country: str | None, code: str | None) -> CreditsOffer | None:
    """The four bundles in the member's currency, each at the discount that applies to it."""
    with db_session() as db:
        member = db.get(Member, viewer.member_id)
        if member is None:
            return None
        now, settings = utcnow(), current_settings()
        where = payment_country(db, member.id, country)
        currency = currency_for(settings, where)
        views, best = _bundles(db, member, code, where, currency, now)
        last = _last_paid(db, member)
        return CreditsOffer(
            country=where,
            currency=currency,
            bundles=tuple(views),
            discount=_active(best, member, now),
            balance=member.credits,
            last_tier=last.tier if last else "",
            last_method=last.method if last else "",
        )


def _bundles(
    db: Session,
    member: Member,
    code: str | None,
    country: str,
    currency: str,
    now: datetime,
) -> tuple[tuple[BundleView, ...], Discount | None]:
    """Each bundle at the discount that applies to it, and the best discount that applies."""
    settings = current_settings()
    chosen = [
        (
            listed,
            _discount(
                choose_discount(db, member, code, country, listed, None, now, member.language)
            ),
        )
        for listed in bundles_for(settings, currency)
    ]
    views = tuple(
        bundle_view(_priced(settings, listed, d), d.percentage if d else 0) for listed, d in chosen
    )
    best = max((d for _, d in chosen if d), key=lambda d: d.percentage, default=None)
    return views, best


def _discount(chosen: object) -> Discount | None:
    return chosen if isinstance(chosen, Discount) else None


def _priced(settings: SiteSettings, listed: Bundle, discount: Discount | None) -> Bundle:
    if discount is None:
        return listed
    return bundle(settings, listed.tier, listed.currency, discount.percentage) or listed


def _active(best: Discount | None, member: Member, now: datetime) -> ActiveDiscount | None:
    if best is None:
        return None
    deadline = active_time_bonus(member, now) if best.code == TIME_BONUS_CODE else None
    kind = "time_bonus" if best.code == TIME_BONUS_CODE else "code"
    return ActiveDiscount(best.code, best.percentage, kind, _epoch_ms(deadline))


def _epoch_ms(moment: datetime | None) -> int:
    return int(moment.timestamp() * 1000) if moment else 0


def lookup_code(viewer: Viewer, code: str | None, country: str | None, language: str) -> CodeAnswer:
    """A code kept in the tab, checked again: the code's own verdict for this member."""
    with db_session() as db:
        return code_verdict(db, viewer, code, country, language)


def code_verdict(
    db: Session, viewer: Viewer, code: str | None, country: str | None, language: str
) -> CodeAnswer:
    """The code's own verdict for this member, against their largest bundle (an amount in the
    verdict written in `language`); the offer then shows per bundle where it applies."""
    text = (code or "").strip()[:MAX_CODE_LENGTH]
    if not text:
        return CodeAnswer(text, 0, DISCOUNT_CODE_NOT_FOUND)
    where = payment_country(db, viewer.member_id, country)
    settings = current_settings()
    largest = bundles_for(settings, currency_for(settings, where))[-1]
    check = check_code(
        db, text, viewer.member_id, where, largest.currency, largest.list_cents, None,
        utcnow(), language,
    )  # fmt: skip
    if check.code is None:
        return CodeAnswer(text, 0, check.error, check.params)
    return CodeAnswer(check.code.code, check.code.value_percentage)


def welcome_offer(viewer: Viewer) -> CodeAnswer | None:
    """`?welcome=true`: the welcome code for a member who has not paid; None otherwise."""
    with db_session() as db:
        member = db.get(Member, viewer.member_id)
        found = welcome_code(db, utcnow()) if member and not member.paid_user else None
        return CodeAnswer(found.code, found.value_percentage) if found else None


def order_view(viewer: Viewer, order_id: int) -> OrderView | None:
    with db_session() as db:
        order = order_of(db, viewer.member_id, order_id)
        member = db.get(Member, viewer.member_id)
        if order is None or member is None:
            return None
        return _order_view(db, order, member)


def orders_of(viewer: Viewer) -> tuple[OrderView, ...]:
    """The member's purchases, newest first (orders never sent to checkout left out)."""
    with db_session() as db:
        member = db.get(Member, viewer.member_id)
        if member is None:
            return ()
        query = (
            select(Order)
            .where(Order.member_id == member.id, Order.status != OrderStatus.OPEN)
            .order_by(col(Order.created_at).desc())
            .limit(ORDERS_SHOWN)
        )
        return tuple(_order_view(db, o, member) for o in db.exec(query))


def _order_view(db: Session, order: Order, member: Member) -> OrderView:
    refund = _latest_refund(db, order.id)
    credits = refundable_now(db, order, member.credits)
    if refund is not None and not credits:
        amount, refund_credits, status = refund.amount_cents, refund.credits_taken, refund.status
    else:
        amount, refund_credits, status = pro_rata_refund(order, credits), credits, ""
    return OrderView(
        id=order.id,
        number=order_number(order.id),
        status=order.status,
        tier=order.tier,
        credits=order.credits,
        amount_cents=order.amount_cents,
        currency=order.currency,
        method=order.method,
        created_at=order.created_at.isoformat(),
        balance=member.credits,
        refundable=credits > 0,
        refund_cents=amount if refund_credits else 0,
        refund_credits=refund_credits,
        refund_status=status,
    )


def _latest_refund(db: Session, order_id: int) -> OrderRefund | None:
    query = (
        select(OrderRefund)
        .where(OrderRefund.order_id == order_id)
        .order_by(col(OrderRefund.id).desc())
    )
    return db.exec(query).first()


def last_order(viewer: Viewer) -> LastOrder | None:
    with db_session() as db:
        member = db.get(Member, viewer.member_id)
        return _last_paid(db, member) if member else None


def _last_paid(db: Session, member: Member) -> LastOrder | None:
    """The member's last paid order with a method still open to them (not direct debit once
    they are blocked for it)."""
    query = (
        select(Order.tier, Order.method, Order.country)
        .where(Order.member_id == member.id, Order.paid_at.is_not(None))  # type: ignore[union-attr]
        .order_by(col(Order.paid_at).desc())
        .limit(1)
    )
    if member.sdd_blocked_at is not None:
        query = query.where(Order.method != DIRECT_DEBIT)
    row = db.exec(query).first()
    return LastOrder(*row) if row else None


def unsettled_payments(viewer: Viewer) -> tuple[str, ...]:
    """The provider ids of the member's latest orders whose outcome is still open."""
    with db_session() as db:
        query = (
            select(Order.provider_payment_id)
            .where(
                Order.member_id == viewer.member_id,
                Order.status.in_(UNSETTLED),  # type: ignore[attr-defined]
                Order.provider_payment_id.is_not(None),  # type: ignore[union-attr]
            )
            .order_by(col(Order.id).desc())
            .limit(UNSETTLED_CHECKED)
        )
        return tuple(db.exec(query))


def unsettled_payment_id(viewer: Viewer, order_id: int) -> str | None:
    """The provider's id of the member's order while its outcome is still open."""
    with db_session() as db:
        order = order_of(db, viewer.member_id, order_id)
        if order is None or order.status not in UNSETTLED:
            return None
        return order.provider_payment_id


@dataclass(frozen=True)
class OurPayment:
    refund_open: bool  # one of its refunds has not reached a final status


def our_payment(payment_id: str) -> OurPayment | None:
    """What we know of a provider payment; None when no order of ours has it."""
    with db_session() as db:
        order = order_by_payment(db, payment_id)
        return None if order is None else OurPayment(refund_in_progress(db, order.id))
