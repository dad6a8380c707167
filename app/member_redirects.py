"""A member landing or signup page of a member the viewer may not see (hidden, banned, deleted,
invisible, blocked either way, or nobody) leads to a lander of the same niche instead of an
error (docs/acquisition.md, "Member landings"): a 307 to `/landers/gallery/{niche}`, the query
kept, so the tracking parameters reach the lander. Installed inside app/traffic_clicks.py's
middleware, so the click is still recorded, and its cookie set, on the redirect."""

import logging
import re
from datetime import date

from starlette.datastructures import Headers
from starlette.responses import RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from actions.member_pages import member_found, unlisted_lander
from actions.runner import read
from actions.viewer import resolve_viewer, session_token
from models.lander_slug import slug_of

log = logging.getLogger(__name__)
# The member's pages that lead elsewhere for an unlisted member; the profile keeps its own
# "not available" (a member may have followed a link to someone who left).
MEMBER_PAGE = re.compile(r"/members/([0-9]{1,18})/(?:landing|signup|landing[23](?:/[^/]*)?)/?")


async def _redirect_for(scope: Scope, member_id: int) -> str | None:
    """Where the page leads instead; None when it shows the member, or when the check failed."""
    cookie = Headers(scope=scope).get("cookie")
    try:
        viewer = await read(resolve_viewer, session_token(cookie))
        found = await read(member_found, viewer.member_id if viewer else None, member_id)
    except Exception:  # the database away, or a bug: the page is served, its holders empty
        log.exception("member page %s served unchecked", scope["path"])
        return None
    if found.listed:
        return None
    return unlisted_lander(found, slug_of(scope["path"]), date.today())


class UnlistedMembers:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        page = (
            MEMBER_PAGE.fullmatch(scope["path"])
            if scope["type"] == "http" and scope["method"] in ("GET", "HEAD")
            else None
        )
        where = await _redirect_for(scope, int(page[1])) if page else None
        if where is None:
            await self.app(scope, receive, send)
            return
        query = scope.get("query_string", b"").decode("latin-1")
        target = f"{where}?{query}" if query else where
        await RedirectResponse(target, status_code=307)(scope, receive, send)
