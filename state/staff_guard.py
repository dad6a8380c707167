"""The one check of every staff event handler: `@staff_event(Role.MODERATOR, ...)`.

The decorated handler takes the acting `StaffViewer` after `self`; the browser never sends it and
never sees it in the handler's signature. A visitor, a member, a staff member without one of the
roles, a session without the second factor or idle too long gets nothing but a redirect to
/staff/verify, which sends each to the right step (nothing at all during a page's load after
the page's access check, state/staff_access.py, sent the tab to its step). The roles stay on the
handler (`STAFF_ROLES`), so a test can enumerate every staff handler and prove each refuses
everyone else (tests/state/test_staff_authorization.py)."""

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import reflex as rx

from actions.runner import act, read
from actions.staff_viewer import StaffViewer, note_seen, resolve_staff
from actions.viewer import session_token
from models.routes import url
from models.staff import Role
from services.client_address import client_key
from state.staff_access import sent_on

STAFF_ROLES = "__staff_roles__"
Handler = Callable[..., Awaitable[Any]]


async def checked_staff(
    token: str | None, roles: tuple[Role, ...], address: str
) -> StaffViewer | None:
    """The staff member behind session `token`, in one of `roles`: the check reads, and the
    session's use is noted by an action of its own when due (actions/staff_viewer)."""
    staff = await read(resolve_staff, token, roles, address)
    if staff is not None and staff.seen_due:
        await act(note_seen, staff.session_id)
    return staff


async def current_staff(state: rx.State, roles: tuple[Role, ...]) -> StaffViewer | None:
    """The staff member behind the tab's own cookie now, in one of `roles`."""
    token = session_token(state.router.headers.cookie)
    return await checked_staff(token, roles, client_key(state.router.session.client_ip))


def staff_verify_redirect(state: rx.State) -> rx.event.EventSpec:
    """To /staff/verify, which sends the browser to its step, and back to this page after it."""
    back = urlsplit(str(state.router.url))
    here = back.path + (f"?{back.query}" if back.query else "")
    return rx.redirect(url("staff-verify", next=here))


def staff_event(*roles: Role, background: bool = False) -> Callable[[Handler], Any]:
    """An `rx.event` handler for staff in one of `roles`; see the module docstring. A
    `background` one awaits an outside service and takes the tab's state lock itself, only
    inside `async with self` (docs/deploy.md)."""
    if not roles:
        raise ValueError("a staff handler names the roles it allows")

    def decorate(handler: Handler) -> Any:
        @functools.wraps(handler)
        async def checked(self: rx.State, *args: Any, **kwargs: Any) -> Any:
            staff = await current_staff(self, roles)
            if staff is None:
                # After the page's access check sent the tab on, its redirect must win (a
                # visitor logs in and comes back here): the page's own loads stay silent.
                async with self:  # nothing in a foreground handler, which holds the lock
                    sent = await sent_on(self)
                return None if sent else staff_verify_redirect(self)
            return await handler(self, staff, *args, **kwargs)

        own, _staff, *payload = inspect.signature(handler).parameters.values()
        checked.__signature__ = inspect.signature(handler).replace(parameters=[own, *payload])
        checked.__annotations__ = {
            name: hint for name, hint in handler.__annotations__.items() if name != _staff.name
        }
        setattr(checked, STAFF_ROLES, frozenset(roles))
        return rx.event(checked, background=background)

    return decorate
