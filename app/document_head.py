"""The server's HTML in the visitor's language, as ASGI middleware around Reflex's pages.

Reflex prerenders every page once, in no language. For each HTML answer this rewrites
`<html lang>`, the title, the meta description and the link-preview tags into the locale the
visitor's browser will show (the locale cookie, else `Accept-Language`, else the
`domain_language` setting, else en: `translations.locales.resolve_locale`), and adds the
canonical URL and, on public pages, each language's URL (`?lang=xx`, which is an explicit
choice and is kept in the locale cookie), and loads that language's texts before the app runs
(app/catalogue_api.py), and writes the page's texts in that language in place of the marks
Reflex's prerender left (translations/prerender_marks.py). When the cookie or the browser named
the language, `<html data-locale>` carries it and the browser's first render, in that language,
takes over the painted page (state/i18n.py), without waiting for the websocket. The site's name
and company details go in the same way, as `<html data-site>` (state/site_info.py), and so do
/members' first page of results (components/first_results.py) and the parts the server writes
for each request: a lander's members (components/landers/, served at any slug:
app/stand_in_pages.py) and a member's page (components/server_parts.py). The answer varies by
cookie and language, so its validators go, and it is private (a member's search is in it)."""

import gzip
import logging
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

from sqlalchemy.exc import SQLAlchemyError
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from actions.viewer import session_token, viewer_now
from app.catalogue_api import Countries, catalogue_url, part_catalogue_url
from app.deferred_boot import deferred_boot
from app.lander_variants import VARIANT_SCOPE
from app.member_redirects import FOUND_SCOPE, VIEWER_SCOPE
from app.page_meta import (
    LANG_PARAM,
    alternates,
    description,
    is_public,
    language_url,
    route_for,
)
from app.stand_in_pages import prerendered_path
from components.first_results import MARK, first_results_html
from components.landers.writers import LANDER_PARTS
from components.member_landings.writers import MEMBER_PARTS
from components.server_parts import PageRequest, ServerParts
from models.legal.registry import LEGAL_SLUGS
from models.routes import url
from models.site_settings import SiteSettings
from services.config import get_config
from services.site_settings import settings_or_defaults
from state.site_info import site_attribute, site_info, with_site_info
from translations.catalog import LEGAL, STAFF, gettext
from translations.locales import (
    LOCALE_COOKIE,
    LOCALE_COOKIE_MAX_AGE,
    parse_accept_language,
    resolve_locale,
    supported,
)
from translations.prerender_marks import filled

log = logging.getLogger(__name__)

MAX_HTML_BYTES = 512 * 1024  # Reflex's pages are a few KB; anything larger passes untouched
VARY = "Cookie, Accept-Language"
_CONDITIONAL = (b"if-none-match", b"if-modified-since")
_HTML_OPEN = '<html lang="en">'


@dataclass(frozen=True)
class DocumentLocale:
    locale: str
    known: bool  # the cookie, the link or the browser named it: no need to wait for the server
    chosen: str | None  # a supported `?lang=` on the URL, to keep in the cookie


def document_locale(
    cookie: str | None, accept_language: str | None, lang_param: str | None, domain_language: str
) -> DocumentLocale:
    chosen = supported(lang_param)
    cookie = chosen or cookie
    named = supported(cookie) or any(map(supported, parse_accept_language(accept_language)))
    locale = resolve_locale(cookie, None, accept_language, domain_language)
    return DocumentLocale(locale, bool(named), chosen)


def head_tags(path: str, query_lang: str | None, locale: str, site_name: str) -> str:
    """Title, description, preview and language links of `path`, in `locale`."""
    route = route_for(path)
    title = escape(gettext(locale, route.title))
    text = escape(gettext(locale, description(route)), quote=True)
    public_url = get_config().public_url
    tags = [
        f"<title>{title}</title>",
        f'<meta name="description" content="{text}"/>',
        f'<meta property="og:title" content="{title}"/>',
        f'<meta property="og:description" content="{text}"/>',
        f'<meta property="og:site_name" content="{escape(site_name, quote=True)}"/>',
        f'<meta property="og:locale" content="{locale}"/>',
        f'<link rel="canonical" href="{escape(language_url(public_url, path, query_lang))}"/>',
    ]
    if is_public(route):
        tags += [
            f'<link rel="alternate" hreflang="{lang}" href="{escape(href)}"/>'
            for lang, href in alternates(public_url, path)
        ]
    return "".join(tags)


def _without_prerendered_tags(head: str) -> str:
    """Reflex's own English title and description (a page may lack either)."""
    start = head.find("<title>")
    if start >= 0:
        head = head[:start] + head[head.index("</title>", start) + len("</title>") :]
    marker = 'name="description"'
    while (found := head.find(marker)) >= 0:
        start, end = head.rfind("<meta", 0, found), head.index(">", found) + 1
        head = head[:start] + head[end:]
    return head


STAFF_ROOT = url("staff")
_LEGAL_PATHS = frozenset(
    path for slug in LEGAL_SLUGS for path in (url(f"pages-{slug}"), f"/{slug}")
)
# Which pages show each catalogue part's texts (translations.catalog.CATALOGUE_PARTS).
PART_PAGES: dict[str, Callable[[str], bool]] = {
    STAFF: lambda path: path == STAFF_ROOT or path.startswith(f"{STAFF_ROOT}/"),
    LEGAL: lambda path: path.rstrip("/") in _LEGAL_PATHS,
}


def part_urls(path: str, document: DocumentLocale, countries: Countries) -> tuple[str, ...]:
    """The catalogue parts the page shows texts of, which other pages never load."""
    return tuple(
        part_catalogue_url(part, document.locale, countries)
        for part, shows in PART_PAGES.items()
        if shows(path)
    )


def localized_html(html: str, path: str, document: DocumentLocale, settings: SiteSettings) -> str:
    """The page with its language, title, description and links rewritten for `document`, and
    the site's name and company details (`state.site_info.site_info`) written in."""
    site = site_info(settings)
    head_end = html.find("</head>")
    if head_end < 0:
        return html
    attributes = f'lang="{document.locale}"'
    if document.known:
        attributes += f' data-locale="{document.locale}"'
    attributes += f" {site_attribute(site)}"
    head = _without_prerendered_tags(html[:head_end]).replace(_HTML_OPEN, f"<html {attributes}>")
    tags = head_tags(path, document.chosen, document.locale, site["name"])
    # Last in the head: React hydrates the head's own elements by their place. Deferred: the
    # page is already in its language, only the app needs them; app/deferred_boot.py fetches
    # them after the first paint and starts the app once they ran.
    countries = tuple(settings.countries)
    texts = "".join(
        f'<script defer="" src="{src}"></script>'
        for src in (
            catalogue_url(document.locale, countries),
            *part_urls(path, document, countries),
        )
    )
    body = filled(with_site_info(html[head_end:], site), document.locale)
    return deferred_boot(head + tags + texts + body)


def _locale_cookie(locale: str) -> str:
    secure = "; Secure" if get_config().secure_cookies else ""
    return (
        f"{LOCALE_COOKIE}={locale}; Max-Age={LOCALE_COOKIE_MAX_AGE}; Path=/; SameSite=Lax{secure}"
    )


def _may_be_page(scope: Scope) -> bool:
    """A GET or HEAD of a path without a file extension outside our APIs and Reflex's."""
    if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
        return False
    path: str = scope["path"]
    return "." not in path.rsplit("/", 1)[-1] and not path.startswith(
        ("/api/", "/_", "/media/", "/testpay")
    )


def request_locale(scope: Scope, domain_language: str) -> DocumentLocale:
    headers = Headers(scope=scope)
    cookies = SimpleCookie()
    cookies.load(headers.get("cookie", ""))
    cookie = cookies[LOCALE_COOKIE].value if LOCALE_COOKIE in cookies else None
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    lang_param = query.get(LANG_PARAM, [None])[-1]
    return document_locale(cookie, headers.get("accept-language"), lang_param, domain_language)


async def _viewer_id(headers: Headers) -> int | None:
    viewer = await viewer_now(session_token(headers.get("cookie")))
    return viewer.member_id if viewer else None


async def _first_results(scope: Scope, settings: SiteSettings, locale: str) -> str:
    """The search's first page for the member whose session the request carries, or for a
    visitor; without the database, nothing (the page's state brings it)."""
    headers = Headers(scope=scope)
    try:
        return await first_results_html(await _viewer_id(headers), headers, settings, locale)
    except SQLAlchemyError:
        log.warning("page %s served without its first results", scope["path"])
        return ""


SERVER_PARTS: tuple[ServerParts, ...] = (LANDER_PARTS, MEMBER_PARTS)


async def _with_server_parts(page: str, scope: Scope, settings: SiteSettings, locale: str) -> str:
    """`page` with the parts the server writes for this request (components/server_parts.py);
    on any failure, a writer's holders are left empty and the page is served."""
    families = [parts for parts in SERVER_PARTS if parts.prefix in page]
    if not families:
        return page
    headers = Headers(scope=scope)
    try:
        viewer_id = scope[VIEWER_SCOPE] if VIEWER_SCOPE in scope else await _viewer_id(headers)
    except SQLAlchemyError:
        log.exception("page %s served without its viewer", scope["path"])
        viewer_id = None
    variant, member = scope.get(VARIANT_SCOPE, ""), scope.get(FOUND_SCOPE)
    request = PageRequest(scope["path"], headers, settings, locale, viewer_id, variant, member)
    for family in families:
        try:
            written = await family.write(request)
        except Exception:  # whatever failed, the page is served with empty holders
            log.exception("page %s served without its %s parts", scope["path"], family.family)
            written = {}
        page = family.fill(page, written)
    return page


class DocumentHead:
    """Rewrites HTML answers to page requests (see the module's docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _may_be_page(scope):
            await self.app(scope, receive, send)
            return
        # The file's validators do not describe our answer: always fetch the whole page, as
        # body messages (not granian's send-this-path extension, which would skip us). A HEAD
        # is answered as the GET would be, without the body.
        head = scope["method"] == "HEAD"
        scope = {
            **scope,
            "method": "GET",
            "headers": [(k, v) for k, v in scope["headers"] if k.lower() not in _CONDITIONAL],
            "extensions": {
                name: value
                for name, value in (scope.get("extensions") or {}).items()
                if name != "http.response.pathsend"
            },
        }
        start: Message | None = None
        body: list[bytes] = []

        async def buffered_send(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                content_type = Headers(raw=message["headers"]).get("content-type", "")
                if not content_type.startswith("text/html"):
                    await send(message)
                    return
                start = message
                return
            if start is None:
                await send(message)
                return
            body.append(message.get("body", b""))
            if sum(map(len, body)) > MAX_HTML_BYTES:
                await send(start)
                await send({**message, "body": b"" if head else b"".join(body)})
                start = None
                return
            if not message.get("more_body", False):
                page_start, page = await self._localized(scope, start, b"".join(body))
                await send(page_start)
                await send({"type": "http.response.body", "body": b"" if head else page})

        # A lander's slug is served its route's prerendered page (app/stand_in_pages.py);
        # the rewriting below still reads the address asked for.
        served = prerendered_path(scope["path"])
        inner = {**scope, "path": served, "raw_path": served.encode()}
        await self.app(inner, receive, buffered_send)

    async def _localized(self, scope: Scope, start: Message, body: bytes) -> tuple[Message, bytes]:
        """The response start and body of the page rewritten for the request's locale."""
        # without the database the page still loads, in its language
        settings = await settings_or_defaults(f"page {scope['path']} served")
        headers = MutableHeaders(raw=list(start["headers"]))
        zipped = headers.get("content-encoding") == "gzip"
        html = (gzip.decompress(body) if zipped else body).decode("utf-8")
        document = request_locale(scope, settings.domain_language)
        page = localized_html(html, scope["path"], document, settings)
        if MARK in page:
            page = page.replace(MARK, await _first_results(scope, settings, document.locale))
        page = await _with_server_parts(page, scope, settings, document.locale)
        page = page.encode("utf-8")
        body = gzip.compress(page, compresslevel=6, mtime=0) if zipped else page
        for name in ("etag", "last-modified", "content-length"):
            del headers[name]
        headers["content-length"] = str(len(body))
        headers["cache-control"] = "private, no-cache"  # a member's page has their search in it
        headers.append("vary", VARY)
        if document.chosen:
            headers.append("set-cookie", _locale_cookie(document.chosen))
        return {**start, "headers": headers.raw}, body
