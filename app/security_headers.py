"""Security headers on every HTTP response: pages, static files, photos, our API and Reflex's.

One ASGI middleware around the whole app (`app.http_api` mounts Reflex's app inside the
Starlette app that carries it). A header a route set itself is left as it is."""

from functools import cache

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.config import get_config
from services.payments.provider import uses_test_provider

HSTS = "max-age=31536000"
MOLLIE_IMAGES = "https://www.mollie.com"


def _content_security_policy(public_origin: str) -> str:
    """What Reflex's compiled frontend needs and nothing more: its inline boot scripts and
    styles, `eval` for the scripts events run (rx.call_script), the websocket to our origin.
    No other site may frame our pages, receive a form, or be fetched from them."""
    socket = public_origin.replace("http", "ws", 1)
    provider_images = "" if uses_test_provider() else f" {MOLLIE_IMAGES}"  # method logos
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
            "style-src 'self' 'unsafe-inline'",
            f"img-src 'self' data: blob:{provider_images}",
            "font-src 'self' data:",
            f"connect-src 'self' {socket}",
            "worker-src 'self'",
            "manifest-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


@cache
def security_headers(public_origin: str) -> tuple[tuple[str, str], ...]:
    headers = [
        ("Content-Security-Policy", _content_security_policy(public_origin)),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "strict-origin-when-cross-origin"),
        ("Permissions-Policy", "geolocation=(self), camera=(), microphone=(), payment=(), usb=()"),
    ]
    if public_origin.startswith("https://"):
        headers.append(("Strict-Transport-Security", HSTS))
    return tuple(headers)


class SecurityHeaders:
    """Adds `security_headers` to each HTTP response (a websocket has no headers to add)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = security_headers(get_config().public_origin)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = MutableHeaders(scope=message)
                for name, value in headers:
                    present.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
