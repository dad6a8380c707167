"""The guard in front of Reflex's `/_upload`: a visitor without a live session, or a body over
the limits, is refused before the app (or the rest of the body) is reached."""

import asyncio

import pytest
from sqlmodel import Session
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from app.upload_guard import MemberQuota, Refused, UploadGuard
from models.auth_session import end_session, start_session
from tests.factories import committed, make_member

MB = 1024 * 1024


@pytest.fixture
def reached() -> list[int]:
    """How many files each request that reached the app carried."""
    return []


@pytest.fixture
def client(engine, reached: list[int]) -> TestClient:
    async def upload(request: Request) -> JSONResponse:
        form = await request.form()
        reached.append(len(form.getlist("files")))
        return JSONResponse({"ok": True})

    inner = Starlette(routes=[Route("/_upload", upload, methods=["POST"])])
    return TestClient(UploadGuard(inner))


@pytest.fixture
def token(db: Session) -> str:
    return committed(db, start_session, make_member(db).id)


def files(count: int, size: int = 1000) -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("files", (f"photo{n}.jpg", b"x" * size, "image/jpeg")) for n in range(count)]


def post(client: TestClient, token: str | None, parts: list) -> int:
    client.cookies.clear()
    if token:
        client.cookies.set("auth.session", token)
    return client.post("/_upload", files=parts).status_code


def test_a_member_uploads_a_few_photos(client, token, reached) -> None:
    assert post(client, token, files(3)) == 200
    assert reached == [3]


@pytest.mark.parametrize("session", ["none", "unknown", "ended"])
def test_without_a_live_session_nothing_is_read(db, client, token, reached, session) -> None:
    if session == "ended":
        committed(db, end_session, token)
    sent = {"none": None, "unknown": "not-a-session", "ended": token}[session]
    assert post(client, sent, files(1)) == 403
    assert reached == []


def asgi_call(guard: UploadGuard, headers: dict[str, str]) -> tuple[int, int]:
    """Call the guard directly; the status it answered and how often it read the body."""
    reads, statuses = [0], []

    async def receive() -> dict:
        reads[0] += 1
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/_upload",
        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
    }
    asyncio.run(guard(scope, receive, send))
    return statuses[0], reads[0]


def test_refusals_before_the_body_read_not_a_byte_of_it(engine, token, reached) -> None:
    async def app(_scope, _receive, _send) -> None:
        reached.append(1)

    guard = UploadGuard(app)
    multipart = "multipart/form-data; boundary=x"
    assert asgi_call(guard, {"content-type": multipart}) == (403, 0)
    huge = {"cookie": f"auth.session={token}", "content-type": multipart}
    assert asgi_call(guard, huge | {"content-length": str(300 * MB)}) == (413, 0)
    assert reached == []


def test_a_file_over_10_mb_is_refused(client, token, reached) -> None:
    assert post(client, token, files(1, size=10 * MB + 1)) == 413
    assert reached == []


def test_more_than_10_files_in_one_request_are_refused(client, token, reached) -> None:
    assert post(client, token, files(11)) == 413
    assert post(client, token, files(10)) == 200
    assert reached == [10]


def test_a_member_uploads_at_most_100_files_an_hour() -> None:
    now = [0.0]
    quota = MemberQuota(clock=lambda: now[0])
    for _ in range(100):
        quota.count_file(7)
    with pytest.raises(Refused) as refused:
        quota.count_file(7)
    assert refused.value.status == 429
    quota.count_file(8)  # another member is not held up
    now[0] = 3601.0
    quota.count_file(7)  # an hour later


def test_one_upload_at_a_time_per_member() -> None:
    quota = MemberQuota()
    quota.begin(7)
    with pytest.raises(Refused):
        quota.begin(7)
    quota.end(7)
    quota.begin(7)


def test_other_requests_pass_untouched(engine, reached) -> None:
    async def hello(_request: Request) -> JSONResponse:
        reached.append(0)
        return JSONResponse({})

    client = TestClient(UploadGuard(Starlette(routes=[Route("/api/x", hello, methods=["POST"])])))
    assert client.post("/api/x", content=b"y" * MB).status_code == 200
    assert reached == [0]
