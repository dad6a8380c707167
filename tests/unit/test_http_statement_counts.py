"""Statements per HTTP route, pinned as Zulip pins its query counts: the viewer check is one
statement, and no route's count grows with the rows behind it."""

from collections.abc import Callable
from functools import partial

import httpx
import pytest
from sqlmodel import Session
from starlette.testclient import TestClient

from actions.viewer import SESSION_COOKIE
from models.auth_session import start_handoff_session, start_session
from models.member import Member
from services.config import get_config
from tests.factories import SUBSCRIPTION, add_photo, committed, make_member
from tests.queries import statements


@pytest.fixture
def photo_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    get_config.cache_clear()
    folder = get_config().media_dir / "photos"
    folder.mkdir(parents=True)
    yield folder
    get_config.cache_clear()


def _count(send: Callable[[], httpx.Response]) -> int:
    with statements() as seen:
        assert send().status_code < 400
    return len(seen)


def _signed_in(client: TestClient, db: Session, email: str = "carl@example.com") -> Member:
    member = make_member(db, email)
    client.cookies.set(SESSION_COOKIE, committed(db, start_session, member.id))
    return member


@pytest.mark.parametrize("photos", [2, 8])
def test_a_photo_costs_the_same_however_large_the_gallery(client, db, photo_dir, photos) -> None:
    owner = make_member(db)
    for rank in range(photos):
        add_photo(db, owner, f"p{rank}", main=rank == 0)
        (photo_dir / f"p{rank}.jpg").write_bytes(b"\xff\xd8 jpeg")
    _signed_in(client, db)
    assert _count(lambda: client.get("/media/photos/p1.jpg")) == 9


def test_the_session_routes_cost_a_few_statements(client, db: Session) -> None:
    member = _signed_in(client, db)
    assert _count(lambda: client.post("/api/user.php?push=1", json=SUBSCRIPTION)) == 3
    code = committed(db, start_handoff_session, member.id)
    # the code traded (with the device and place), the log-in's history row, the previous
    # session ended, the session read back; the device proof
    assert _count(lambda: client.post("/api/session.php", json={"code": code})) == 5
    ours = {"origin": get_config().public_origin}
    assert (
        _count(partial(client.post, "/api/logout.php", headers=ours, follow_redirects=False)) == 2
    )
