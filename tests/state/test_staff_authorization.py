"""The authorization matrix of the staff console (issue 29): every staff event handler of every
state module and every HTTP route under /staff or /api/staff refuses a visitor, a member, a
staff member whose session has not passed the code, an idle staff session, a suspended staff
member and each role it does not allow, before anything of its own runs; an allowed role
passes. And no event handler on a staff state goes without `@staff_event`, but the ones of
the way in (`StaffAccessState`, listed by name) and Reflex's own `setvar`.

The handlers and routes are found, not listed: a new one is in the matrix the moment it
exists. "Nothing of its own runs" is proved twice: the decorated function is swapped for a
spy inside the guard (the guard calls whatever its closure holds), and the runner refuses to
run any action for the length of the test."""

import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import reflex as rx
from sqlmodel import Session
from starlette.routing import BaseRoute, Mount
from starlette.testclient import TestClient

import actions.runner
import state
from actions.staff_viewer import StaffViewer
from app.http_api import http_api
from models.staff import Role
from state.staff_access import BEFORE_SECOND_FACTOR, StaffAccessState
from state.staff_guard import STAFF_ROLES
from tests.staff_people import allowed_cookie, refused_cookies
from tests.state.conftest import redirects, run, substate

PAGE = "/staff/reports?category=spam"  # the tab's page: where the code leads back to
VERIFY_HERE = "/staff/verify?next=%2Fstaff%2Freports%3Fcategory%3Dspam"
REFLEX_OWN = frozenset({"setvar"})  # sets one of the tab's own vars; reads and writes no data
STAFF_PREFIXES = ("/staff", "/api/staff")
RUN_ACTIONS = actions.runner._acted  # the runner as it is, before a test refuses every action


def _state_modules() -> list[str]:
    names = [m.name for m in pkgutil.iter_modules([str(Path(state.__file__).parent)], "state.")]
    for name in names:
        importlib.import_module(name)
    return names


def _states() -> list[type[rx.State]]:
    _state_modules()
    found, todo = [], [rx.State]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


@dataclass(frozen=True)
class StaffHandler:
    state: type[rx.State]
    name: str
    roles: frozenset[Role]

    @property
    def fn(self) -> Callable[..., Any]:
        return self.state.event_handlers[self.name].fn

    def __str__(self) -> str:
        return f"{self.state.__name__}.{self.name}"


def _staff_handlers() -> list[StaffHandler]:
    handlers = {}
    for cls in _states():
        for name, handler in cls.event_handlers.items():
            roles = getattr(handler.fn, STAFF_ROLES, None)
            if roles is not None and handler.fn not in handlers:
                handlers[handler.fn] = StaffHandler(cls, name, roles)
    return sorted(handlers.values(), key=str)


def _routes(routes: list[BaseRoute], prefix: str = "") -> Iterator[tuple[str, BaseRoute]]:
    for route in routes:
        path = prefix + getattr(route, "path", "")
        if isinstance(route, Mount):
            yield from _routes(route.routes, path)
        else:
            yield path, route


def _staff_routes() -> list[tuple[str, str, Any]]:
    """(path, method, endpoint) of every HTTP route of ours under a staff prefix; a path
    parameter stands as 1."""
    return sorted(
        (re.sub(r"{[^}]+}", "1", path), method, route.endpoint)
        for path, route in _routes(http_api().routes)
        if path.startswith(STAFF_PREFIXES)
        for method in sorted(getattr(route, "methods", None) or {"GET"})
        if method != "HEAD"
    )


STAFF_HANDLERS = _staff_handlers()
STAFF_ROUTES = _staff_routes()


@contextmanager
def spy_inside_guard(fn: Callable[..., Any]) -> Iterator[list[StaffViewer]]:
    """Swap the handler the guard wraps for one that records the staff it was given."""
    inner = fn.__wrapped__
    cell = next(cell for cell in fn.__closure__ or () if cell.cell_contents is inner)
    calls: list[StaffViewer] = []

    async def spy(_self: rx.State, staff: StaffViewer, *_args: Any, **_kwargs: Any) -> None:
        calls.append(staff)

    cell.cell_contents = spy
    try:
        yield calls
    finally:
        cell.cell_contents = inner


@pytest.fixture
def no_action_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every action (act, act_hashing) goes through the runner's `_acted`: none may run."""
    ran: list[str] = []

    async def refuse(_executor: object, action: Callable, *_args: Any, **_kwargs: Any) -> None:
        ran.append(action.__name__)
        raise AssertionError(f"action {action.__name__} ran")

    monkeypatch.setattr(actions.runner, "_acted", refuse)
    return ran


def _payload(fn: Callable[..., Any]) -> list[None]:
    """A stand-in for each argument the browser would send (never looked at when refused)."""
    parameters = list(inspect.signature(fn).parameters.values())[1:]
    return [None for p in parameters if p.default is inspect.Parameter.empty]


async def _call(make_root: Callable, handler: StaffHandler, token: str | None) -> list:
    cookie = {"cookie": f"auth.session={token}"} if token else {}
    tab = substate(make_root(url=PAGE, **cookie), handler.state)
    return await run(handler.fn(tab, *_payload(handler.fn)))


# -- the matrix ----------------------------------------------------------------------------


def test_the_staff_handlers_are_found() -> None:
    """The matrix is not empty by mistake: the console's own frame handler is in it."""
    assert "StaffShellState.load" in map(str, STAFF_HANDLERS)


@pytest.mark.parametrize("handler", STAFF_HANDLERS, ids=str)
async def test_a_staff_handler_refuses_everyone_it_does_not_allow(
    handler: StaffHandler, make_root, db: Session, no_action_runs: list[str]
) -> None:
    for who, token in refused_cookies(db, handler.roles).items():
        with spy_inside_guard(handler.fn) as calls:
            events = await _call(make_root, handler, token)
        assert calls == [], f"{handler} ran for {who}"
        assert redirects(events) == [VERIFY_HERE], f"{handler} did not send {who} away"
    assert no_action_runs == []


@pytest.mark.parametrize("handler", STAFF_HANDLERS, ids=str)
async def test_a_staff_handler_lets_each_allowed_role_in(
    handler: StaffHandler, make_root, db: Session
) -> None:
    for role in handler.roles:
        with spy_inside_guard(handler.fn) as calls:
            events = await _call(make_root, handler, allowed_cookie(db, role))
        assert [staff.role for staff in calls] == [role], f"{handler} refused {role}"
        assert redirects(events) == []


def test_every_handler_of_a_staff_state_is_guarded() -> None:
    """A handler on a state in state/staff*.py without `@staff_event` fails here; the way in
    is the one exception, handler by handler."""
    unguarded = [
        f"{cls.__module__}.{cls.__name__}.{name}"
        for cls in _states()
        if cls.__module__.startswith("state.staff")
        for name, handler in cls.event_handlers.items()
        if name not in REFLEX_OWN and not hasattr(handler.fn, STAFF_ROLES)
        and not (cls is StaffAccessState and name in BEFORE_SECOND_FACTOR)
    ]  # fmt: skip
    assert unguarded == []
    way_in = set(StaffAccessState.event_handlers) - REFLEX_OWN
    assert way_in == set(BEFORE_SECOND_FACTOR)  # a new handler there is looked at, not let in


def test_every_staff_http_route_names_its_roles() -> None:
    unguarded = [path for path, _method, fn in STAFF_ROUTES if not hasattr(fn, STAFF_ROLES)]
    assert unguarded == []


@pytest.mark.parametrize(("path", "method", "endpoint"), STAFF_ROUTES)
def test_a_staff_route_refuses_everyone_it_does_not_allow(
    path: str,
    method: str,
    endpoint: Any,
    client: TestClient,
    db: Session,
    no_action_runs: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    roles = getattr(endpoint, STAFF_ROLES)
    for who, token in refused_cookies(db, roles).items():
        client.cookies.clear()
        if token:
            client.cookies.set("auth.session", token)
        answer = client.request(method, path, follow_redirects=False)
        assert answer.status_code == 404, f"{method} {path} answered {who}"
    assert no_action_runs == []
    # an allowed role's request runs its actions (a download's audit row)
    monkeypatch.setattr(actions.runner, "_acted", RUN_ACTIONS)
    for role in roles:
        client.cookies.set("auth.session", allowed_cookie(db, role))
        answer = client.request(method, path, follow_redirects=False)
        assert answer.status_code != 404, f"{method} {path} refused {role}"


@pytest.fixture
def client(engine) -> TestClient:
    return TestClient(http_api(), base_url="https://testserver")
