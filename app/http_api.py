"""HTTP routes the browser calls outside the websocket (spec section 7), mounted before Reflex."""

import logging
from datetime import timedelta

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from actions.account_links import confirm_address, undo_deletion
from actions.browser_session import device_cookie_for, log_out, session_is_live, trade_handoff
from actions.push import subscribe_to_push
from actions.runner import act, read
from actions.signup_chat import signup_chat
from actions.viewer import DEVICE_COOKIE, SESSION_COOKIE
from app.auto_like_api import auto_like
from app.catalogue_api import catalogue_routes
from app.chat_api import chats, delete_chat, likes, send_text
from app.data_export_api import data_export_routes
from app.geocode_api import geocode
from app.mail_api import mail_events, one_click_unsubscribe, unsubscribe_page
from app.ops_api import ops_routes
from app.payments_api import discount_code, payment_webhook
from app.photo_api import photo
from app.request_auth import (
    authentication_required,
    from_our_origin,
    json_body,
    request_client,
    request_viewer,
)
from app.request_ids import RequestIds
from app.robots import crawler_routes
from app.security_headers import SecurityHeaders
from app.shell_api import shell_routes
from app.staff_api import staff_routes
from models.auth_session import SESSION_LIFETIME
from models.login_history import Seen
from models.routes import member_chat_url, url
from services import device_cookie
from services.config import PROJECT_ROOT, get_config
from services.payments.provider import TEST_PROVIDER_PATH, WEBHOOK_PATH, test_provider_serves
from services.payments.test_provider import test_provider_app
from services.web_push import push_host_allowed
from state.forms import safe_next
from state.shell import COUNTRY_HEADERS

log = logging.getLogger(__name__)


def _set_cookie(response: Response, name: str, value: str, lifetime: timedelta) -> None:
    """HttpOnly, SameSite=Lax, Secure behind HTTPS."""
    response.set_cookie(
        name,
        value,
        max_age=int(lifetime.total_seconds()),
        path="/",
        httponly=True,
        samesite="lax",
        secure=get_config().secure_cookies,
    )


def _with_device_cookie(response: Response, device: str | None) -> Response:
    """The device cookie beside the session (it outlives log-outs: services/device_cookie)."""
    if device:
        _set_cookie(response, DEVICE_COOKIE, device, device_cookie.LIFETIME)
    return response


def _seen(request: Request) -> Seen:
    """The browser logging in: its address, User-Agent and the country a proxy named. Only
    behind a trusted proxy (TRUSTED_PROXY_HOPS): without one the header is the browser's say."""
    headers = request.headers if get_config().trusted_proxy_hops > 0 else {}
    country = next((headers[h] for h in COUNTRY_HEADERS if h in headers), "")
    return Seen(request_client(request), request.headers.get("user-agent", ""), country)


async def session_handoff(request: Request) -> Response:
    """Trade the one-time code of a websocket log-in (or reset) for the session cookie (30
    days) and a fresh device cookie."""
    data = await json_body(request)
    code = data.get("code") if data else None
    if not isinstance(code, str):
        return JSONResponse({"error": "invalid_code"}, status_code=400)
    token = await act(trade_handoff, code, request.cookies.get(SESSION_COOKIE), _seen(request))
    if token is None:
        return JSONResponse({"error": "invalid_code"}, status_code=400)
    response = Response(status_code=204)
    _set_cookie(response, SESSION_COOKIE, token, SESSION_LIFETIME)
    return _with_device_cookie(response, await read(device_cookie_for, token))


async def renew_device_cookie(request: Request) -> Response:
    """POST from our own pages after a password change in settings: the new password voided
    this browser's device cookie; its live session earns it a fresh one."""
    if not from_our_origin(request):
        return JSONResponse({"error": "cross_site"}, status_code=403)
    device = await read(device_cookie_for, request.cookies.get(SESSION_COOKIE))
    if device is None:
        return authentication_required()
    return _with_device_cookie(Response(status_code=204), device)


async def activate_link(request: Request) -> Response:
    """The activation e-mail's link: confirm the address and show the outcome."""
    token = request.query_params.get("token", "")
    if not await act(confirm_address, token):
        return RedirectResponse(url("activate-error"), status_code=303)
    # a signup aimed at a member lands in the chat with them (log-in first in another browser)
    chat_with = await read(signup_chat, token)
    where = member_chat_url(chat_with) if chat_with else url("activate-done")
    return RedirectResponse(where, status_code=303)


async def reactivate_link(request: Request) -> Response:
    back = await act(undo_deletion, request.query_params.get("token", ""))
    where = url("login", reactivated=1) if back else url("activate-error", reactivate=1)
    return RedirectResponse(where, status_code=303)


def _after_logout(next_path: str | None) -> str:
    return next_path if next_path and safe_next(next_path) == next_path else "/"


def _logged_out(request: Request) -> Response:
    response = RedirectResponse(_after_logout(request.query_params.get("next")), status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    return response


async def logout(request: Request) -> Response:
    """POST from our own pages: end this browser's session, drop its cookie and go on to `next`.
    A form or fetch on another site cannot send our Origin, so it cannot log anyone out."""
    if not from_our_origin(request):
        return JSONResponse({"error": "cross_site"}, status_code=403)
    await act(log_out, request.cookies.get(SESSION_COOKIE))
    return _logged_out(request)


async def forget_ended_session(request: Request) -> Response:
    """GET, which any site can send: only a cookie whose session already ended (an account just
    deleted) is dropped on the way to `next`; a live session is left alone."""
    if await read(session_is_live, request.cookies.get(SESSION_COOKIE)):
        return RedirectResponse("/", status_code=303)
    return _logged_out(request)


async def page_hidden(request: Request) -> Response:
    log.info(
        "page hidden: path=%s bounce=%s",
        request.headers.get("referer", ""),
        "lb" in request.query_params,
    )
    return Response(status_code=204)


def _subscription_fields(data: dict) -> tuple[str, str, str] | None:
    sub = data.get("subscription")
    keys = sub.get("keys") if isinstance(sub, dict) else None
    if not isinstance(keys, dict):
        return None
    endpoint, p256dh, auth = sub.get("endpoint"), keys.get("p256dh"), keys.get("auth")
    if not all(isinstance(v, str) and v for v in (endpoint, p256dh, auth)):
        return None
    if (
        not push_host_allowed(endpoint)  # only a browser's push service is ever posted to
        or len(endpoint) > 1000
        or len(p256dh) > 200
        or len(auth) > 100
    ):
        return None
    return endpoint, p256dh, auth


async def user_push_subscription(request: Request) -> Response:
    if request.query_params.get("push") != "1":
        return JSONResponse({"error": "unsupported"}, status_code=400)
    data = await json_body(request)
    fields = _subscription_fields(data) if data is not None else None
    viewer = await request_viewer(request)
    if viewer is None:
        return authentication_required()
    if fields is None:
        return JSONResponse({"error": "invalid_subscription"}, status_code=400)
    await act(subscribe_to_push, viewer, *fields)
    return Response(status_code=204)


async def service_worker(_request: Request) -> Response:
    return FileResponse(
        PROJECT_ROOT / "assets" / "sw-push.js",
        media_type="application/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


def _test_provider() -> list[BaseRoute]:
    """The built-in payment provider, served by our own server unless Mollie is configured."""
    if not test_provider_serves():
        return []
    return [Mount(TEST_PROVIDER_PATH, app=test_provider_app())]


def http_api() -> Starlette:
    """Our routes, mounted in front of Reflex's app; the request ids and the security headers
    wrap both."""
    return Starlette(
        middleware=[Middleware(RequestIds), Middleware(SecurityHeaders)],
        routes=[
            *ops_routes(),
            Route("/api/logout.php", logout, methods=["POST"]),
            Route("/api/logout.php", forget_ended_session, methods=["GET"]),
            Route("/api/session.php", session_handoff, methods=["POST"]),
            Route("/api/device.php", renew_device_cookie, methods=["POST"]),
            Route("/api/activate.php", activate_link, methods=["GET"]),
            Route("/api/reactivate.php", reactivate_link, methods=["GET"]),
            Route("/api/page-hidden.php", page_hidden, methods=["POST"]),
            Route("/api/geocode.php", geocode, methods=["GET"]),
            Route("/api/auto-like.php", auto_like, methods=["GET"]),
            Route("/api/chats.php", chats, methods=["GET"]),
            Route("/api/chat.php", delete_chat, methods=["DELETE"]),
            Route("/api/chat.php", send_text, methods=["POST"]),
            Route("/api/likes.php", likes, methods=["GET"]),
            Route("/api/user.php", user_push_subscription, methods=["POST"]),
            Route("/api/unsubscribe.php", unsubscribe_page, methods=["GET"]),
            Route("/api/unsubscribe.php", one_click_unsubscribe, methods=["POST"]),
            Route("/api/mail-events.php", mail_events, methods=["POST"]),
            Route("/sw-push.js", service_worker, methods=["GET"]),
            Route("/media/photos/{filename}", photo, methods=["GET"]),
            Route(WEBHOOK_PATH, payment_webhook, methods=["POST"]),
            Route("/api/discountcode.php", discount_code, methods=["GET"]),
            *crawler_routes(),
            *catalogue_routes(),
            *data_export_routes(),
            *shell_routes(),
            *staff_routes(),
            *_test_provider(),
        ],
    )
