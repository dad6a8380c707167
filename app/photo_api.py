"""GET /media/photos/{file}: a stored photo as this viewer may see it, read from the photo store
(services/photo_store.py: the local folder or the bucket) and streamed through the app, so
the access check, the blur and the cache validators are the same for either store."""

import asyncio
import mimetypes
from email.utils import format_datetime

from starlette.requests import Request
from starlette.responses import Response

from actions.photo_files import photo_answer
from actions.runner import read
from actions.viewer import SESSION_COOKIE
from app.request_auth import request_client, request_viewer
from models.photo_access import PhotoView
from services.photo_pipeline import ensure_blurred, is_photo_filename
from services.photo_store import StoredFile, photo_store


async def photo(request: Request) -> Response:
    """The file itself, or its blurred rendition for a photo the viewer is not entitled to
    (the original's bytes never reach them), or 404."""
    filename = request.path_params["filename"]
    if not is_photo_filename(filename):
        return Response(status_code=404)
    token, address = request.cookies.get(SESSION_COOKIE), request_client(request)
    viewer = await request_viewer(request)
    answer = await read(photo_answer, viewer, filename, token, address)
    view, wants_blurred = answer.view, answer.wants_blurred
    name = await _rendition(view, filename, wants_blurred)
    shared = (view == PhotoView.FULL or wants_blurred) and not answer.staff_only
    # no-cache, not max-age: a photo a moderator rejects must vanish from browsers at once;
    # the ETag makes the browser's check a cheap 304 while the viewer may still see it.
    cache = "private, no-cache" if shared else "no-store"
    seen = request.headers.get("if-none-match") if shared else None
    loaded = await asyncio.to_thread(_load, name, seen) if name is not None else None
    if name is None or loaded is None:
        return Response(status_code=404)
    stored, content = loaded
    headers = {"Cache-Control": cache, **validators(stored)}
    if content is None:
        return Response(status_code=304, headers=headers)
    return image_response(name, content, headers)


def image_response(name: str, content: bytes, headers: dict[str, str]) -> Response:
    return Response(content, media_type=mimetypes.guess_type(name)[0], headers=headers)


def validators(stored: StoredFile) -> dict[str, str]:
    return {"ETag": stored.etag, "Last-Modified": format_datetime(stored.modified, usegmt=True)}


def _load(name: str, seen_etag: str | None) -> tuple[StoredFile, bytes | None] | None:
    """The file's validators and content (None: the browser's copy, `seen_etag`, is current);
    None when it is not stored."""
    store = photo_store()
    stored = store.stat(name)
    if stored is None:
        return None
    if seen_etag == stored.etag:
        return stored, None
    content = store.get(name)
    return None if content is None else (stored, content)


async def _rendition(view: PhotoView, filename: str, wants_blurred: bool) -> str | None:
    if view == PhotoView.NONE:
        return None
    if view == PhotoView.FULL and not wants_blurred:
        return filename
    blurred = await asyncio.to_thread(ensure_blurred, photo_store(), filename)
    # An old stem ending in "_b" names the original itself: never hand that out as a blur.
    return blurred if blurred is not None and (wants_blurred or blurred != filename) else None
