"""The welcome time bonus (spec section 2): the countdown the browser redraws each second from
the server's deadline, the top banner that links to the purchase page, and the modal."""

import reflex as rx
from reflex_base.constants.compiler import MemoizationDisposition, MemoizationMode
from reflex_base.utils.imports import ImportDict
from reflex_base.vars.base import Var, get_unique_variable_name

from components.bundles import INSTANT_NOTE
from components.i18n import percent, t, tn
from models.discount_codes import TIME_BONUS_PERCENTAGE
from models.routes import url
from models.time_bonus import WINDOW
from state.session import SessionState
from state.time_bonus import TimeBonusState
from translations.catalog import N_

B = TimeBonusState
UNLOCK = N_("Unlock {percent} off every credit bundle: your welcome gift as a new member.")
HOURS = WINDOW // 3600  # the act-fast text's value (spec section 2: 4)

# hh:mm:ss to the element's data-deadline (epoch ms); at zero the closest element marked
# data-countdown-scope is marked expired, which the style sheet hides.
_DRAW = """
function drawCountdown(el) {
  const left = Math.max(0, Math.floor((Number(el.dataset.deadline) - Date.now()) / 1000));
  const two = (n) => String(n).padStart(2, "0");
  const hours = Math.floor(left / 3600), minutes = Math.floor((left % 3600) / 60);
  el.textContent = `${two(hours)}:${two(minutes)}:${two(left % 60)}`;
  const scope = el.closest("[data-countdown-scope]");
  if (scope) scope.dataset.expired = String(left === 0);
}
"""


class Countdown(rx.el.Span):
    """A span whose text the browser alone redraws every second: no server event per tick."""

    _memoization_mode = MemoizationMode(disposition=MemoizationDisposition.ALWAYS, recursive=False)

    @classmethod
    def create(cls, *children, **props) -> "Countdown":
        props.setdefault("id", get_unique_variable_name())
        return super().create(*children, **props)

    def add_imports(self) -> ImportDict:
        return {"react": ["useEffect"]}

    def add_custom_code(self) -> list[str]:
        return [_DRAW]

    def add_hooks(self) -> list[str | Var]:
        ref = self.get_ref()
        return [
            f"""
useEffect(() => {{
  const el = {ref}.current;
  if (!el) return;
  drawCountdown(el);
  const timer = setInterval(() => drawCountdown(el), 1000);
  return () => clearInterval(timer);
}}, []);
"""
        ]


def countdown(deadline_ms: rx.Var[int], **props) -> rx.Component:
    return Countdown.create(
        data_deadline=deadline_ms, class_name="countdown", aria_live="off", **props
    )


def _running() -> rx.Var[bool]:
    return SessionState.logged_in & ~SessionState.paid_user & (B.deadline_ms > 0)


def time_bonus_watch() -> rx.Component:
    """On members-area pages: asks the server for the bonus once the member is known."""
    return rx.cond(
        SessionState.logged_in & ~SessionState.paid_user,
        rx.el.span(hidden=True, on_mount=B.enter),
    )


def time_bonus_banner() -> rx.Component:
    return rx.cond(
        _running(),
        rx.link(
            rx.icon("timer", size=20, class_name="time-bonus-icon"),
            rx.el.span(
                t(
                    "Welcome bonus: {percent} off your credits",
                    percent=percent(TIME_BONUS_PERCENTAGE),
                ),
                class_name="time-bonus-text",
            ),
            countdown(B.deadline_ms, data_testid="time-bonus-countdown"),
            rx.el.span(t("Buy credits"), class_name="time-bonus-cta"),
            href=url("credits"),
            class_name="time-bonus-banner",
            underline="none",
            data_countdown_scope=True,
            data_testid="time-bonus-banner",
        ),
    )


def time_bonus_modal() -> rx.Component:
    """25% off, the special offer banner, unlock, act fast (4 hours), valid for the countdown,
    credits received at once; its button closes it, then goes to the purchase page."""
    return rx.dialog.root(
        rx.dialog.content(
            rx.el.div(t("Special offer"), class_name="time-bonus-ribbon"),
            rx.dialog.title(
                t("{percent} off", percent=percent(TIME_BONUS_PERCENTAGE)),
                class_name="time-bonus-title",
            ),
            rx.dialog.description(
                t(UNLOCK, percent=percent(TIME_BONUS_PERCENTAGE)),
                class_name="time-bonus-unlock",
            ),
            rx.el.p(
                tn(
                    "Act fast: this offer is only valid in your first {count} hour.",
                    "Act fast: this offer is only valid in your first {count} hours.",
                    HOURS,
                ),
                class_name="time-bonus-fast",
            ),
            rx.el.p(
                t("The offer is valid for"),
                " ",
                countdown(B.deadline_ms, data_testid="time-bonus-modal-countdown"),
                class_name="time-bonus-valid",
            ),
            rx.button(
                t("Claim my discount"),
                size="3",
                width="100%",
                on_click=B.to_credits,
                data_testid="time-bonus-modal-button",
            ),
            rx.el.p(
                rx.icon("zap", size=14),
                t(INSTANT_NOTE),
                class_name="time-bonus-instant",
            ),
            rx.dialog.close(
                rx.icon_button(
                    rx.icon("x", size=18),
                    variant="ghost",
                    color_scheme="gray",
                    class_name="time-bonus-close",
                    aria_label=t("Close"),
                )
            ),
            class_name="time-bonus-dialog",
            data_testid="time-bonus-modal",
        ),
        open=B.modal_open
        & (B.shown_at == rx.State.router.url.path)
        & _running()
        & (SessionState.credits == 0),
        on_open_change=B.open_changed,
    )
