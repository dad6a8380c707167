"""The first-party cookie naming the click a visitor arrived with (models/traffic.py).

Its value is `click_id.issued_at.mac`: an HMAC-SHA256 over both, keyed with a key derived from
the server secret (services/server_keys), so a browser can neither make one up nor point it at
another click. `issued_at` is the click's time, so the cookie is void CLICK_LIFETIME after the
click, whatever the browser keeps and however often the landing is reloaded.

The click's address is kept as `address_hash`: an HMAC keyed likewise, not a plain hash that
could be reversed by trying every address."""

import hashlib
import hmac
from datetime import datetime

from starlette.requests import cookie_parser

from models.traffic import CLICK_LIFETIME
from services.server_keys import derived_key

CLICK_COOKIE = "traffic.click"
MAX_VALUE_LENGTH = 100
_PURPOSE = "traffic-click cookie"
_ADDRESS_PURPOSE = "traffic-click address"


def address_hash(address: str) -> str:
    """The keyed hash of a click's address (64 hex digits)."""
    key = derived_key(_ADDRESS_PURPOSE)
    return hmac.new(key, address.encode(), hashlib.sha256).hexdigest()


def signed(click_id: int, clicked_at: datetime) -> str:
    issued = int(clicked_at.timestamp())
    return f"{click_id}.{issued}.{_mac(click_id, issued)}"


def verified_click(cookie_header: str | None, now: datetime) -> int | None:
    """The click the request's cookie names, when we issued it less than CLICK_LIFETIME ago."""
    found = _parts(cookie_parser(cookie_header or "").get(CLICK_COOKIE) or "")
    if found is None:
        return None
    click_id, issued, mac = found
    fresh = 0 <= now.timestamp() - issued < CLICK_LIFETIME.total_seconds()
    genuine = hmac.compare_digest(mac.encode(), _mac(click_id, issued).encode())
    return click_id if fresh and genuine else None


def _parts(value: str) -> tuple[int, int, str] | None:
    parts = value.split(".")
    if len(value) > MAX_VALUE_LENGTH or len(parts) != 3:
        return None
    if not all(part.isascii() and part.isdigit() for part in parts[:2]):
        return None
    return int(parts[0]), int(parts[1]), parts[2]


def _mac(click_id: int, issued: int) -> str:
    text = f"{click_id}|{issued}".encode()
    return hmac.new(derived_key(_PURPOSE), text, hashlib.sha256).hexdigest()
