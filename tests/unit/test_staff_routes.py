"""`@staff_route`: an HTTP route for staff answers everyone else a plain 404 before its own code
runs, and hands the allowed staff member to the endpoint."""

from sqlmodel import Session
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from actions.staff_viewer import StaffViewer
from app.staff_routes import staff_route
from models.staff import Role
from state.staff_guard import STAFF_ROLES
from tests.staff_people import allowed_cookie, refused_cookies

ALLOWED = frozenset({Role.ADMIN})


def _client(seen: list[StaffViewer]) -> TestClient:
    @staff_route(Role.ADMIN)
    async def endpoint(_request: Request, staff: StaffViewer) -> Response:
        seen.append(staff)
        return PlainTextResponse("for staff")

    assert getattr(endpoint, STAFF_ROLES) == ALLOWED
    return TestClient(Starlette(routes=[Route("/api/staff/x", endpoint)]))


def test_everyone_else_gets_a_plain_404(db: Session) -> None:
    seen: list[StaffViewer] = []
    client = _client(seen)
    for who, token in refused_cookies(db, ALLOWED).items():
        client.cookies.clear()
        if token:
            client.cookies.set("auth.session", token)
        answer = client.get("/api/staff/x")
        assert (answer.status_code, answer.text) == (404, "Not Found"), who
    assert seen == []


def test_the_allowed_role_reaches_the_endpoint(db: Session) -> None:
    seen: list[StaffViewer] = []
    client = _client(seen)
    client.cookies.set("auth.session", allowed_cookie(db, Role.ADMIN))
    assert client.get("/api/staff/x").text == "for staff"
    assert [staff.role for staff in seen] == [Role.ADMIN]
