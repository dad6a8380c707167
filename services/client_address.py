"""The key a client's throttles count under: its address as Reflex resolved it (behind
`TRUSTED_PROXY_HOPS` reverse proxies, from X-Forwarded-For), an IPv6 address by its /64, since
one subscriber holds a whole /64 and could otherwise rotate through it."""

from collections.abc import Mapping
from ipaddress import IPv6Network, ip_address
from typing import Any

from starlette.datastructures import Headers

from services.config import get_config

MAX_KEY_LENGTH = 64


def client_key(address: str | None) -> str:
    try:
        parsed = ip_address((address or "").strip())
    except ValueError:
        return (address or "")[:MAX_KEY_LENGTH]
    if parsed.version == 4:
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(IPv6Network((parsed, 64), strict=False))


def forwarded_client(peer: str, forwarded_for: str, trusted_hops: int) -> str:
    """The client's address as Reflex resolves a websocket's: behind `trusted_hops` reverse
    proxies, the one the outermost trusted proxy saw (the Nth from the right of
    X-Forwarded-For), else the connection's peer."""
    hops = [address.strip() for address in forwarded_for.split(",") if address.strip()]
    if trusted_hops and len(hops) >= trusted_hops:
        return hops[-trusted_hops]
    return peer


def scope_client(scope: Mapping[str, Any]) -> str:
    """The key of the client of an HTTP request or websocket (its ASGI scope). Repeated
    X-Forwarded-For lines count as one list, in order, as Reflex reads a websocket's."""
    peer = (scope.get("client") or ("",))[0]
    forwarded = ", ".join(Headers(scope=scope).getlist("x-forwarded-for"))
    return client_key(forwarded_client(peer, forwarded, get_config().trusted_proxy_hops))
