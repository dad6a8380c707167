"""One Web Push message to one browser: the payload encrypted for its subscription (RFC 8291,
aes128gcm), signed with our VAPID key (RFC 8292), posted to its push service (RFC 8030).

The endpoint comes from a browser, so it is untrusted: only the push services browsers use (and
the hosts `PUSH_SERVICE_HOSTS` adds, e.g. a local push service in tests) are ever posted to.
"""

import json
import time
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

import httpx
from pywebpush import WebPusher

from services.config import get_config
from services.push_keys import vapid
from services.tls import tls_context

# The push services of Chrome/Edge/Android, Firefox, Windows and Safari (macOS and iOS 16.4+).
KNOWN_PUSH_DOMAINS = (
    "fcm.googleapis.com",
    "push.services.mozilla.com",
    "notify.windows.com",
    "push.apple.com",
)
VAPID_LIFETIME_SECONDS = 12 * 3600  # RFC 8292 allows at most 24 hours
TIMEOUT_SECONDS = 10.0
_TRY_AGAIN = {408, 425, 429}  # 4xx statuses that say "later", not "never"


class Delivery(StrEnum):
    SENT = "sent"
    GONE = "gone"  # the subscription no longer works: forget it
    LATER = "later"  # the push service is busy or away: ask again later


@dataclass(frozen=True)
class PushTarget:
    endpoint: str
    p256dh: str
    auth: str


@dataclass(frozen=True)
class PushMessage:
    payload: dict[str, str]
    ttl: int  # seconds the push service keeps it for a browser that is offline
    urgency: str  # very-low, low, normal or high (RFC 8030 section 5.3)
    topic: str | None = None  # replaces an undelivered push with the same topic


def push_host_allowed(endpoint: str) -> bool:
    """An https endpoint of a known push service on its standard port 443, with no user part
    (or a `host[:port]` the configuration adds, exactly as written there)."""
    parts = urlsplit(endpoint)
    if parts.netloc.lower() in get_config().push_service_hosts:
        return True
    host = (parts.hostname or "").lower()
    known = any(host == domain or host.endswith("." + domain) for domain in KNOWN_PUSH_DOMAINS)
    return parts.scheme == "https" and known and parts.netloc.lower() in (host, f"{host}:443")


def delivery_of(status: int) -> Delivery:
    """201/2xx sent; 404, 410 and the other 4xx mean the subscription is unusable; 429, 5xx and
    the like: later."""
    if 200 <= status < 300:
        return Delivery.SENT
    if 400 <= status < 500 and status not in _TRY_AGAIN:
        return Delivery.GONE
    return Delivery.LATER


def vapid_contact() -> str:
    """Whom a push service may contact about our pushes: the site's https URL, else the
    address our mail comes from."""
    config = get_config()
    return config.public_url if config.secure_cookies else f"mailto:{config.mail_from}"


def _vapid_headers(endpoint: str) -> dict[str, str]:
    parts = urlsplit(endpoint)
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + VAPID_LIFETIME_SECONDS,
        "sub": vapid_contact(),
    }
    return vapid().sign(claims)


def _encrypted(target: PushTarget, payload: dict[str, str]) -> bytes:
    keys = {"p256dh": target.p256dh, "auth": target.auth}
    pusher = WebPusher({"endpoint": target.endpoint, "keys": keys})
    return pusher.encode(json.dumps(payload, separators=(",", ":")).encode())["body"]


def push_client() -> httpx.AsyncClient:
    """A client for one recipient's pushes (one connection per push service it reaches)."""
    return httpx.AsyncClient(verify=tls_context(), timeout=TIMEOUT_SECONDS, follow_redirects=False)


@dataclass(frozen=True)
class ReadyPush:
    """A push encrypted for its subscription and signed: only the posting is left."""

    endpoint: str
    body: bytes
    headers: dict[str, str]


def ready_push(target: PushTarget, message: PushMessage) -> ReadyPush | None:
    """The push for `target`; None when its endpoint or keys are unusable."""
    if not push_host_allowed(target.endpoint):
        return None
    try:
        body = _encrypted(target, message.payload)
    except ValueError:  # keys that are no P-256 point or no 16-byte secret
        return None
    headers = {
        "TTL": str(message.ttl),
        "Urgency": message.urgency,
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        **_vapid_headers(target.endpoint),
    }
    if message.topic:
        headers["Topic"] = message.topic
    return ReadyPush(target.endpoint, body, headers)


async def post_push(client: httpx.AsyncClient, push: ReadyPush) -> Delivery:
    """Post the push to its push service; what became of it."""
    try:
        response = await client.post(push.endpoint, content=push.body, headers=push.headers)
    except httpx.HTTPError:
        return Delivery.LATER
    return delivery_of(response.status_code)
