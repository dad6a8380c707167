"""What crawlers get: robots.txt keeps them to public pages, the sitemap lists each public page
in every language, and every page has a description written in every language."""

from xml.etree import ElementTree

import pytest

from app.page_meta import SITEMAP_NAMES, description, route_for, sitemap_paths
from app.robots import allowed_paths, disallowed_paths, robots_txt, sitemap_xml
from models.routes import ROUTES, route_named
from services.config import get_config
from translations.catalog import gettext
from translations.locales import LOCALES

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def _blocked(path: str) -> bool:
    """As crawlers read robots.txt: the longest matching rule wins; `$` ends a rule."""
    rules = [(rule, False) for rule in disallowed_paths()]
    rules += [(rule, True) for rule in allowed_paths()]
    matching = [
        (len(rule), allowed)
        for rule, allowed in rules
        if (path == rule[:-1] if rule.endswith("$") else path.startswith(rule))
    ]
    return bool(matching) and not max(matching)[1]


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("/", "index"),
        ("/members", "members"),
        ("/members/12", "members-id"),
        ("/members/12/chat", "members-id-chat"),
        ("/credits/3/ideal", "credits-id-paymentmethod"),
        ("/credits/repeat-order", "credits-repeat-order"),
        ("/pages/terms", "pages-terms"),
        ("/terms", "token"),
        ("/landers/video/x", "landers-video"),
        ("/a/b/c", "404"),
    ],
)
def test_each_path_finds_its_route(path: str, name: str) -> None:
    assert route_for(path).name == name


def test_robots_keeps_crawlers_out_of_members_pages_profiles_and_apis() -> None:
    text = robots_txt()
    assert text.startswith("User-agent: *\nAllow: /\nAllow: /members/$\n")
    assert f"Sitemap: {get_config().public_url}/sitemap.xml" in text
    for private in ("/api/logout.php", "/media/photos/a.jpg", "/members/12", "/chats/3", "/_event"):
        assert _blocked(private), private
    for route in ROUTES:
        if route.login_required:
            assert _blocked(route.sample), route.name
    for public in ("/", "/members", "/signup", "/login", "/pricing", "/pages/terms", "/terms"):
        assert not _blocked(public), public
        assert not _blocked(f"{public.rstrip('/')}/"), public  # where the site serves it


def test_the_sitemap_lists_every_public_page_in_every_language() -> None:
    public_url = get_config().public_url
    root = ElementTree.fromstring(sitemap_xml())
    urls = root.findall(f"{SITEMAP}url")
    assert len(urls) == len(SITEMAP_NAMES) * (len(LOCALES) + 1)
    locs = {url.findtext(f"{SITEMAP}loc") for url in urls}
    for path in sitemap_paths():
        assert not _blocked(path)
        assert f"{public_url}{path}" in locs
        assert {f"{public_url}{path}?lang={locale}" for locale in LOCALES} <= locs
    links = urls[0].findall(f"{XHTML}link")
    assert [link.get("hreflang") for link in links] == [*LOCALES, "x-default"]


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != "en"])
def test_every_page_has_a_title_and_description_in_the_language(locale: str) -> None:
    for route in ROUTES:
        assert gettext(locale, route.title), (locale, route.name)
        text = gettext(locale, description(route))
        assert text and text != description(route), (locale, route.name)


def test_public_pages_describe_themselves() -> None:
    assert description(route_named("index")) != description(route_named("members"))
    assert description(route_named("members-id")) != description(route_named("settings"))
