"""Reflex's upload endpoint (`POST /_upload`) behind a guard, as ASGI middleware.

Reflex parses the whole multipart body (up to its own generous limits) before any handler can
look at who sent it. This guard answers first: no live session (the one viewer check) is 403
and a declared Content-Length over the request's cap 413, both before a byte of the body is
read. Then the body streams through a meter: a file over the photo size, more files than a
request may carry, a body over the cap or over the member's hourly file count stops the
upload at that file (413, or 429 for the member's count), and the rest is never read. A member
uploads one request at a time. The counts are per worker process, bounded in size."""

import time
from collections import OrderedDict, deque
from collections.abc import Callable

from python_multipart.multipart import MultipartParseError, MultipartParser, parse_options_header
from reflex_base.constants.event import Endpoint
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from actions.viewer import session_token, viewer_now
from services.photo_pipeline import MAX_UPLOAD_BYTES

UPLOAD_PATH = str(Endpoint.UPLOAD)  # "/_upload", where Reflex mounts it (no backend prefix here)
MAX_FILES = 10  # files in one upload request
MAX_FIELD_BYTES = 64 * 1024  # a part that is not a file (the handler's arguments)
MAX_REQUEST_BYTES = MAX_FILES * MAX_UPLOAD_BYTES + 1024 * 1024  # files plus multipart framing
MEMBER_FILES_PER_HOUR = 100
MEMBERS_TRACKED = 10_000  # members whose recent uploads are remembered, the least recent dropped
HOUR = 3600.0


class Refused(Exception):
    """Why the upload stops here: the HTTP status and a short reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


class MemberQuota:
    """Per member: one upload at a time and at most MEMBER_FILES_PER_HOUR files an hour."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._files: OrderedDict[int, deque[float]] = OrderedDict()
        self._busy: set[int] = set()

    def begin(self, member_id: int) -> None:
        if member_id in self._busy:
            raise Refused(429, "upload_in_progress")
        self._busy.add(member_id)

    def end(self, member_id: int) -> None:
        self._busy.discard(member_id)

    def count_file(self, member_id: int) -> None:
        now = self._clock()
        files = self._files.pop(member_id, None) or deque(maxlen=MEMBER_FILES_PER_HOUR)
        while files and now - files[0] > HOUR:
            files.popleft()
        self._files[member_id] = files
        if len(self._files) > MEMBERS_TRACKED:
            self._files.popitem(last=False)
        if len(files) >= MEMBER_FILES_PER_HOUR:
            raise Refused(429, "too_many_uploads")
        files.append(now)


class BodyMeter:
    """Follows the multipart body as it streams in; raises Refused at the first file over a
    limit. Only counts: the parts themselves stay with Reflex."""

    def __init__(self, boundary: bytes, on_file: Callable[[], None]) -> None:
        self._on_file = on_file
        self._total = self._files = self._part_bytes = 0
        self._part_cap = MAX_FIELD_BYTES
        self._header_name = b""
        self._disposition = b""
        self._refusal: Refused | None = None
        self._parser = MultipartParser(
            boundary,
            {
                "on_part_begin": self._part_begins,
                "on_part_data": self._part_data,
                "on_header_field": self._header_field,
                "on_header_value": self._header_value,
                "on_headers_finished": self._headers_finished,
            },
        )

    def feed(self, chunk: bytes) -> None:
        self._total += len(chunk)
        if self._total > MAX_REQUEST_BYTES:
            raise Refused(413, "request_too_large")
        try:
            self._parser.write(chunk)
        except MultipartParseError as error:
            raise Refused(400, "malformed_upload") from error
        if self._refusal is not None:
            raise self._refusal

    def _refuse(self, refusal: Refused) -> None:
        self._refusal = self._refusal or refusal

    def _part_begins(self) -> None:
        self._part_bytes, self._disposition, self._part_cap = 0, b"", MAX_FIELD_BYTES

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_name = data[start:end].lower()

    def _header_value(self, data: bytes, start: int, end: int) -> None:
        if self._header_name == b"content-disposition":
            self._disposition += data[start:end]

    def _headers_finished(self) -> None:
        if b"filename" not in parse_options_header(self._disposition)[1]:
            return
        self._files += 1
        self._part_cap = MAX_UPLOAD_BYTES
        if self._files > MAX_FILES:
            self._refuse(Refused(413, "too_many_files"))
            return
        try:
            self._on_file()
        except Refused as refusal:
            self._refuse(refusal)

    def _part_data(self, data: bytes, start: int, end: int) -> None:
        self._part_bytes += end - start
        if self._part_bytes > self._part_cap:
            self._refuse(Refused(413, "file_too_large"))


def _boundary(headers: Headers) -> bytes:
    kind, options = parse_options_header(headers.get("content-type"))
    if kind != b"multipart/form-data" or not options.get(b"boundary"):
        raise Refused(400, "not_multipart")
    return options[b"boundary"]


def _check_declared_length(headers: Headers) -> None:
    declared = headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_REQUEST_BYTES):
        raise Refused(413, "request_too_large")


def _answer(refusal: Refused) -> JSONResponse:
    # Closing the connection keeps the server from reading the body nobody will use.
    headers = {"Cache-Control": "no-store", "Connection": "close"}
    return JSONResponse({"error": refusal.reason}, status_code=refusal.status, headers=headers)


class UploadGuard:
    """ASGI middleware in front of the app: every other request passes untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.quota = MemberQuota()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != UPLOAD_PATH:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        try:
            member_id, boundary = await self._admitted(headers)
        except Refused as refusal:
            await _answer(refusal)(scope, receive, send)
            return
        try:
            await self._metered(scope, receive, send, BodyMeter(boundary, self._counter(member_id)))
        finally:
            self.quota.end(member_id)

    async def _admitted(self, headers: Headers) -> tuple[int, bytes]:
        """The uploading member and the body's boundary; Refused before the body is read."""
        viewer = await viewer_now(session_token(headers.get("cookie")))
        if viewer is None:
            raise Refused(403, "authentication_required")
        _check_declared_length(headers)
        boundary = _boundary(headers)
        self.quota.begin(viewer.member_id)
        return viewer.member_id, boundary

    def _counter(self, member_id: int) -> Callable[[], None]:
        return lambda: self.quota.count_file(member_id)

    async def _metered(self, scope: Scope, receive: Receive, send: Send, meter: BodyMeter) -> None:
        """Run the app on the metered body; at a refusal the app sees the client go away, and
        its answer (or error) is replaced by the refusal."""
        refusal: Refused | None = None
        started = False

        async def metered_receive() -> Message:
            nonlocal refusal
            if refusal is not None:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                try:
                    meter.feed(message.get("body", b""))
                except Refused as refused:
                    refusal = refused
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refusal is not None and not started:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, metered_receive, guarded_send)
        except Exception:
            if refusal is None or started:
                raise  # not the cut-off body's doing
        if refusal is not None and not started:
            await _answer(refusal)(scope, receive, send)


def guard_uploads(app: ASGIApp) -> ASGIApp:
    """The API transformer (rx.App(api_transformer=...)) that puts the guard in front."""
    return UploadGuard(app)
