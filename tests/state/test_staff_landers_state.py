"""/staff/landers: per lander and variant, the visits with tracking parameters (robots and
older clicks left out), the signups, the confirmed signups and the first purchases they led to,
each a share of the visits; the period only from its vocabulary; support and admins only (the
authorization matrix proves every role and handler)."""

from datetime import timedelta

import pytest
from sqlmodel import Session

from models.member import Member, utcnow
from models.orders import Order
from models.staff import Role
from models.staff_tools import tools_for
from models.traffic import TrafficClick
from state.staff_landers import StaffLandersState
from tests.factories import make_member
from tests.state.conftest import run, substate
from tests.unit.test_staff_console_routes import staff_session

PAGE = "/staff/landers"


def _click(db: Session, lander: str, variant: str, member: Member | None = None, **fields) -> None:
    member_id = member.id if member else None
    db.add(
        TrafficClick(network="n1", lander=lander, variant=variant, member_id=member_id, **fields)
    )
    db.commit()


def _paid(db: Session, member: Member, paid: bool = True) -> None:
    db.add(
        Order(
            member_id=member.id,
            tier="p1",
            credits=100,
            list_cents=1000,
            amount_cents=1000,
            currency="EUR",
            country="NL",
            method="ideal",
            provider="test",
            status="refunded" if paid else "failed",
            paid_at=utcnow() if paid else None,
        )
    )
    db.commit()


def test_support_and_admins_find_the_figures_in_the_navigation() -> None:
    assert "staff-landers" in tools_for(frozenset({Role.SUPPORT}))
    assert "staff-landers" in tools_for(frozenset({Role.ADMIN}))
    assert "staff-landers" not in tools_for(frozenset({Role.MODERATOR}))


@pytest.mark.parametrize("role", [Role.SUPPORT, Role.ADMIN])
async def test_each_lander_and_variant_is_counted_step_by_step(make_root, db, role) -> None:
    confirmed = make_member(db, "a@example.com")
    waiting = make_member(db, "b@example.com", status="not_confirmed")
    bought = make_member(db, "c@example.com")
    tried = make_member(db, "d@example.com")
    _paid(db, bought)  # paid, refunded since: still a first purchase
    _paid(db, tried, paid=False)
    for member in (confirmed, waiting, bought, tried, None):
        _click(db, "gallery", "a", member)
    _click(db, "gallery", "b")
    _click(db, "gallery", "b", is_bot=True)
    _click(db, "gallery", "b", created_at=utcnow() - timedelta(days=31))
    _click(db, "video", "")
    page = substate(
        make_root(
            url=PAGE, cookie=f"auth.session={staff_session(db, make_member(db, 's@x.nl'), role)}"
        ),
        StaffLandersState,
    )

    await run(page.load())
    assert page.days == "30" and page.loaded
    assert page.rows == [
        {"lander": "gallery", "variant": "a", "visits": 5, "signups": 4, "confirmed": 3,
         "purchases": 1, "signups_share": 80.0, "confirmed_share": 60.0,
         "purchases_share": 20.0},
        {"lander": "gallery", "variant": "b", "visits": 1, "signups": 0, "confirmed": 0,
         "purchases": 0, "signups_share": 0.0, "confirmed_share": 0.0, "purchases_share": 0.0},
        {"lander": "video", "variant": "", "visits": 1, "signups": 0, "confirmed": 0,
         "purchases": 0, "signups_share": 0.0, "confirmed_share": 0.0, "purchases_share": 0.0},
    ]  # fmt: skip
    await run(page.show("90"))
    assert [r["visits"] for r in page.rows] == [5, 2, 1]
    for bogus in ("365", 90, None, ["7"], "7 "):
        await run(page.show(bogus))
        assert page.days == "90"
    await run(page.show("7"))
    assert [r["visits"] for r in page.rows] == [5, 1, 1]
