"""The member's acceptance of a newer version of the terms and privacy statement."""

import reflex as rx

from actions.consent import accept_terms
from actions.runner import act
from services.client_address import client_key
from state.session import SessionState, current_viewer


class TermsUpdateState(rx.State):
    @rx.event
    async def accept(self) -> None:
        viewer = await current_viewer(self)
        if viewer is None:
            return
        await act(accept_terms, viewer, client_key(self.router.session.client_ip))
        (await self.get_state(SessionState)).terms_pending = False
