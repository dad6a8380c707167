"""Checkout: what a bundle costs this member now, and the order that freezes that price.

The server alone judges the discount: the welcome time bonus while it runs, otherwise a code the
member entered (the better of the two when both apply), checked again when the order is placed.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from actions.runner import Done
from actions.viewer import Viewer
from models.discount_codes import TIME_BONUS_CODE, check_code, time_bonus_code
from models.member import Member, Profile, utcnow
from models.orders import Order
from models.payment_methods import METHOD_LABELS
from models.pricing import Bundle, bundle
from models.site_settings import currency_for
from models.time_bonus import active_time_bonus
from services.database import db_session, transaction
from services.payments.provider import provider_name
from services.payments.types import Money
from services.site_settings import current_settings
from translations.errors import GENERIC_ERROR

MAX_CODE_LENGTH = 40


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
    method: str
    locale: str
    idempotency_key: str
    error: str = ""
    error_params: tuple[tuple[str, str], ...] = ()


def payment_country(db: Session, member_id: int, requested: str | None) -> str:
    """The country the member pays from: the one they chose if we serve it, else their profile's."""
    countries = current_settings().countries
    if requested and requested.upper() in countries:
        return requested.upper()
    profile = db.get(Profile, member_id)
    return profile.country if profile and profile.country in countries else countries[0]


def quote(viewer: Viewer, tier: str, country: str | None, code: str | None) -> Quote:
    with db_session() as db:
        return _quote(db, viewer.member_id, tier, country, code, None, utcnow())


def _quote(
    db: Session,
    member_id: int,
    tier: str,
    requested_country: str | None,
    code: str | None,
    method: str | None,
    now: datetime,
) -> Quote:
    settings = current_settings()
    country = payment_country(db, member_id, requested_country)
    currency = currency_for(settings, country)
    listed = bundle(settings, tier, currency)
    member = db.get(Member, member_id)
    if listed is None or member is None:
        return Quote(None, country, None, GENERIC_ERROR)
    chosen = choose_discount(db, member, code, country, listed, method, now)
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
) -> Discount | Refusal | None:
    """The discount that applies, None without one, or why the entered code does not."""
    bonus = _time_bonus(db, member, now)
    text = (code or "").strip()[:MAX_CODE_LENGTH]
    if not text or text.upper() == TIME_BONUS_CODE:
        return bonus
    check = check_code(
        db,
        text,
        member.id,
        country,
        listed.currency,
        listed.list_cents,
        method,
        now,
        member.language,
    )
    if check.error:
        return bonus if bonus else Refusal(check.error, check.params)
    assert check.code is not None
    entered = Discount(check.code.id, check.code.code, check.code.value_percentage)
    return bonus if bonus and bonus.percentage >= entered.percentage else entered


def _time_bonus(db: Session, member: Member, now: datetime) -> Discount | None:
    if active_time_bonus(member, now) is None:
        return None
    code = time_bonus_code(db)
    return Discount(code.id, code.code, code.value_percentage)


def place_order(
    viewer: Viewer, tier: str, method: str, country: str | None, code: str | None
) -> Done[PlacedOrder]:
    """The order at the price of this moment, frozen; the provider's payment comes next."""
    with transaction() as db:
        if method not in METHOD_LABELS:
            return Done(_refused(GENERIC_ERROR))
        offer = _quote(db, viewer.member_id, tier, country, code, method, utcnow())
        if offer.bundle is None:
            return Done(_refused(offer.error, offer.error_params))
        order = _new_order(viewer, offer, method)
        db.add(order)
        db.flush()
        return Done(
            PlacedOrder(
                order.id,
                offer.amount,
                offer.country,
                method,
                viewer.language,
                order.idempotency_key,
            )
        )


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


def _refused(error: str, params: tuple[tuple[str, str], ...] = ()) -> PlacedOrder:
    return PlacedOrder(0, Money(0, ""), "", "", "", "", error, params)
