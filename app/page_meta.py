"""What a page tells search engines and link previews: its route for a path, its title and
description msgids, whether it is public (crawled, in the sitemap), and its language links.

The locale is not in the path: `?lang=xx` on any public page is an explicit language choice
(the document middleware keeps it in the locale cookie), so each language has its own URL."""

import re
from functools import cache
from urllib.parse import urlencode

from models.routes import ROUTES, Route, route_named
from translations.catalog import N_
from translations.locales import LOCALES

LANG_PARAM = "lang"
NOT_FOUND = Route("404", "/404", N_("Page not found"))

HOME = N_(
    "Meet singles near you: sign up for free, browse profiles with photos, like members and chat "
    "in your own language."
)
SEARCH = N_(
    "Search singles by gender, age and place, look at their photos and profiles and start a chat."
)
PROFILE = N_("See this member's photos and profile, send a like or start a chat.")
ACCOUNT = N_("Create your free account or log in to like members, chat and send gifts.")
CREDITS = N_(
    "Credits for chatting and gifts, bought once as a bundle: no subscription, paid securely."
)
INFO = N_(
    "Terms, privacy and cookie policy, customer service and answers to frequently asked questions."
)
MEMBERS_AREA = N_("Dating and chat for adults: meet singles, like them and chat with them.")

_DESCRIPTIONS = {
    "index": HOME,
    "members": SEARCH,
    "members-id": PROFILE,
    "likes-m-id": PROFILE,
    "members-id-landing": PROFILE,
    "members-id-landing2": PROFILE,
    "members-id-landing3": PROFILE,
    "members-id-signup": ACCOUNT,
    "signup": ACCOUNT,
    "login": ACCOUNT,
    "reset-password": ACCOUNT,
    "reset-password-do": ACCOUNT,
    "complete-signup": ACCOUNT,
    "activate-done": ACCOUNT,
    "activate-error": ACCOUNT,
    "mail-change-do": ACCOUNT,
    "unsubscribe": ACCOUNT,
    "account-deleted": ACCOUNT,
    "lang-config": ACCOUNT,
    "credits": CREDITS,
    "credits-id-paymentmethod": CREDITS,
    "credits-repeat-order": CREDITS,
    "pricing": CREDITS,
    "premium": CREDITS,
    "directdebit": CREDITS,
    "transactions": CREDITS,
    "transactions-id": CREDITS,
    "token": INFO,
    "complaints": INFO,
}
# Public pages worth a search result: each language's URL is in the sitemap.
SITEMAP_NAMES = (
    "index", "members", "signup", "login", "pricing", "complaints",
    *(route.name for route in ROUTES if route.name.startswith("pages-")),
)  # fmt: skip


def description(route: Route) -> str:
    """The msgid of the route's meta description."""
    if route.name.startswith("pages-"):
        return INFO
    if route.name.startswith("landers-"):
        return HOME
    return _DESCRIPTIONS.get(route.name, MEMBERS_AREA)


def _part_regex(part: str) -> str:
    if part.startswith("/[["):
        return "(?:/.*)?"
    return "[^/]+" if part.startswith("[") else re.escape(part)


def _pattern(path: str) -> re.Pattern[str]:
    """Reflex's route syntax as a regular expression: [x] one segment, [[...x]] any tail."""
    parts = re.split(r"(/\[\[\.\.\.\w+\]\]|\[\w+\])", path)
    regex = "".join(map(_part_regex, parts))
    return re.compile(f"{regex}/?")


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], Route], ...]:
    """Fixed paths before paths with segments, so /pages/terms is not taken for /[token]."""
    ordered = sorted(ROUTES, key=lambda route: ("[" in route.path, route.path == "/[token]"))
    return tuple((_pattern(route.path), route) for route in ordered)


def route_for(path: str) -> Route:
    """The route that serves `path`, or the not-found page."""
    return next((route for pattern, route in _patterns() if pattern.fullmatch(path)), NOT_FOUND)


def is_public(route: Route) -> bool:
    """Crawlers may read it: no log-in, not a member's profile and not a member's own page."""
    return route.name in SITEMAP_NAMES or description(route) in (HOME, INFO)


def language_url(public_url: str, path: str, locale: str | None) -> str:
    """The absolute URL of `path` in `locale` (None: the visitor's own language)."""
    query = f"?{urlencode({LANG_PARAM: locale})}" if locale else ""
    return f"{public_url}{path}{query}"


def alternates(public_url: str, path: str) -> list[tuple[str, str]]:
    """(hreflang, URL) of each language's version of a public page, and x-default."""
    return [
        *((locale, language_url(public_url, path, locale)) for locale in LOCALES),
        ("x-default", language_url(public_url, path, None)),
    ]


def sitemap_paths() -> list[str]:
    """Where the site serves its public pages: every page but / with a trailing slash."""
    return [route_named(name).path.rstrip("/") + "/" for name in SITEMAP_NAMES]
