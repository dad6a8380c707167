"""Checkout: what a bundle costs this member now, and the order that freezes that price.

The server alone judges the discount: the welcome time bonus while it runs, otherwise a code the
member entered (the better of the two when both apply), checked again when the order is placed.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func
from sqlmodel import Session, select

from actions.runner import Done
from actions.viewer import Viewer
from models.discount_codes import TIME_BONUS_CODE, check_code, find_code, redeem, time_bonus_code
from models.member import Member, Profile, utcnow
from models.orders import Order, OrderStatus
from models.payment_methods import METHOD_LABELS
from models.pricing import Bundle, bundle
from models.site_settings import currency_for
from models.time_bonus import active_time_bonus
from services.database import db_session, transaction
from services.payments.provider import provider_name
from services.payments.types import Money
from services.site_settings import current_settings
from translations.errors import DISCOUNT_CODE_IN_USE, GENERIC_ERROR, TOO_MANY_CHECKOUTS

MAX_CODE_LENGTH = 40
MAX_OPEN_ORDERS = 10  # started in the last hour and still open


@dataclass(frozen=True)
class Discount:
    code_id: int | None
    code: str
    percentage: int


@dataclass(frozen=True)
class Refusal:
    error: str  # a msgid of translations/errors.py
    params: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Quote:
    """A bundle's price for this member, country and code now; `error` a msgid when refused."""

    bundle: Bundle | None
    country: str
    discount: Discount | None
    error: str = ""
    error_params: tuple[tuple[str, str], ...] = ()

    @property
    def amount(self) -> Money:
        assert self.bundle is not None
        return Money(self.bundle.cents, self.bundle.currency)


@dataclass(frozen=True)
class PlacedOrder:
    order_id: int
    amount: Money
    country: str
    idempotency_key: str
    error: str = ""
    error_params: tuple[tuple[str, str], ...] = ()


def payment_country(db: Session, member_id: int, requested: str | None) -> str:
    """The country the member pays from: the one they chose if we serve it, else their profile's."""
    countries = current_settings().countries
    if requested and requested.upper() in countries:
        return requested.upper()
    home = _home_country(db, member_id)
    return home if home in countries else countries[0]


def quote(viewer: Viewer, tier: str, country: str | None, code: str | None) -> Quote:
    with db_session() as db:
        return quote_in(db, viewer, tier, country, code, None, utcnow())


def quote_in(
    db: Session,
    viewer: Viewer,
    tier: str,
    requested_country: str | None,
    code: str | None,
    method: str | None,
    now: datetime,
) -> Quote:
    settings = current_settings()
    country = payment_country(db, viewer.member_id, requested_country)
    currency = currency_for(settings, country)
    listed = bundle(settings, tier, currency)
    member = db.get(Member, viewer.member_id)
    if listed is None or member is None:
        return Quote(None, country, None, GENERIC_ERROR)
    chosen = choose_discount(db, member, code, country, listed, method, now, viewer.language)
    if isinstance(chosen, Refusal):
        return Quote(None, country, None, chosen.error, chosen.params)
    percentage = chosen.percentage if chosen else 0
    return Quote(bundle(settings, tier, currency, percentage), country, chosen)


def choose_discount(
    db: Session,
    member: Member,
    code: str | None,
    country: str,
    listed: Bundle,
    method: str | None,
    now: datetime,
    language: str,
) -> Discount | Refusal | None:
    """The discount that applies, None without one, or why the entered code does not (its
    amounts written in `language`, the page's)."""
    bonus = _time_bonus(db, member, now)
    text = (code or "").strip()[:MAX_CODE_LENGTH]
    if not text or text.upper() == TIME_BONUS_CODE:
        return bonus
    check = check_code(
        db,
        text,
        member.id,
        _home_country(db, member.id) or country,  # a country's code: for who lives there
        listed.currency,
        listed.list_cents,
        method,
        now,
        language,
    )
    if check.error:
        return bonus if bonus else Refusal(check.error, check.params)
    assert check.code is not None
    entered = Discount(check.code.id, check.code.code, check.code.value_percentage)
    return bonus if bonus and bonus.percentage >= entered.percentage else entered


def _home_country(db: Session, member_id: int) -> str | None:
    profile = db.get(Profile, member_id)
    return profile.country if profile else None


def _time_bonus(db: Session, member: Member, now: datetime) -> Discount | None:
    if active_time_bonus(member, now) is None:
        return None
    code = find_code(db, TIME_BONUS_CODE) or time_bonus_code(db)  # seeded: no insert
    return Discount(code.id, code.code, code.value_percentage)


def place_order(
    viewer: Viewer, tier: str, method: str, country: str | None, code: str | None
) -> Done[PlacedOrder]:
    """The order at the price of this moment, frozen; the provider's payment comes next. A
    once-per-member discount is held by this order from now on (released if it fails)."""
    try:
        with transaction() as db:
            return Done(place_in(db, viewer, tier, method, country, code))
    except HeldElsewhere:
        return Done(refused(DISCOUNT_CODE_IN_USE))


class HeldElsewhere(Exception):
    """Another open order of the member holds the discount: this one must not be stored, so
    the transaction that placed it is rolled back."""


def place_in(
    db: Session, viewer: Viewer, tier: str, method: str, country: str | None, code: str | None
) -> PlacedOrder:
    """The order, placed in the caller's transaction (raises HeldElsewhere, see above)."""
    if method not in METHOD_LABELS:
        return refused(GENERIC_ERROR)
    if _open_orders_lately(db, viewer.member_id) >= MAX_OPEN_ORDERS:
        return refused(TOO_MANY_CHECKOUTS)
    offer = quote_in(db, viewer, tier, country, code, method, utcnow())
    if offer.bundle is None:
        return refused(offer.error, offer.error_params)
    order = _new_order(viewer, offer, method)
    db.add(order)
    db.flush()
    discount = offer.discount
    if (
        discount
        and discount.code_id
        and not redeem(db, discount.code_id, viewer.member_id, order.id)
    ):
        raise HeldElsewhere
    return PlacedOrder(order.id, offer.amount, offer.country, order.idempotency_key)


def _open_orders_lately(db: Session, member_id: int) -> int:
    """Orders the member started in the last hour that are still open: a bound on how many
    payments a member (or a script with their session) can have the provider create."""
    query = select(func.count()).where(
        Order.member_id == member_id,
        Order.status == OrderStatus.OPEN,
        Order.created_at > utcnow() - timedelta(hours=1),
    )
    return db.exec(query).one()


def _new_order(viewer: Viewer, offer: Quote, method: str) -> Order:
    assert offer.bundle is not None
    discount = offer.discount
    return Order(
        member_id=viewer.member_id,
        tier=offer.bundle.tier,
        credits=offer.bundle.credits,
        list_cents=offer.bundle.list_cents,
        amount_cents=offer.bundle.cents,
        currency=offer.bundle.currency,
        country=offer.country,
        discount_code_id=discount.code_id if discount else None,
        discount_code=discount.code if discount else None,
        discount_percentage=discount.percentage if discount else 0,
        method=method,
        locale=viewer.language,
        provider=provider_name(),
    )


def refused(error: str, params: tuple[tuple[str, str], ...] = ()) -> PlacedOrder:
    return PlacedOrder(0, Money(0, ""), "", "", error, params)
