"""The variant a lander's visitor is given (models/lander_variants.py), as ASGI middleware
outside the page's writers (app/document_head.py) and the click (app/traffic_clicks.py): both
read it from the scope, so the page shown and the click recorded name the same variant. A new
visitor is drawn one by weight and keeps it in the cookie `lander.variant`."""

import random

from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from app.page_meta import route_for
from app.response_cookie import sending_cookie
from models.lander_variants import (
    COOKIE_MAX_AGE,
    VARIANT_COOKIE,
    choose,
    cookie_value,
    kept_variants,
    variants_of,
)
from services.config import get_config
from services.site_settings import settings_or_defaults

VARIANT_SCOPE = "lander_variant"  # the scope's key: the variant's name, "" for none
_draw = random.Random()
_PREFIX = "landers-"


def _lander(scope: Scope) -> str:
    """The lander a page request asks for ("" for any other request)."""
    if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
        return ""
    name = route_for(scope["path"]).name
    return name.removeprefix(_PREFIX) if name.startswith(_PREFIX) else ""


def _cookie(kept: dict[str, str]) -> str:
    secure = "; Secure" if get_config().secure_cookies else ""
    value = cookie_value(kept)
    return f"{VARIANT_COOKIE}={value}; Max-Age={COOKIE_MAX_AGE}; Path=/; SameSite=Lax{secure}"


class LanderVariants:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        lander = _lander(scope)
        if not lander:
            await self.app(scope, receive, send)
            return
        settings = await settings_or_defaults(f"variant of {scope['path']}")
        cookie = cookie_parser(Headers(scope=scope).get("cookie", "")).get(VARIANT_COOKIE)
        kept = kept_variants(cookie)
        variant = choose(variants_of(settings, lander), kept.get(lander), _draw)
        scope = {**scope, VARIANT_SCOPE: variant.name}
        if not variant.name or kept.get(lander) == variant.name:
            await self.app(scope, receive, send)
            return
        await self.app(
            scope, receive, sending_cookie(send, _cookie({**kept, lander: variant.name}))
        )
