"""`/robots.txt` and `/sitemap.xml`: crawlers read the public pages in every language and keep
out of the members' own pages, the profiles and the APIs. Without these routes Reflex would
answer both with the site's HTML (its `/[token]` page)."""

from xml.sax.saxutils import quoteattr

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route as HttpRoute

from app.page_meta import alternates, is_public, language_url, sitemap_paths
from models.routes import ROUTES
from services.config import get_config
from translations.locales import LOCALES

ALWAYS_PRIVATE = ("/api/", "/media/", "/_", "/members/", "/testpay/")


def _static_prefix(path: str) -> str:
    return path.split("[", 1)[0]


def disallowed_paths() -> list[str]:
    """What no crawler reads: the APIs, the photos, profiles and every page that is not public."""
    private = {_static_prefix(route.path) for route in ROUTES if not is_public(route)}
    private.update(ALWAYS_PRIVATE)
    private.discard("/")  # a prefix of every public page would hide the whole site
    return sorted(p for p in private if not any(p != q and p.startswith(q) for q in private))


def allowed_paths() -> list[str]:
    """Public pages a disallowed prefix would cover at their served address (with the trailing
    slash: /members/ under /members/), allowed exactly ($) ahead of it."""
    blocked = disallowed_paths()
    public = {f"{_static_prefix(route.path).rstrip('/')}/" for route in ROUTES if is_public(route)}
    return sorted(f"{path}$" for path in public if any(path.startswith(p) for p in blocked))


def robots_txt() -> str:
    lines = [
        "User-agent: *",
        "Allow: /",
        *(f"Allow: {path}" for path in allowed_paths()),
        *(f"Disallow: {path}" for path in disallowed_paths()),
    ]
    return "\n".join([*lines, "", f"Sitemap: {get_config().public_url}/sitemap.xml", ""])


def sitemap_xml() -> str:
    """Each public page in each language, every version naming the others (hreflang)."""
    public_url = get_config().public_url
    entries = []
    for path in sitemap_paths():
        links = "".join(
            f'<xhtml:link rel="alternate" hreflang={quoteattr(lang)} href={quoteattr(href)}/>'
            for lang, href in alternates(public_url, path)
        )
        for locale in (None, *LOCALES):
            loc = language_url(public_url, path, locale).replace("&", "&amp;")
            entries.append(f"<url><loc>{loc}</loc>{links}</url>")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">' + "".join(entries) + "</urlset>\n"
    )


async def robots(_request: Request) -> Response:
    return PlainTextResponse(robots_txt(), headers={"Cache-Control": "public, max-age=3600"})


async def sitemap(_request: Request) -> Response:
    return Response(
        sitemap_xml(),
        media_type="application/xml",
        headers={"Cache-Control": "public, max-age=3600"},
    )


def crawler_routes() -> list[HttpRoute]:
    return [
        HttpRoute("/robots.txt", robots, methods=["GET"]),
        HttpRoute("/sitemap.xml", sitemap, methods=["GET"]),
    ]
