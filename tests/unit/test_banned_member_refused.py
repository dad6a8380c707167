"""A suspended or banned member gets nothing a member gets: every state handler and HTTP route
that acts for a member asks the one viewer check (actions/viewer.py) with a set of statuses that
leaves suspension and ban out, and the check refuses such a member even with a live session
(the decision ends their sessions; this holds should one survive)."""

import ast
from pathlib import Path

import pytest
from sqlmodel import Session
from starlette.routing import Route
from starlette.testclient import TestClient

from actions.session import nav_facts
from actions.viewer import ACTIVE, SESSION_COOKIE, SIGNED_IN, resolve_viewer
from app.http_api import http_api
from models.auth_session import start_session
from models.member import MemberStatus
from services.config import get_config
from tests.factories import add_photo, committed, make_member

ROOT = Path(__file__).resolve().parents[2]
GATES = {
    "current_viewer",
    "current_member_id",
    "request_viewer",
    "resolve_viewer",
    "viewer_in",
    "viewer_now",
}
ALLOWED_SETS = {"SIGNED_IN", "ACTIVE"}
REFUSED = (MemberStatus.SUSPENDED, MemberStatus.BANNED)

pytestmark = pytest.mark.usefixtures("outbox")  # the server secret in a DATA_DIR of its own


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _gate_calls(tree: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _called_name(n) in GATES]


def _allowed_argument(call: ast.Call) -> ast.expr | None:
    """The statuses a gate call allows: its `allowed` keyword, or the positional argument after
    the state, request or token; None for the default (SIGNED_IN)."""
    for keyword in call.keywords:
        if keyword.arg == "allowed":
            return keyword.value
    return call.args[1] if len(call.args) > 1 else None


def _modules() -> list[Path]:
    return sorted([*(ROOT / "state").glob("*.py"), *(ROOT / "app").rglob("*.py")])


def _functions_reaching_a_gate(tree: ast.Module) -> set[str]:
    """Functions (by Class.name or name) that call a gate, directly or through a helper of
    the same module."""
    bodies: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    bodies[item.name] = item
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            bodies[node.name] = node
    reaching = {name for name, body in bodies.items() if _gate_calls(body)}
    while True:
        more = {
            name
            for name, body in bodies.items()
            if name not in reaching
            and any(isinstance(n, ast.Call) and _called_name(n) in reaching for n in ast.walk(body))
        }
        if not more:
            return reaching
        reaching |= more


def test_every_gate_call_allows_only_the_signed_in_statuses() -> None:
    offending = []
    for path in _modules():
        for call in _gate_calls(ast.parse(path.read_text())):
            allowed = _allowed_argument(call)
            if allowed is None:
                continue
            name = allowed.id if isinstance(allowed, ast.Name) else ast.unparse(allowed)
            # current_member_id and request_viewer pass their own callers' sets on
            forwarded = path.name in {"session.py", "request_auth.py"} and name == "allowed"
            if name not in ALLOWED_SETS and not forwarded:
                offending.append(f"{path.relative_to(ROOT)}:{call.lineno} allows {name}")
    assert offending == []


def test_the_sets_leave_suspended_and_banned_members_out() -> None:
    for allowed in (SIGNED_IN, ACTIVE):
        assert not set(REFUSED) & set(allowed)


def test_many_handlers_and_routes_reach_the_gate() -> None:
    """The enumeration sees the site's member handlers: a scan that found none proves nothing."""
    reaching = set()
    for path in _modules():
        tree = ast.parse(path.read_text())
        reaching |= {f"{path.stem}.{name}" for name in _functions_reaching_a_gate(tree)}
    assert {"chats._send", "likes.like", "chat_api.chats", "photo_api.photo"} <= reaching
    assert len(reaching) > 60


@pytest.fixture(params=REFUSED)
def refused_token(request, db: Session) -> str:
    member = make_member(db, "bob@example.com", status=request.param)
    add_photo(db, member, "bob", main=True)
    return committed(db, start_session, member.id)


def test_the_viewer_check_refuses_them_with_a_live_session(refused_token: str) -> None:
    for allowed in (SIGNED_IN, ACTIVE):
        assert resolve_viewer(refused_token, allowed) is None
    assert nav_facts(refused_token) is None


def _member_routes() -> list[Route]:
    """The HTTP routes whose endpoint asks the viewer check."""
    reaching: set[str] = set()
    for path in (ROOT / "app").glob("*.py"):
        reaching |= _functions_reaching_a_gate(ast.parse(path.read_text()))
    routes = [r for r in http_api().routes if isinstance(r, Route)]
    return [route for route in routes if route.endpoint.__name__ in reaching]


def test_every_member_route_answers_them_as_it_answers_a_visitor(engine, refused_token) -> None:
    routes = _member_routes()
    assert len(routes) >= 6
    headers = {"origin": get_config().public_origin, "content-type": "application/json"}
    for route in routes:
        path = route.path.replace("{filename}", "bob.jpg")
        for method in route.methods - {"HEAD"}:
            answers = []
            for cookies in ({}, {SESSION_COOKIE: refused_token}):
                client = TestClient(http_api(), base_url="https://testserver", cookies=cookies)
                response = client.request(method, path, headers=headers, content=b"{}")
                answers.append((response.status_code, response.content))
            assert answers[0] == answers[1], f"{method} {path}"
