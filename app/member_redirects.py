"""A member landing or signup page of a member the viewer may not see (hidden, banned, deleted,
invisible, blocked either way, or nobody) leads to a lander of the same niche instead of an
error (docs/acquisition.md, "Member landings"): a 307 to `/landers/gallery/{niche}`, the query
kept, so the tracking parameters reach the lander. Installed inside app/traffic_clicks.py's
middleware, so the click is still recorded, and its cookie set, on the redirect."""

import logging
import re
from dataclasses import dataclass
from datetime import date

from starlette.datastructures import Headers
from starlette.responses import RedirectResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from actions.member_pages import MemberFound, member_found, unlisted_lander
from actions.runner import read
from actions.viewer import session_token, viewer_now
from models.lander_slug import slug_of

log = logging.getLogger(__name__)
# The member's pages that lead elsewhere for an unlisted member; the profile keeps its own
# "not available" (a member may have followed a link to someone who left).
MEMBER_PAGE = re.compile(r"/members/([0-9]{1,18})/(?:landing|signup|landing[23](?:/[^/]*)?)/?")
# The scope's keys for what the check read, so that the page's writer reads neither again
# (app/document_head.py).
VIEWER_SCOPE = "viewer_id"
FOUND_SCOPE = "member_found"


@dataclass(frozen=True)
class Checked:
    viewer_id: int | None
    found: MemberFound


async def _checked(scope: Scope, member_id: int) -> Checked | None:
    """The viewer and the member as this viewer may see them; None when the check failed."""
    cookie = Headers(scope=scope).get("cookie")
    try:
        viewer = await viewer_now(session_token(cookie))
        viewer_id = viewer.member_id if viewer else None
        return Checked(viewer_id, await read(member_found, viewer_id, member_id))
    except Exception:  # the database away, or a bug: the page is served, its holders empty
        log.exception("member page %s served unchecked", scope["path"])
        return None


class UnlistedMembers:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        page = (
            MEMBER_PAGE.fullmatch(scope["path"])
            if scope["type"] == "http" and scope["method"] in ("GET", "HEAD")
            else None
        )
        checked = await _checked(scope, int(page[1])) if page else None
        if checked is None or checked.found.listed:
            if checked is not None:
                scope = {**scope, VIEWER_SCOPE: checked.viewer_id, FOUND_SCOPE: checked.found}
            await self.app(scope, receive, send)
            return
        where = unlisted_lander(checked.found, slug_of(scope["path"]), date.today())
        query = scope.get("query_string", b"").decode("latin-1")
        target = f"{where}?{query}" if query else where
        await RedirectResponse(target, status_code=307)(scope, receive, send)
