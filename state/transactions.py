"""/transactions: the member's purchases, and withdrawal within `refund_days` (pro rata);
/transactions/{id}: the result of one payment (spec section 4: loading, pending, completed,
failed or cancelled). The result updates live: the webhook's PaymentSettled reaches the
member's open tabs; and since no webhook comes while a payment is pending, the page also asks
again every few seconds for a while, until the payment settles or the page is left."""

import reflex as rx

from actions.effects import handles
from actions.payment_flow import order_status, withdraw
from actions.payment_reads import order_view, orders_of
from actions.payment_views import OrderView
from actions.payments import PaymentSettled
from actions.runner import read
from actions.viewer import Viewer
from models.orders import OrderStatus
from models.routes import url
from state.forms import browser_id
from state.i18n import I18nState
from state.live import push_to_member
from state.session import SessionState, current_viewer
from state.shell import next_generation, wait_script
from translations.catalog import N_, gettext

POLL_MS = 3_000
MAX_POLLS = 40  # two minutes of asking; then the page offers to ask again
LOADING, PENDING, COMPLETED, FAILED, CANCELLED, MISSING = (
    "loading", "pending", "completed", "failed", "cancelled", "missing",
)  # fmt: skip
_PHASES: dict[str, str] = {
    OrderStatus.OPEN: PENDING,
    OrderStatus.PENDING: PENDING,
    OrderStatus.PAID: COMPLETED,
    OrderStatus.REFUNDED: COMPLETED,
    OrderStatus.CHARGED_BACK: COMPLETED,
    OrderStatus.FAILED: FAILED,
    OrderStatus.EXPIRED: FAILED,  # shown as failed: the member may simply try again
    OrderStatus.CANCELED: CANCELLED,
}
WITHDRAWN = N_(
    "Your withdrawal is being processed. The refund goes back to the payment method you used."
)


def phase_of(status: str) -> str:
    """The result page's state of an order status (spec section 4)."""
    return _PHASES.get(status, FAILED)


def order_id_from_path(path: str) -> int | None:
    """The order a /transactions/{id} address names; None for the list or anything else."""
    parts = path.strip("/").split("/")
    return browser_id(parts[1]) if len(parts) == 2 and parts[0] == "transactions" else None


def _row(view: OrderView) -> dict:
    return {**view.__dict__, "phase": phase_of(view.status)}


class TransactionsState(rx.State):
    orders: list[dict] = []
    order: dict = {}  # the order the result page shows
    phase: str = LOADING
    is_list: bool = False  # /transactions itself, not one order's result
    loaded: bool = False
    gave_up: bool = False  # stopped asking while still pending
    confirm_id: int = 0  # the order whose withdrawal waits for the member's yes
    busy: bool = False
    _withdrawing: int = 0  # the confirmed order whose withdrawal `refund` runs
    _polls: int = 0
    _generation: int = 0

    # While an order is unsettled the provider is asked (actions/payment_flow.order_status):
    # the handlers that show one are background events, which hold the tab's state lock only
    # inside `async with self` (docs/deploy.md).

    @rx.event(background=True)
    async def load_page(self):
        """On load of /transactions and /transactions/{id}."""
        async with self:
            self.loaded, self.confirm_id, self.busy = False, 0, False
            order_id = order_id_from_path(self.router.url.path)
            self.phase, self.order, self.is_list = LOADING, {}, order_id is None
            generation = self._restart()
        if (viewer := await current_viewer(self)) is None:
            return
        if order_id is None:
            rows = [_row(view) for view in await read(orders_of, viewer)]
            async with self:
                self.orders, self.loaded = rows, True
            return
        yield await self._check(viewer, order_id, generation)

    @rx.event(background=True)
    async def poll(self, generation: int) -> rx.event.EventSpec | None:
        """The browser's next ask while the payment is pending; void once the page changed."""
        async with self:
            order_id = self.order.get("id")
            if self.phase != PENDING or not self._current(order_id, generation):
                return None
        if (viewer := await current_viewer(self)) is None:
            return None
        return await self._check(viewer, order_id, generation)

    @rx.event(background=True)
    async def check_again(self) -> rx.event.EventSpec | None:
        """After the page stopped asking on its own: ask once more, and keep asking a while."""
        async with self:
            order_id = self.order.get("id")
            if not self._current(order_id, self._generation):
                return None
            generation = self._restart()
        if (viewer := await current_viewer(self)) is None:
            return None
        return await self._check(viewer, order_id, generation)

    def _restart(self) -> int:
        """A new chain of asks; the answers of older ones are void."""
        self._polls, self.gave_up = 0, False
        self._generation = next_generation(self._generation)
        return self._generation

    def _current(self, order_id: int | None, generation: int) -> bool:
        """Whether the tab still shows `order_id` in chain `generation` (it may have moved on,
        or restarted asking, while the provider was asked)."""
        if generation != self._generation or order_id is None:
            return False
        return order_id_from_path(self.router.url.path) == order_id

    async def _check(
        self, viewer: Viewer, order_id: int, generation: int
    ) -> rx.event.EventSpec | None:
        """The order's status (the provider asked while unsettled); the next ask if pending."""
        view = await order_status(viewer, order_id)
        async with self:
            if not self._current(order_id, generation):
                return None
            self._show(view)
            return self._next_ask()

    def _next_ask(self) -> rx.event.EventSpec | None:
        if self.phase != PENDING:
            return None
        self._polls += 1
        if self._polls > MAX_POLLS:
            self.gave_up = True
            return None
        return rx.call_script(
            wait_script(POLL_MS, str(self._generation)), callback=TransactionsState.poll
        )

    def _show(self, view: OrderView | None) -> None:
        self.order = _row(view) if view is not None else {}
        self.phase = phase_of(view.status) if view is not None else MISSING
        self.loaded = True

    async def _settled(self, viewer: Viewer, order_id: int) -> None:
        """PaymentSettled reached this tab: the result page or the list it shows, again."""
        path = self.router.url.path
        if order_id_from_path(path) == order_id:
            self._show(await read(order_view, viewer, order_id))
        elif path.rstrip("/") == url("transactions"):
            self.orders = [_row(view) for view in await read(orders_of, viewer)]

    @rx.event
    def ask_withdraw(self, order_id: int) -> None:
        """The withdraw button of a purchase that is refundable now opens the confirmation."""
        found = browser_id(order_id)
        if any(row["id"] == found and row["refundable"] for row in self.orders):
            self.confirm_id = found or 0

    @rx.event
    def confirm_changed(self, is_open: bool) -> None:
        if not is_open:
            self.confirm_id = 0

    @rx.event
    def withdraw(self) -> rx.event.EventHandler | None:
        """The member confirmed (queued before the dialog's close clears `confirm_id`): the
        withdrawal goes on in `refund`, which awaits the provider outside the tab's state lock."""
        order_id, self.confirm_id = self.confirm_id, 0
        if not order_id or self.busy:
            return None
        self.busy, self._withdrawing = True, order_id
        return TransactionsState.refund

    @rx.event(background=True)
    async def refund(self) -> rx.event.EventSpec | None:
        """The unused credits leave, the refund goes on its way."""
        viewer = await current_viewer(self)
        async with self:
            order_id, self._withdrawing = self._withdrawing, 0
            if viewer is None or not order_id:
                self.busy = False
                return None
        error = await withdraw(viewer, order_id)
        rows = [_row(view) for view in await read(orders_of, viewer)]
        async with self:
            self.busy, self.orders = False, rows
            await (await self.get_state(SessionState))._refresh_counts()
            locale = (await self.get_state(I18nState)).locale
        if error:
            return rx.toast.error(gettext(locale, error))
        return rx.toast.success(gettext(locale, WITHDRAWN))

    @rx.var
    def confirming(self) -> dict:
        """The purchase whose withdrawal waits for confirmation; {} for none."""
        return next((row for row in self.orders if row["id"] == self.confirm_id), {})


@handles(PaymentSettled)
async def _payment_settled(settled: PaymentSettled) -> None:
    """The webhook changed an order: the member's tabs that show it, or the list, show it."""

    async def update(root: rx.State, viewer: Viewer) -> None:
        await (await root.get_state(TransactionsState))._settled(viewer, settled.order_id)

    await push_to_member(settled.member_id, update)
