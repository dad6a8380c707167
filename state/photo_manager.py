"""Settings → photos: the member's own photos in gallery order; upload, main photo, order and
delete, each through actions/photos.py for the member behind the tab's cookie; every photo id
from the browser is checked against that member's photos there."""

import logging
from collections.abc import AsyncIterator, Callable

import reflex as rx

from actions import photos
from actions.runner import Done, act, read
from actions.viewer import Viewer
from models.account_errors import AccountError
from models.photos import NotYourPhotos
from models.profile_steps import FREE_PHOTOS
from models.routes import login_url
from services.photo_pipeline import MAX_UPLOAD_BYTES, PhotoRejected
from state.forms import FormState, browser_id
from state.session import current_viewer
from state.upload_stream import Received, drain, received_files
from translations.errors import PHOTO_LIMIT_REACHED

log = logging.getLogger(__name__)
UPLOAD_ID = "photo-manager-upload"
NAME_SHOWN = 80  # characters of a refused file's name shown with the reason
MAX_REFUSED = 25  # refused files listed at most


class PhotoManagerState(FormState, rx.State):
    # Each photo: {"id": int, "url": thumbnail address, "is_main": bool}, main photo first.
    photos: list[dict[str, int | str | bool]] = []
    limit: int = FREE_PHOTOS
    premium: bool = False
    file_errors: list[str] = []  # "name: reason" per refused file of the last upload

    def _at_limit(self) -> bool:
        return len(self.photos) >= self.limit

    def _login(self) -> rx.event.EventSpec:
        return rx.redirect(login_url(self.router.url))

    async def _show(self, viewer: Viewer) -> None:
        """Read the member's photos and limit afresh from the database (a background handler
        reads outside the state lock and takes it only to show them)."""
        shown = await read(photos.gallery, viewer.member_id)
        if shown is not None:
            async with self:
                self.photos, self.limit, self.premium = shown.photos, shown.limit, shown.premium

    @rx.event
    async def load(self):
        self.errors, self.file_errors, self.busy = {}, [], False
        viewer = await current_viewer(self)
        if viewer is None:
            self.photos = []
            return
        await self._show(viewer)

    @rx.event(background=True)
    async def upload(self, chunks: rx.UploadChunkIterator):
        """Store the files one by one as they arrive, each outside the tab's state lock (the
        pipeline is slow); the first refused file (or the limit) stops the rest."""
        async for event in self._store_all(received_files(chunks, MAX_UPLOAD_BYTES + 1)):
            yield event
        await drain(chunks)

    async def _store_all(self, files: AsyncIterator[Received]):
        file = await anext(files, None)
        if file is None:  # a drop of something that is not a file
            return
        viewer = await current_viewer(self)
        if viewer is None:
            yield self._login()
            return
        async with self:
            if self.busy:  # another upload of this tab is storing: this one is dropped
                return
            self.busy, self.errors, self.file_errors = True, {}, []
        try:
            while file is not None and await self._store(viewer, file):
                await self._show(viewer)
                file = await anext(files, None)
        finally:
            async with self:
                self.busy = False

    async def _store(self, viewer: Viewer, file: Received) -> bool:
        """Store one upload; False when it was refused or the photo limit stops the rest."""
        if self._at_limit():
            async with self:
                self.errors = {"photo": await self._text(PHOTO_LIMIT_REACHED)}
            return False
        try:
            await act(photos.add_photo, viewer, file.data)
        except PhotoRejected as rejected:
            async with self:
                self._refused(file.name, await self._text(rejected.message, **rejected.params))
            return False
        except AccountError as error:
            async with self:
                await self._show_error(error)
            return False
        return True

    def _refused(self, name: str, reason: str) -> None:
        shown = (name or "?")[:NAME_SHOWN]
        self.file_errors = [*self.file_errors, f"{shown}: {reason}"][-MAX_REFUSED:]

    @rx.event
    async def make_main(self, photo_id: int):
        async for event in self._change(photos.make_main, photo_id):
            yield event

    @rx.event
    async def move(self, photo_id: int, step: int):
        """One place left (-1) or right (+1) in the gallery; the first place is the main photo."""
        async for event in self._change(photos.move, photo_id, 1 if str(step) == "1" else -1):
            yield event

    @rx.event(background=True)
    async def delete(self, photo_id: int):
        """Outside the tab's state lock: the files go from the photo store, which may be an
        object store across the network."""
        async for event in self._change(photos.remove, photo_id):
            yield event

    async def _change(self, action: Callable[..., Done[None]], photo_id: object, *args: int):
        """Run `action(viewer, photo_id, *args)` for the member behind the cookie, then redraw
        (from a background handler too: the state is changed only under its lock)."""
        viewer = await current_viewer(self)
        if viewer is None:
            yield self._login()
            return
        async with self:
            self.errors, self.file_errors = {}, []
        chosen = browser_id(photo_id)
        try:
            if chosen is None:
                raise NotYourPhotos(photo_id)
            await act(action, viewer, chosen, *args)
        except NotYourPhotos:
            log.warning("member %s named photo %r that is not theirs", viewer.member_id, photo_id)
        await self._show(viewer)


# Worked out in the browser: as a computed var Reflex would work it out for every new tab and
# then store this state in every visitor's.
AT_LIMIT = PhotoManagerState.photos.length() >= PhotoManagerState.limit
