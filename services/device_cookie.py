"""The device cookie (OWASP's device cookies): a browser that logged in to an account keeps it,
so a lock of its client address (models/login.py) does not shut the account's member out.

Its value is `issued_at.mac`: an HMAC-SHA256 keyed with the server secret
(services/server_keys) over member_id|password_hash|issued_at. So each browser gets its own,
nobody can make one without the secret, it names no one and fits no other account, it is void
LIFETIME after it was issued (checked here, whatever the browser keeps) and after a password
change (settings then give this browser a fresh one: `POST /api/device.php`)."""

import hashlib
import hmac
from datetime import datetime, timedelta

from models.member import Member
from services.server_keys import server_secret

LIFETIME = timedelta(days=365)


def issue(member: Member, now: datetime) -> str | None:
    """A fresh cookie for a browser that just logged in to `member` (None without a password)."""
    if not member.password_hash:
        return None
    issued = int(now.timestamp())
    return f"{issued}.{_mac(member, issued)}"


def vouches(cookie: str, member: Member, now: datetime) -> bool:
    """Whether `cookie` was issued for `member`, under their password, less than LIFETIME ago."""
    issued, _, mac = cookie.partition(".")
    if not (issued.isascii() and issued.isdigit()) or not member.password_hash:
        return False
    fresh = now.timestamp() - int(issued) < LIFETIME.total_seconds()
    return fresh and hmac.compare_digest(mac.encode(), _mac(member, int(issued)).encode())


def _mac(member: Member, issued: int) -> str:
    text = f"{member.id}|{member.password_hash}|{issued}".encode()
    return hmac.new(server_secret(), text, hashlib.sha256).hexdigest()
