"""What the payment screens' state tests share: a member's tab, the built-in test provider in
place of the configured one, and orders in any state."""

from datetime import timedelta

import pytest
import reflex as rx
from sqlmodel import Session

import actions.payment_flow
from models.auth_session import start_session
from models.discount_codes import DiscountCode
from models.member import Member, utcnow
from models.orders import Order
from services.payments.mollie import MollieClient
from state.i18n import I18nState
from state.session import SessionState
from tests.factories import committed, make_member
from tests.payments_fixtures import (  # noqa: F401 - fixtures
    provider_client,
    testpay,
    testpay_clock,
    testpay_http,
    testpay_webhooks,
)
from tests.state.conftest import substate


@pytest.fixture
def paying(monkeypatch: pytest.MonkeyPatch, provider_client: MollieClient) -> MollieClient:  # noqa: F811
    """The payment actions talk to the built-in test provider in process."""
    monkeypatch.setattr(actions.payment_flow, "payment_client", lambda: provider_client)
    return provider_client


def old_member(db: Session, email: str = "anna@example.com", **fields) -> Member:
    """A member who signed up a day ago: the welcome time bonus is long over."""
    return make_member(db, email, signup_date=utcnow() - timedelta(days=1), **fields)


async def tab(make_root, db: Session, who: Member | None, url: str, locale: str = "en") -> rx.State:
    """A tab on `url` (logged out for None), its frame loaded as on_page_load loads it."""
    cookie = f"auth.session={committed(db, start_session, who.id)}" if who else ""
    root = make_root(url=url, cookie=cookie)
    await substate(root, SessionState)._load()
    substate(root, I18nState).locale = locale
    return root


def add_order(db: Session, member: Member, status: str = "paid", **fields) -> Order:
    """An order of 100 credits for 19.95 EUR by iDEAL, paid now unless told otherwise."""
    values = {
        "tier": "p1",
        "credits": 100,
        "list_cents": 1995,
        "amount_cents": 1995,
        "currency": "EUR",
        "country": "NL",
        "method": "ideal",
        "provider": "testpay",
        "status": status,
        "paid_at": utcnow() if status == "paid" else None,
        **fields,
    }
    order = Order(member_id=member.id, **values)
    db.add(order)
    db.commit()
    return order


def code_from_500_euro(db: Session) -> None:
    """BIG10: 10 % off an order of at least 500 euro, which no bundle reaches."""
    db.add(
        DiscountCode(
            code="BIG10",
            value_percentage=10,
            minimum_order_value=50000,
            expires_at=utcnow().replace(year=2099),
        )
    )
    db.commit()
