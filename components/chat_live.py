"""The chat as the tab shows it: the state's messages and list, with the messages that arrived
live without the tab's state (state/live.py LeanPush) merged in by assets/shell.js
(`siteChatShown`, `siteChatCards`) until a catch-up brings them into the state. Reading the
arrivals' version redraws the component when another arrives; in the server's prerender,
where there is no window, the state's own are shown."""

import reflex as rx
from reflex_base.vars.base import VarData

from state.chats import ChatsState
from state.document_values import REACT_HOOK_IMPORTS

S = ChatsState
_HOOK = (
    "const chatLiveVersion = useSyncExternalStore("
    "(listener) => globalThis.siteChatLiveSubscribe?.(listener) ?? (() => {}), "
    "() => globalThis.siteChatLiveVersion?.() ?? 0, () => 0);"
)


def _merged(function: str, shown: rx.Var, *args: rx.Var) -> rx.Var[list[dict]]:
    """`shown` as globalThis.`function`(shown, *args) merges it, or as it is."""
    call = ", ".join(str(arg) for arg in (shown, *args))
    return rx.Var(
        f"(chatLiveVersion, (globalThis.{function} ?? ((shown) => shown))({call}))",
        _var_data=VarData.merge(
            VarData(hooks={_HOOK: None}, imports=REACT_HOOK_IMPORTS),
            *(arg._get_all_var_data() for arg in (shown, *args)),
        ),
    ).to(list[dict])


def shown_messages() -> rx.Var[list[dict]]:
    """The open chat's messages, oldest first."""
    return _merged("siteChatShown", S.messages, S.conversation_id, S.more_after)


def shown_chats() -> rx.Var[list[dict]]:
    """The chat list, the open chat's card with its newest message."""
    return _merged("siteChatCards", S.chats, S.conversation_id)
