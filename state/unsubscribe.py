"""/unsubscribe: the footer link of a notification mail. It works without logging in (the link's
key names the account) and switches e-mail off only when the member presses the button: a mail
scanner that opens the link changes nothing."""

import reflex as rx

from actions.notifications import unsubscribe, unsubscribe_key_ok
from actions.runner import act, read

KEY_MAX = 64


class UnsubscribeState(rx.State):
    checked: bool = False
    key_ok: bool = False
    done: bool = False

    def _key(self) -> str:
        return str(self.router.url.query_parameters.get("key") or "")[:KEY_MAX]

    @rx.event
    async def check_link(self) -> None:
        self.key_ok = await read(unsubscribe_key_ok, self._key())
        self.checked, self.done = True, False

    @rx.event
    async def confirm(self) -> None:
        self.done = await act(unsubscribe, self._key())
        self.key_ok = self.done
