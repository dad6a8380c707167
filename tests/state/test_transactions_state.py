"""The purchases list and the payment result page: the spec's states (pending, completed with
the credits added and the new balance, failed and cancelled, expired shown as failed), asking
the provider again while pending (bounded, void once the page changed), the live update when
the webhook lands, withdrawal only of the member's own refundable purchases; another member's
order stays unknown."""

# ruff: noqa: F811 - the test provider's fixtures are imported, then asked for by name

import httpx
import pytest
import reflex as rx
from reflex.istate.data import RouterData
from sqlmodel import Session, col, select

import state.transactions
from actions.effects import settle
from actions.payment_flow import sync_payment
from models.credits import grant_credits
from models.member import Member
from models.orders import Order
from state.credits import CreditsState
from state.live import run_on_tab
from state.session import SessionState
from state.transactions import (
    CANCELLED,
    COMPLETED,
    FAILED,
    MAX_POLLS,
    MISSING,
    PENDING,
    TransactionsState,
    order_id_from_path,
    phase_of,
)
from tests.factories import committed
from tests.state.conftest import handle, run, scripts, substate
from tests.state.payment_tabs import (  # noqa: F401 - fixtures
    add_order,
    old_member,
    paying,
    provider_client,
    tab,
    testpay,
    testpay_clock,
    testpay_http,
    testpay_webhooks,
)

pytestmark = pytest.mark.usefixtures("paying")


@pytest.mark.parametrize(
    ("status", "phase"),
    [("open", PENDING), ("pending", PENDING), ("paid", COMPLETED), ("refunded", COMPLETED),
     ("charged_back", COMPLETED), ("failed", FAILED), ("expired", FAILED),
     ("canceled", CANCELLED), ("nonsense", FAILED)],
)  # fmt: skip
def test_order_statuses_are_the_spec_states(status: str, phase: str) -> None:
    assert phase_of(status) == phase


@pytest.mark.parametrize(
    ("path", "order_id"),
    [("/transactions/12", 12), ("/transactions", None), ("/transactions/", None),
     ("/transactions/abc", None), ("/transactions/-1", None), ("/transactions/99999999999", None),
     ("/transactions/1/2", None), ("/credits/12", None)],
)  # fmt: skip
def test_the_result_page_reads_its_order_from_the_address(path: str, order_id) -> None:
    assert order_id_from_path(path) == order_id


async def bought(make_root, db: Session, member: Member, method: str = "ideal") -> Order:
    """An order placed through the purchase page: sent to the provider's checkout."""
    credits = substate(await tab(make_root, db, member, "/credits"), CreditsState)
    await run(handle(credits, "load_page"))
    credits.choose_method(method)
    await run(handle(credits, "buy"))
    db.expire_all()
    newest = db.exec(select(Order).order_by(col(Order.id).desc())).first()
    assert newest is not None and newest.provider_payment_id
    return newest


def moved(root: rx.State, path: str) -> None:
    """The tab went on to `path` (the router data its next event brings)."""
    root.router = RouterData.from_router_data(
        {"headers": dict(root.router.headers.raw_headers), "pathname": path, "asPath": path,
         "token": "test-client-token"}
    )  # fmt: skip


async def result_page(make_root, db: Session, member: Member, order_id: int):
    page = substate(
        await tab(make_root, db, member, f"/transactions/{order_id}"), TransactionsState
    )
    return page, scripts(await run(handle(page, "load_page")))


async def settle_at_provider(http: httpx.AsyncClient, order: Order, status: str) -> None:
    answer = await http.post(
        f"/testpay/v2/payments/{order.provider_payment_id}/test-outcome",
        json={"status": status, "webhook": "none"},
    )
    assert answer.status_code < 300, answer.text


async def test_pending_then_paid_while_the_page_asks(
    make_root, db: Session, testpay_http: httpx.AsyncClient
) -> None:
    anna = old_member(db)
    order = await bought(make_root, db, anna)
    page, polls = await result_page(make_root, db, anna, order.id)
    assert page.phase == PENDING and len(polls) == 1 and polls[0].endswith(", 3000))")
    generation = page._generation
    assert scripts(await run(handle(page, "poll", generation))) != []  # still open: ask again later
    await settle_at_provider(testpay_http, order, "paid")
    assert scripts(await run(handle(page, "poll", generation))) == []
    assert page.phase == COMPLETED and page.order["credits"] == order.credits
    assert page.order["balance"] == order.credits
    assert (await page.get_state(SessionState)).logged_in


async def test_asking_stops_when_the_page_changes_or_after_a_while(make_root, db: Session) -> None:
    anna = old_member(db)
    order = await bought(make_root, db, anna)
    page, _ = await result_page(make_root, db, anna, order.id)
    assert await run(handle(page, "poll", page._generation + 1)) == []  # an older page's chain
    moved(page.parent_state, "/members")
    assert await run(handle(page, "poll", page._generation)) == []
    moved(page.parent_state, f"/transactions/{order.id}")
    page._polls = MAX_POLLS
    assert await run(handle(page, "poll", page._generation)) == []
    assert page.gave_up and page.phase == PENDING
    assert len(scripts(await run(handle(page, "check_again")))) == 1 and not page.gave_up


def answer_after(monkeypatch: pytest.MonkeyPatch, meanwhile) -> None:
    """The provider's next answer comes only after the tab ran `meanwhile`."""
    ask, waiting = state.transactions.order_status, [meanwhile]

    async def slow(viewer, order_id: int):
        if waiting:
            await waiting.pop()()
        return await ask(viewer, order_id)

    monkeypatch.setattr(state.transactions, "order_status", slow)


async def test_a_late_answer_for_the_order_left_changes_nothing(
    make_root, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna = old_member(db)
    first, second = await bought(make_root, db, anna), await bought(make_root, db, anna)
    page, _ = await result_page(make_root, db, anna, first.id)
    polls: list[str] = []

    async def go_to_second() -> None:
        moved(page.parent_state, f"/transactions/{second.id}")
        polls.extend(scripts(await run(handle(page, "load_page"))))

    answer_after(monkeypatch, go_to_second)
    assert await run(handle(page, "poll", page._generation)) == []
    assert page.order["id"] == second.id and page.phase == PENDING and len(polls) == 1
    assert scripts(await run(handle(page, "poll", page._generation))) != []  # the second's chain


@pytest.mark.parametrize("restart", ["check_again", "load_page"])
async def test_a_restart_while_asking_leaves_one_chain(
    make_root, db: Session, monkeypatch: pytest.MonkeyPatch, restart: str
) -> None:
    anna = old_member(db)
    page, _ = await result_page(make_root, db, anna, (await bought(make_root, db, anna)).id)
    chains: list[str] = []

    async def ask_again() -> None:
        chains.extend(scripts(await run(handle(page, restart))))

    answer_after(monkeypatch, ask_again)
    assert await run(handle(page, "check_again")) == [] and len(chains) == 1


@pytest.mark.parametrize(
    ("status", "phase"), [("failed", FAILED), ("canceled", CANCELLED), ("expired", FAILED)]
)
async def test_failed_cancelled_and_expired(
    make_root, db: Session, testpay_http: httpx.AsyncClient, status: str, phase: str
) -> None:
    anna = old_member(db)
    order = await bought(make_root, db, anna, "creditcard")
    await settle_at_provider(testpay_http, order, status)
    page, polls = await result_page(make_root, db, anna, order.id)
    assert page.phase == phase and polls == []
    assert (page.order["tier"], page.order["method"]) == (order.tier, "creditcard")


async def test_another_members_order_stays_unknown(make_root, db: Session) -> None:
    anna, bob = old_member(db), old_member(db, "bob@example.com")
    order = add_order(db, anna)
    page, _ = await result_page(make_root, db, bob, order.id)
    assert page.phase == MISSING and page.order == {}
    page, _ = await result_page(make_root, db, bob, 987654)
    assert page.phase == MISSING


async def test_the_webhook_updates_the_open_result_page_live(
    make_root, db: Session, monkeypatch: pytest.MonkeyPatch, testpay_http: httpx.AsyncClient
) -> None:
    pushed: list = []

    async def push(member_id: int, update, except_token: str = "") -> None:
        pushed.append((member_id, update))

    monkeypatch.setattr(state.transactions, "push_to_member", push)
    anna = old_member(db)
    order = await bought(make_root, db, anna)
    page, _ = await result_page(make_root, db, anna, order.id)
    await settle_at_provider(testpay_http, order, "paid")
    await sync_payment(order.provider_payment_id)  # what the webhook does
    await settle()
    assert [member for member, _ in pushed] == [anna.id]
    assert await run_on_tab(page.parent_state, anna.id, pushed[0][1])
    assert page.phase == COMPLETED and page.order["balance"] == order.credits


async def test_the_list_and_withdrawal(make_root, db: Session, testpay_http) -> None:
    anna = old_member(db)
    order = await bought(make_root, db, anna)
    await settle_at_provider(testpay_http, order, "paid")
    page, _ = await result_page(make_root, db, anna, order.id)
    assert page.phase == COMPLETED
    old = add_order(db, anna, status="failed", tier="p0", credits=50)
    listing = substate(await tab(make_root, db, anna, "/transactions"), TransactionsState)
    await run(handle(listing, "load_page"))
    assert listing.is_list and [row["id"] for row in listing.orders] == [old.id, order.id]
    rows = {row["id"]: row for row in listing.orders}
    assert rows[order.id]["refundable"] and not rows[old.id]["refundable"]
    assert rows[order.id]["refund_credits"] == order.credits and rows[order.id]["refund_cents"]
    listing.ask_withdraw(old.id)
    listing.ask_withdraw("1 or 1=1")
    assert listing.confirm_id == 0
    listing.ask_withdraw(order.id)
    assert listing.confirming["id"] == order.id
    assert await run(listing.withdraw()) == [TransactionsState.refund]
    assert listing.confirm_id == 0 and listing.busy
    events = await run(handle(listing, "refund"))
    assert len(events) == 1 and not listing.busy
    rows = {row["id"]: row for row in listing.orders}
    assert not rows[order.id]["refundable"] and rows[order.id]["refund_status"] != ""
    assert (await listing.get_state(SessionState)).credits == 0


async def test_no_withdrawal_of_someone_elses_purchase(make_root, db: Session) -> None:
    anna, bob = old_member(db), old_member(db, "bob@example.com")
    order = add_order(db, anna, provider_payment_id="tr_anna")
    committed(db, grant_credits, anna, 100, "purchase", f"order:{order.id}")
    listing = substate(await tab(make_root, db, bob, "/transactions"), TransactionsState)
    await run(handle(listing, "load_page"))
    assert listing.orders == []
    listing.ask_withdraw(order.id)
    listing.confirm_id = order.id  # as if the browser forged the confirmation
    await run(listing.withdraw())
    await run(handle(listing, "refund"))
    db.expire_all()
    assert db.get(Order, order.id).status == "paid" and db.get(Member, anna.id).credits == 100


async def test_a_logged_out_tab_sees_nothing(make_root, db: Session) -> None:
    order = add_order(db, old_member(db))
    page, polls = await result_page(make_root, db, None, order.id)
    assert page.order == {} and polls == [] and not page.loaded
