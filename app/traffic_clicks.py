"""The server-side click (docs/acquisition.md, "Traffic sources"), as ASGI middleware: a page
request whose query carries tracking parameters (network, ref, sub1-3, the network's click id)
on a page visitors may open is recorded once (actions/traffic.py), and the answer sets the
signed first-party cookie that names the click (services/click_cookie.py). A reload with the
same parameters reuses the click its cookie names (and signs its time again, so the cookie
ends with the click); a request that records nothing (too many from one address, a failure)
is served as if it had no parameters."""

import logging
from urllib.parse import parse_qsl

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from actions.runner import act
from actions.traffic import record_landing
from app.document_head import request_locale
from app.lander_variants import VARIANT_SCOPE
from app.page_meta import NOT_FOUND, route_for
from app.response_cookie import sending_cookie
from models.lander_slug import parse_slug, slug_of
from models.member import utcnow
from models.routes import Route
from models.traffic import CLICK_LIFETIME, Landing, lander_of, tracking_from_query
from services.click_cookie import CLICK_COOKIE, address_hash, signed, verified_click
from services.client_address import scope_client
from services.config import get_config
from services.crawlers import is_bot
from services.site_settings import settings_or_defaults

log = logging.getLogger(__name__)
MAX_QUERY_LENGTH = 2048  # more is no network's link: not read


def niche_of(path: str) -> str:
    """The niche a lander's or member landing's optional slug names (`milf-amsterdam`: milf;
    none without one); "" on pages without a slug."""
    slug = slug_of(path)
    return "" if slug is None else parse_slug(slug).niche


def _visitable(scope: Scope) -> Route | None:
    """The route of a GET of a page a visitor may open (not the console, not a log-in page)."""
    if scope["type"] != "http" or scope["method"] != "GET":
        return None
    route = route_for(scope["path"])
    return None if route is NOT_FOUND or route.login_required or route.staff else route


def _tracking(scope: Scope) -> dict[str, str] | None:
    query: bytes = scope.get("query_string", b"")
    if len(query) > MAX_QUERY_LENGTH:
        return None
    tracking = tracking_from_query(dict(parse_qsl(query.decode("latin-1"))))
    return tracking if any(tracking.values()) else None


async def _landing(scope: Scope, route: Route, tracking: dict[str, str]) -> Landing:
    settings = await settings_or_defaults(f"click on {scope['path']}")
    user_agent = Headers(scope=scope).get("user-agent", "")
    return Landing(
        tracking=tracking,
        path=scope["path"],
        lander=lander_of(route.name),
        variant=scope.get(VARIANT_SCOPE, ""),
        niche=niche_of(scope["path"]),
        language=request_locale(scope, settings.domain_language).locale,
        address_hash=address_hash(scope_client(scope)),
        user_agent=user_agent,
        is_bot=is_bot(user_agent),
    )


def _cookie(value: str) -> str:
    secure = "; Secure" if get_config().secure_cookies else ""
    lifetime = int(CLICK_LIFETIME.total_seconds())
    return f"{CLICK_COOKIE}={value}; Max-Age={lifetime}; Path=/; HttpOnly; SameSite=Lax{secure}"


async def _click_cookie(scope: Scope, route: Route, tracking: dict[str, str]) -> str | None:
    """The Set-Cookie line of the click this request is, or None when none was recorded."""
    known = verified_click(Headers(scope=scope).get("cookie"), utcnow())
    try:
        click = await act(record_landing, await _landing(scope, route, tracking), known)
    except Exception:  # the page is served without the click, whatever failed
        log.exception("click on %s not recorded", scope["path"])
        return None
    return _cookie(signed(*click)) if click is not None else None


class TrafficClicks:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        route = _visitable(scope)
        tracking = _tracking(scope) if route else None
        cookie = await _click_cookie(scope, route, tracking) if route and tracking else None
        await self.app(scope, receive, send if cookie is None else sending_cookie(send, cookie))
