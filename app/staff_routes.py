"""The one check of every staff HTTP route (under /api/staff): `@staff_route(Role.ADMIN, ...)`.

The same check as a staff event handler's (actions/staff_viewer.staff_in, state/staff_guard):
the request's own session cookie, the second factor passed in that session, not idle, an
active member holding one of the roles. Anyone else gets a plain 404, which tells nobody that
the route exists. The endpoint takes the acting `StaffViewer` after the request; the roles
stay on it (`STAFF_ROLES`) for tests/state/test_staff_authorization.py."""

import functools
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from actions.staff_viewer import StaffViewer
from actions.viewer import SESSION_COOKIE
from app.request_auth import request_client
from models.staff import Role
from state.staff_guard import STAFF_ROLES, checked_staff

StaffEndpoint = Callable[[Request, StaffViewer], Awaitable[Response]]
Endpoint = Callable[[Request], Awaitable[Response]]


def not_found() -> Response:
    return PlainTextResponse("Not Found", status_code=404, headers={"Cache-Control": "no-store"})


def staff_route(
    *roles: Role,
) -> Callable[[StaffEndpoint], Endpoint]:
    """A Starlette endpoint for staff in one of `roles`; see the module docstring."""
    if not roles:
        raise ValueError("a staff route names the roles it allows")

    def decorate(endpoint: StaffEndpoint) -> Endpoint:
        @functools.wraps(endpoint)
        async def checked(request: Request) -> Response:
            token = request.cookies.get(SESSION_COOKIE)
            staff = await checked_staff(token, roles, request_client(request))
            return not_found() if staff is None else await endpoint(request, staff)

        setattr(checked, STAFF_ROLES, frozenset(roles))
        return checked

    return decorate
