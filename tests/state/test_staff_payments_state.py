"""/staff/payments' handlers called as a tab calls them with a real staff session: support and
admins see the queue (moderators are sent to verify, as the authorization matrix proves for
every role), switch lists only within the vocabulary, page within bounds, and ask the provider
only about an order the page shows; the outcome names the order even when it left the list."""

from datetime import timedelta

import pytest
from sqlmodel import Session

import state.staff_payments
from actions.payment_checks import FetchOutcome
from actions.staff_viewer import StaffViewer
from models.member import Member, utcnow
from models.orders import Order, order_number
from models.staff import Role
from models.staff_tools import tools_for
from state.staff_payments import StaffPaymentsState
from tests.factories import make_member
from tests.state.conftest import handle, redirects, run, substate
from tests.unit.test_staff_console_routes import staff_session

PAGE = "/staff/payments"


def _stuck_order(db: Session, member: Member, status: str = "open") -> Order:
    order = Order(
        member_id=member.id,
        tier="p0",
        credits=100,
        list_cents=1995,
        amount_cents=1995,
        currency="EUR",
        country="NL",
        method="ideal",
        provider="testpay",
        provider_payment_id=f"tr_{status}{member.id}",
        status=status,
        created_at=utcnow() - timedelta(hours=2),
        updated_at=utcnow(),
    )
    db.add(order)
    db.commit()
    return order


def _page(make_root, token: str) -> StaffPaymentsState:
    root = make_root(url=PAGE, cookie=f"auth.session={token}")
    return substate(root, StaffPaymentsState)


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The provider's answers are unit-tested (tests/unit/test_payments_queue.py): here each
    ask is recorded as (staff member, order) and answered "changed"."""
    calls: list[tuple[int, int]] = []

    async def fetch(staff: StaffViewer, order_id: int) -> FetchOutcome:
        calls.append((staff.member_id, order_id))
        return FetchOutcome.CHANGED

    monkeypatch.setattr(state.staff_payments, "fetch_provider_state", fetch)
    return calls


def test_support_and_admins_find_the_queue_in_the_navigation() -> None:
    assert "staff-payments" in tools_for(frozenset({Role.SUPPORT}))
    assert "staff-payments" in tools_for(frozenset({Role.ADMIN}))
    assert "staff-payments" not in tools_for(frozenset({Role.MODERATOR}))


@pytest.mark.parametrize("role", [Role.SUPPORT, Role.ADMIN])
async def test_the_queue_lists_and_switches_within_its_vocabulary(make_root, db, role) -> None:
    buyer = make_member(db, "anna@example.com")
    stuck = _stuck_order(db, buyer)
    charged = _stuck_order(db, make_member(db, "bea@example.com"), "charged_back")
    page = _page(make_root, staff_session(db, make_member(db, "sue@example.com"), role))

    await run(page.load())
    assert (page.kind, page.rows, page.loaded) == ("refunds", [], True)
    await run(page.show("orders"))
    assert [r["order_id"] for r in page.rows] == [stuck.id]
    assert page.rows[0]["number"] == order_number(stuck.id)
    await run(page.show("chargebacks"))
    assert [r["order_id"] for r in page.rows] == [charged.id]
    for bogus in ("'; drop table", ["orders"], None, ""):
        await run(page.show(bogus))
        assert page.kind == "chargebacks"
    await run(page.go(10**9))
    assert page.page == 200 and page.rows == []
    await run(page.go("x"))
    assert page.page == 1


async def test_a_moderator_is_sent_to_verify(make_root, db) -> None:
    token = staff_session(db, make_member(db, "mo@example.com"), Role.MODERATOR)
    events = await run(_page(make_root, token).load())
    assert [path.split("?")[0] for path in redirects(events)] == ["/staff/verify"]


async def test_support_asks_only_about_orders_the_page_shows(make_root, db, asked) -> None:
    buyer = make_member(db, "anna@example.com")
    stuck = _stuck_order(db, buyer)
    other = _stuck_order(db, buyer, "paid")  # not in any list
    support = make_member(db, "sue@example.com")
    page = _page(make_root, staff_session(db, support, Role.SUPPORT))
    await run(page.load())
    await run(page.show("orders"))

    for not_shown in (other.id, -1, "1; drop", None, 10**12):
        await run(handle(page, "ask_provider", not_shown))
    assert asked == [] and page.outcome == ""

    await run(handle(page, "ask_provider", stuck.id))
    assert asked == [(support.id, stuck.id)]
    assert (page.asked_number, page.outcome) == (order_number(stuck.id), "changed")
    await run(page.show("refunds"))
    assert page.outcome == "" and page.asked_number == ""
