"""A page is served at the address our links use: the static files' add-a-slash redirect is
followed inside the server, and every other answer passes untouched."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse, RedirectResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.testclient import TestClient

from app.slashless_pages import SlashlessPages


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """Files as React Router's prerender writes them: each page as x.html and x/index.html."""
    (tmp_path / "members").mkdir()
    (tmp_path / "members.html").write_text("members page")
    (tmp_path / "members" / "index.html").write_text("members page")
    (tmp_path / "index.html").write_text("home")
    inner = Starlette(
        routes=[
            Route("/old", lambda _request: RedirectResponse("/new")),
            Route("/form", lambda _request: PlainTextResponse("posted"), methods=["POST"]),
            Mount("/", StaticFiles(directory=tmp_path, html=True)),
        ]
    )
    with TestClient(SlashlessPages(inner), follow_redirects=False) as test_client:
        yield test_client


def test_the_page_is_served_at_its_own_address(client: TestClient) -> None:
    answer = client.get("/members?lang=de")
    assert answer.status_code == 200 and answer.text == "members page"
    head = client.head("/members")
    assert head.status_code == 200 and head.content == b""


def test_the_unprotected_inner_answer_shows_the_redirect_it_replaces(tmp_path: Path) -> None:
    (tmp_path / "members").mkdir()
    (tmp_path / "members" / "index.html").write_text("members page")
    bare = TestClient(StaticFiles(directory=tmp_path, html=True), follow_redirects=False)
    assert bare.get("/members").status_code == 307


def test_other_answers_pass_untouched(client: TestClient) -> None:
    assert client.get("/").text == "home"
    moved = client.get("/old")
    assert moved.status_code == 307 and moved.headers["location"] == "/new"
    assert client.post("/form").text == "posted"
    assert client.get("/members/12").status_code == 404
