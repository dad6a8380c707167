"""A form sent before the app runs is answered with its page again (a 303), not the static
files' 405; every other answer passes untouched."""

import asyncio
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.testclient import TestClient
from starlette.types import Message

from app.early_form_posts import EarlyFormPosts

LOGIN = {"email": "ann@example.com", "password": "secret"}
FORM = b"application/x-www-form-urlencoded"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    (tmp_path / "login").mkdir()
    (tmp_path / "login" / "index.html").write_text("login page")
    inner = Starlette(
        routes=[
            Route("/api/upload", lambda _request: PlainTextResponse("stored"), methods=["POST"]),
            Route("/api/only-get", lambda _request: PlainTextResponse("got")),
            Mount("/", StaticFiles(directory=tmp_path, html=True)),
        ]
    )
    with TestClient(EarlyFormPosts(inner), follow_redirects=False) as test_client:
        yield test_client


def test_the_static_files_refuse_a_post_with_405(tmp_path: Path) -> None:
    (tmp_path / "login").mkdir()
    (tmp_path / "login" / "index.html").write_text("login page")
    bare = TestClient(Starlette(routes=[Mount("/", StaticFiles(directory=tmp_path, html=True))]))
    assert bare.post("/login/", data=LOGIN).status_code == 405


def test_a_form_posted_to_a_page_gets_the_page_again(client: TestClient) -> None:
    answer = client.post("/login?next=/likes", data=LOGIN)
    assert answer.status_code == 303 and answer.headers["location"] == "/login?next=/likes"
    assert answer.content == b""
    upload = client.post("/login", files={"photo": ("me.jpg", b"jpeg")})
    assert upload.status_code == 303 and upload.headers["location"] == "/login"


def _location(raw_path: bytes, query: bytes = b"") -> bytes:
    """The Location a form post to `raw_path` is answered with."""
    refuse = PlainTextResponse("Method Not Allowed", status_code=405)
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {
        "type": "http", "method": "POST", "path": raw_path.decode("latin-1"),
        "query_string": query, "raw_path": raw_path, "headers": [(b"content-type", FORM)],
    }  # fmt: skip
    asyncio.run(EarlyFormPosts(refuse)(scope, receive, send))
    assert sent[0]["status"] == 303
    return dict(sent[0]["headers"])[b"location"]


def test_the_page_again_is_on_this_site() -> None:
    """A path of `//host/...` would make the 303 send the browser to that host."""
    assert _location(b"//evil.example/login") == b"/evil.example/login"


@pytest.mark.parametrize(
    "raw_path",
    [b"/\\evil.example", b"\\evil.example/x", b"/\\/evil.example", b"/\t/evil.example"],
)
def test_a_backslash_cannot_send_the_page_again_to_another_site(raw_path: bytes) -> None:
    """Browsers read `/\\host` (and `/<tab>/host`) as `//host`: no Location leaves the site."""
    location = _location(raw_path, b"next=\\evil.example")
    assert location.startswith(b"/") and location[1:2] not in (b"/", b"\\")
    assert b"\\" not in location and b"\t" not in location
    assert urljoin("https://amorly.example/login", location.decode()).startswith(
        "https://amorly.example/"
    )


def test_other_answers_pass_untouched(client: TestClient) -> None:
    assert client.get("/login/").text == "login page"
    assert client.post("/api/upload", files={"photo": ("me.jpg", b"jpeg")}).text == "stored"
    assert client.post("/login", json=LOGIN).status_code == 405  # not a form: an API client's
    assert client.post("/api/only-get", data=LOGIN).status_code == 303
