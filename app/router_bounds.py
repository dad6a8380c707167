"""Bounds on what a tab's router data can hold, applied before Reflex stores it.

Reflex keeps an event's router data in the tab's root state for the state's lifetime, several
times over (the raw dict, the page data and the URL data): the address the browser reports
(`asPath`, `pathname`, `query`), the connection's headers, its client address and the tab's
token. Every one of them comes from the visitor, so each is bounded here. An address over
`MAX_ADDRESS` is cut to its path (the query string and fragment go, with the query parameters
that came from them); the headers are cut to the few the server reads; browser storage values
sent with the hydrate are cut like the drafts they hold.
"""

from collections.abc import Mapping
from urllib.parse import parse_qs

from starlette.requests import cookie_parser

from actions.viewer import DEVICE_COOKIE, SESSION_COOKIE
from services.click_cookie import CLICK_COOKIE
from state.shell import COUNTRY_HEADERS
from translations.locales import LOCALE_COOKIE

# Characters of a page address: links and proxies keep addresses under about 2 KB; ours are far
# shorter (the longest, a log-in's `next`, is cut at 500).
MAX_ADDRESS = 2048
MAX_PARAMS = 32  # query parameters kept; our pages read at most a few
MAX_PARAM_NAME = 64
MAX_HEADER = 512  # characters of a kept header: a browser's user agent is about 150-300
MAX_COOKIE = 128  # a session token is 43 characters, a device cookie 75, a click's at most 100
MAX_TOKEN = 64  # Reflex's client token is a UUID of 36 characters
MAX_CLIENT_IP = 45  # the longest written IPv6 address
MAX_STORED = 2000  # a browser-storage value: the signup draft's own cut
MAX_STORED_VARS = 64  # browser-storage values in one event; the site has about a dozen
# The headers anything on the server reads from a socket (Reflex adds asgi-scope-client).
KEPT_HEADERS = frozenset(
    {"host", "origin", "user-agent", "accept-language", "asgi-scope-client", *COUNTRY_HEADERS}
)
# The partner click's cookie too: the signup and the visitors' search read it (state/signup.py).
KEPT_COOKIES = (SESSION_COOKIE, DEVICE_COOKIE, LOCALE_COOKIE, CLICK_COOKIE)
TOKEN_CHARACTERS = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_")


def bounded_router_data(sent: object) -> dict[str, object]:
    """The page address of an event as the browser sent it, bounded: only the keys the
    frontend sends, texts only, and an address over MAX_ADDRESS cut to its path."""
    data = sent if isinstance(sent, Mapping) else {}
    path = _text(data.get("pathname"))
    if len(path) > MAX_ADDRESS:
        path = "/"
    address = _text(data.get("asPath"))
    query = _params(data.get("query"))
    if len(address) > MAX_ADDRESS or _size(query) > MAX_ADDRESS:
        from_address = set(parse_qs(address.partition("?")[2].partition("#")[0]))
        address, query = path, _route_params(query, from_address, path.split("/"))
    # A key the browser left out keeps the tab's previous value: it stays out.
    bounded = {"pathname": path, "asPath": address, "query": query}
    return {key: value for key, value in bounded.items() if key in data}


def bounded_connection(static: dict[str, object]) -> dict[str, object]:
    """Reflex's per-connection router data (headers, client address), bounded."""
    headers = static.get("headers")
    kept = {
        name: value[:MAX_HEADER]
        for name, value in (headers.items() if isinstance(headers, dict) else ())
        if name in KEPT_HEADERS and isinstance(value, str)
    }
    if cookie := _kept_cookies(headers.get("cookie") if isinstance(headers, dict) else None):
        kept["cookie"] = cookie
    return {**static, "headers": kept, "ip": _client_ip(static.get("ip"))}


def acceptable_token(query_string: str) -> bool:
    """Whether a connection has one `token` (the key of the tab's state) Reflex could make:
    without one, Reflex would log every event of the socket whole."""
    tokens = parse_qs(query_string).get("token", [])
    return len(tokens) == 1 and len(tokens[0]) <= MAX_TOKEN and set(tokens[0]) <= TOKEN_CHARACTERS


def bounded_storage(values: object) -> dict[str, str]:
    """Browser-storage values (the hydrate's and update_vars_internal's `vars`), bounded."""
    if not isinstance(values, Mapping):
        return {}
    kept = (
        (name, value[:MAX_STORED])
        for name, value in values.items()
        if isinstance(name, str) and len(name) <= MAX_HEADER and isinstance(value, str)
    )
    return dict(list(kept)[:MAX_STORED_VARS])


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _params(value: object) -> dict[str, object]:
    """Query parameters: names and values texts (a catch-all segment: a list of texts)."""
    if not isinstance(value, Mapping):
        return {}
    kept = {}
    for name, param in value.items():
        if len(kept) == MAX_PARAMS:
            break
        if isinstance(name, str) and len(name) <= MAX_PARAM_NAME and _is_param(param):
            kept[name] = param
    return kept


def _is_param(value: object) -> bool:
    return isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(item, str) for item in value)
    )


def _size(query: dict[str, object]) -> int:
    return sum(len(name) + len(_joined(value)) for name, value in query.items())


def _joined(value: object) -> str:
    return "".join(value) if isinstance(value, list) else _text(value)


def _route_params(
    query: dict[str, object], from_address: set[str], segments: list[str]
) -> dict[str, object]:
    """The parameters a dynamic route takes from the path (its segments), not the address."""
    return {
        name: value
        for name, value in query.items()
        if name not in from_address
        and all(item in segments for item in (value if isinstance(value, list) else [value]))
    }


def _kept_cookies(header: object) -> str:
    """Only the cookies the server reads from a socket (session, device, chosen language),
    bounded."""
    cookies = cookie_parser(header) if isinstance(header, str) else {}
    return "; ".join(
        f"{name}={cookies[name][:MAX_COOKIE]}" for name in KEPT_COOKIES if cookies.get(name)
    )


def _client_ip(value: object) -> str:
    return _text(value)[:MAX_CLIENT_IP]
