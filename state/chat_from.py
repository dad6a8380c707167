"""Settings → privacy: "Who may start a chat with me", stored as soon as it is chosen."""

import reflex as rx

from actions.chat_from import chat_from_of, save_chat_from
from actions.runner import act, read
from models.chat_from import ChatFrom
from models.routes import login_url, url
from state.session import current_viewer

CHOICES = tuple(choice.value for choice in ChatFrom)


class ChatFromState(rx.State):
    chat_from: str = ChatFrom.EVERYONE.value
    saved: bool = False

    @rx.event
    async def load(self) -> None:
        self.saved = False
        viewer = await current_viewer(self)
        if viewer is not None:
            self.chat_from = await read(chat_from_of, viewer)

    @rx.event
    async def choose(self, chat_from: str):
        viewer = await current_viewer(self)
        if viewer is None:
            return rx.redirect(login_url(url("settings", tab="privacy")))
        wanted = str(chat_from)[:10]
        if wanted in CHOICES and await act(save_chat_from, viewer, wanted):
            self.chat_from, self.saved = wanted, True
        return None
