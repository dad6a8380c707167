"""Settings → photos: the member's own photos in gallery order; upload, main photo, order and
delete. Every handler asks the database who the session cookie belongs to, and every photo id
from the browser is checked against that member's photos by models/photos."""

import asyncio
import logging
from collections.abc import Callable
from functools import partial

import reflex as rx

from models.account_errors import AccountError
from models.member import Member, Profile
from models.photos import NotYourPhotos, gallery_order, reorder_photos, set_main_photo
from models.profile_steps import FREE_PHOTOS, photo_limit
from services.database import db_session
from services.member_photos import add_member_photo, remove_member_photo
from services.photo_pipeline import MAX_UPLOAD_BYTES, PHOTO_NOT_AN_IMAGE, PhotoRejected
from services.site_settings import current_settings
from state.forms import FormState, browser_id
from state.session import SessionState, current_member_id
from state.shell import login_url
from translations.errors import PHOTO_LIMIT_REACHED

log = logging.getLogger(__name__)
UPLOAD_ID = "photo-manager-upload"
NAME_SHOWN = 80  # characters of a refused file's name shown with the reason
MAX_REFUSED = 25  # refused files listed at most


def moved(ids: list[int], photo_id: int, step: int) -> list[int]:
    """`ids` with `photo_id` moved one place left (step -1) or right (+1), where there is room."""
    index = ids.index(photo_id)
    target = index + (1 if step > 0 else -1)
    if not 0 <= target < len(ids):
        return ids
    order = list(ids)
    order[index], order[target] = order[target], order[index]
    return order


def _rejected_name(rejection: object) -> str | None:
    """The file name in one of react-dropzone's rejections: {"file": {"path": "./a.pdf"}, ...}."""
    file = rejection.get("file") if isinstance(rejection, dict) else None
    path = file.get("path") if isinstance(file, dict) else None
    return str(path).rsplit("/", 1)[-1] if path else None


class PhotoManagerState(FormState, rx.State):
    # Each photo: {"id": int, "url": thumbnail address, "is_main": bool}, main photo first.
    photos: list[dict[str, int | str | bool]] = []
    limit: int = FREE_PHOTOS
    premium: bool = False
    file_errors: list[str] = []  # "name: reason" per refused file of the last upload

    @rx.var
    def at_limit(self) -> bool:
        return len(self.photos) >= self.limit

    async def _member_id(self) -> int | None:
        return await current_member_id(self)

    def _login(self) -> rx.event.EventSpec:
        return rx.redirect(login_url(self.router.url))

    def _show(self, member_id: int) -> None:
        """Read the member's photos and limit afresh from the database."""
        settings = current_settings()
        with db_session() as db:
            member, profile = db.get(Member, member_id), db.get(Profile, member_id)
            main_id = profile.main_photo_id if profile else None
            self.photos = [
                {
                    "id": p.id,
                    "url": settings.photo_url(p.thumb_filename),
                    "is_main": p.id == main_id,
                }
                for p in gallery_order(db, member_id)
            ]
            self.limit, self.premium = photo_limit(member), member.paid_user

    @rx.event
    async def load(self):
        self.errors, self.file_errors, self.busy = {}, [], False
        member_id = await self._member_id()
        if member_id is None:
            self.photos = []
            return
        self._show(member_id)

    @rx.event
    async def upload(self, files: list[rx.UploadFile]):
        """Store the files one by one until the limit; each refused file says why."""
        if not files:  # the picker refused every file (see refuse_files)
            return
        member_id = await self._member_id()
        if member_id is None:
            yield self._login()
            return
        self.busy, self.errors, self.file_errors = True, {}, []
        yield
        try:
            for file in files:
                if not await self._store(member_id, file):
                    break
                self._show(member_id)
                yield
        finally:
            self.busy = False

    async def _store(self, member_id: int, file: rx.UploadFile) -> bool:
        """Store one upload; False once the photo limit stops the rest."""
        if self.at_limit:
            self.errors = {"photo": await self.text(PHOTO_LIMIT_REACHED)}
            return False
        try:
            data = await file.read(MAX_UPLOAD_BYTES + 1)
            await asyncio.to_thread(add_member_photo, member_id, data)
        except PhotoRejected as rejected:
            self._refused(file.name, await self.text(rejected.message, **rejected.params))
        except AccountError as error:
            await self.show_error(error)
            return False
        return True

    @rx.event
    async def refuse_files(self, rejections: list[dict]) -> None:
        """Files the picker refused by their type, before any upload (react-dropzone's list)."""
        reason = await self.text(PHOTO_NOT_AN_IMAGE)
        for rejection in rejections[:MAX_REFUSED] if isinstance(rejections, list) else []:
            self._refused(_rejected_name(rejection), reason)

    def _refused(self, name: str | None, reason: str) -> None:
        shown = (name or "?")[:NAME_SHOWN]
        self.file_errors = [*self.file_errors, f"{shown}: {reason}"][-MAX_REFUSED:]

    @rx.event
    async def make_main(self, photo_id: int):
        async for event in self._change(photo_id, _make_main):
            yield event

    @rx.event
    async def move(self, photo_id: int, step: int):
        """One place left (-1) or right (+1) in the gallery; the first place is the main photo."""
        forward = str(step) == "1"
        async for event in self._change(photo_id, partial(_move, step=1 if forward else -1)):
            yield event

    @rx.event
    async def delete(self, photo_id: int):
        async for event in self._change(photo_id, remove_member_photo):
            yield event

    async def _change(self, photo_id: object, action: Callable[[int, int], None]):
        """Run `action(member_id, photo_id)` for the member behind the cookie, then redraw."""
        member_id = await self._member_id()
        if member_id is None:
            yield self._login()
            return
        self.errors, self.file_errors = {}, []
        chosen = browser_id(photo_id)
        try:
            if chosen is None:
                raise NotYourPhotos(photo_id)
            action(member_id, chosen)
        except NotYourPhotos:
            log.warning("member %s named photo %r that is not theirs", member_id, photo_id)
        self._show(member_id)


def _make_main(member_id: int, photo_id: int) -> None:
    with db_session() as db:
        set_main_photo(db, member_id, photo_id)


def _move(member_id: int, photo_id: int, step: int) -> None:
    with db_session() as db:
        ids = [photo.id for photo in gallery_order(db, member_id)]
        if photo_id not in ids:
            raise NotYourPhotos(photo_id)
        reorder_photos(db, member_id, moved(ids, photo_id, step))
