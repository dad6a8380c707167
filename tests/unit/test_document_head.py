"""The server's HTML in the visitor's language: lang, title, description, links; the middleware
keeps Content-Length true, drops the file's validators and varies by cookie and language."""

import gzip
from collections.abc import Iterator
from html import escape

import pytest
from sqlalchemy.exc import OperationalError
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

import app.document_head as document_head
import services.site_settings
from app.document_head import DocumentHead, DocumentLocale, document_locale, localized_html
from app.page_meta import HOME, PROFILE
from components.first_results import MARK as FIRST_RESULTS_MARK
from models.site_settings import SiteSettings
from services.config import get_config
from translations.catalog import browser_key, gettext
from translations.locales import LOCALES
from translations.prerender_marks import LOCALE_MARK, mark

PRERENDERED = (
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>'
    "<title>Dating and chat for adults</title>"
    '<meta content="Meet singles near you." name="description"/></head>'
    '<body><div id="root"></div></body></html>'
)
SETTINGS = SiteSettings()


@pytest.mark.parametrize(
    ("cookie", "accept", "lang", "domain", "expected"),
    [
        ("fi", "de-DE,de;q=0.9", None, "nl", DocumentLocale("fi", True, None)),
        (None, "pt-BR, de;q=0.8", None, "nl", DocumentLocale("de", True, None)),
        ("xx", None, None, "nl", DocumentLocale("nl", False, None)),
        (None, None, None, "", DocumentLocale("en", False, None)),
        ("fi", "de", "sv", "nl", DocumentLocale("sv", True, "sv")),
        (None, "no", "zz", "", DocumentLocale("nb", True, None)),
    ],
)
def test_the_locale_follows_link_cookie_browser_domain_then_en(
    cookie: str | None, accept: str | None, lang: str | None, domain: str, expected
) -> None:
    assert document_locale(cookie, accept, lang, domain) == expected


@pytest.mark.parametrize("locale", LOCALES)
def test_the_page_is_rewritten_into_the_locale(locale: str) -> None:
    html = localized_html(PRERENDERED, "/", DocumentLocale(locale, True, None), SETTINGS)
    title = gettext(locale, "Dating and chat for adults")
    opening = f'<!DOCTYPE html><html lang="{locale}" data-locale="{locale}" data-site='
    assert html.startswith(opening)
    assert html.count("<title>") == 1 and f"<title>{title}</title>" in html
    assert html.count('name="description"') == 1
    assert f'<meta name="description" content="{escape(gettext(locale, HOME))}"/>' in html
    assert f'<meta property="og:locale" content="{locale}"/>' in html
    assert html.endswith('<body><div id="root"></div></body></html>')
    if locale != "en":
        assert "Dating and chat for adults" not in html and "Meet singles near you." not in html


def test_an_unknown_locale_is_not_marked_so_the_page_waits_for_the_server() -> None:
    html = localized_html(PRERENDERED, "/", DocumentLocale("nl", False, None), SETTINGS)
    assert '<html lang="nl" data-site=' in html and "data-locale" not in html


def test_a_page_without_title_or_description_gets_both() -> None:
    bare = '<!DOCTYPE html><html lang="en"><head></head><body></body></html>'
    html = localized_html(bare, "/members/12", DocumentLocale("de", True, None), SETTINGS)
    assert f"<title>{gettext('de', 'Profile')}</title>" in html
    assert f'content="{escape(gettext("de", PROFILE))}"' in html


def test_public_pages_name_every_language_and_private_ones_only_themselves() -> None:
    public_url = get_config().public_url
    public = localized_html(PRERENDERED, "/members", DocumentLocale("en", True, "de"), SETTINGS)
    assert f'<link rel="canonical" href="{public_url}/members?lang=de"/>' in public
    for locale in LOCALES:
        assert f'hreflang="{locale}" href="{public_url}/members?lang={locale}"' in public
    assert f'hreflang="x-default" href="{public_url}/members"' in public
    private = localized_html(PRERENDERED, "/settings", DocumentLocale("en", True, None), SETTINGS)
    assert f'<link rel="canonical" href="{public_url}/settings"/>' in private
    assert "hreflang" not in private


def test_texts_are_escaped() -> None:
    settings = SiteSettings(name='A "B" <C>')
    html = localized_html(PRERENDERED, "/", DocumentLocale("en", True, None), settings)
    assert 'content="A &quot;B&quot; &lt;C&gt;"' in html


# ----- the middleware -----


async def _page(_request) -> Response:
    body = gzip.compress(PRERENDERED.encode())
    headers = {
        "content-encoding": "gzip",
        "etag": '"abc"',
        "last-modified": "Mon",
        "vary": "Origin",
    }
    return Response(body, media_type="text/html", headers=headers)


async def _conditional(request) -> Response:
    return PlainTextResponse(request.headers.get("if-none-match", "none"), media_type="text/html")


async def _script(_request) -> Response:
    return Response('<html lang="en">', media_type="application/javascript")


@pytest.fixture
def settings(monkeypatch: pytest.MonkeyPatch) -> None:
    async def site_settings() -> SiteSettings:
        return SiteSettings(name="Amorly", domain_language="nl")

    monkeypatch.setattr(services.site_settings, "site_settings", site_settings)


@pytest.fixture
def client(settings: None) -> Iterator[TestClient]:
    inner = Starlette(
        routes=[
            Route("/", _page),
            Route("/members", _page),
            Route("/plain", _conditional),
            Route("/app.js", _script),
        ]
    )
    with TestClient(DocumentHead(inner)) as test_client:
        yield test_client


def test_the_middleware_answers_in_the_cookies_language(client: TestClient) -> None:
    client.cookies.set("i18n_redirected", "pl")
    answer = client.get("/", headers={"accept-language": "de"})
    assert '<html lang="pl" data-locale="pl" data-site=' in answer.text
    assert f"<title>{gettext('pl', 'Dating and chat for adults')}</title>" in answer.text
    assert int(answer.headers["content-length"]) == answer.num_bytes_downloaded
    assert answer.headers["content-encoding"] == "gzip"
    assert "etag" not in answer.headers and "last-modified" not in answer.headers
    assert answer.headers["vary"] == "Origin, Cookie, Accept-Language"
    assert answer.headers["cache-control"] == "private, no-cache"


def test_without_cookie_or_browser_language_the_domain_language_serves(
    client: TestClient,
) -> None:
    answer = client.get("/", headers={"accept-language": ""})
    assert '<html lang="nl" data-site=' in answer.text


def test_a_language_link_is_kept_in_the_cookie(client: TestClient) -> None:
    answer = client.get("/members?lang=fi")
    assert '<html lang="fi" data-locale="fi" data-site=' in answer.text
    assert answer.headers["set-cookie"].startswith("i18n_redirected=fi; Max-Age=31536000; Path=/")


def test_the_file_validators_never_reach_the_page(client: TestClient) -> None:
    assert client.get("/plain", headers={"if-none-match": '"abc"'}).text == "none"


def test_other_answers_pass_untouched(client: TestClient) -> None:
    assert client.get("/app.js").text == '<html lang="en">'


async def test_a_page_sent_as_a_path_comes_through_as_a_rewritten_body(settings: None) -> None:
    """granian lets Starlette send a file by its path; the middleware must get the bytes."""
    seen: dict[str, object] = {}

    async def inner(scope, receive, send) -> None:
        seen["extensions"] = scope["extensions"]
        await Response(PRERENDERED, media_type="text/html")(scope, receive, send)

    sent: list[dict] = []

    async def send(message) -> None:
        sent.append(message)

    async def receive() -> dict:
        return {"type": "http.request", "body": b""}

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/",
        "query_string": b"",
        "headers": [(b"cookie", b"i18n_redirected=da")],
        "extensions": {"http.response.pathsend": {}},
    }
    await DocumentHead(inner)(scope, receive, send)
    assert seen["extensions"] == {}
    assert b'<html lang="da" data-locale="da" data-site=' in sent[-1]["body"]


def test_without_the_database_the_page_is_served_in_its_language_with_the_default_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def unreachable() -> SiteSettings:
        raise OperationalError("select", {}, ConnectionRefusedError())

    monkeypatch.setattr(services.site_settings, "site_settings", unreachable)
    with TestClient(DocumentHead(Starlette(routes=[Route("/", _page)]))) as test_client:
        answer = test_client.get("/", headers={"accept-language": "de"})
    assert answer.status_code == 200
    assert '<html lang="de" data-locale="de" data-site=' in answer.text
    assert f'content="{SiteSettings().name}"' in answer.text


def _members_page(_request) -> Response:
    body = f'<body><div id="first-results">{FIRST_RESULTS_MARK}</div></body>'
    return Response(PRERENDERED.replace('<body><div id="root"></div></body>', body),
                    media_type="text/html")  # fmt: skip


@pytest.mark.parametrize("reachable", [True, False])
def test_the_first_results_are_written_in_and_without_a_database_left_out(
    monkeypatch: pytest.MonkeyPatch, reachable: bool
) -> None:
    async def first_results(member_id, _headers, _settings, locale: str) -> str:
        if not reachable:
            raise OperationalError("select", {}, ConnectionRefusedError())
        return f"<p>{member_id} {locale}</p>"

    monkeypatch.setattr(document_head, "first_results_html", first_results)
    inner = Starlette(routes=[Route("/members", _members_page)])
    with TestClient(DocumentHead(inner)) as test_client:
        answer = test_client.get("/members", headers={"accept-language": "fi"})
    assert answer.status_code == 200 and FIRST_RESULTS_MARK not in answer.text
    shown = "<p>None fi</p>" if reachable else ""
    assert f'<div id="first-results">{shown}</div>' in answer.text


def test_the_prerendered_texts_are_written_in_the_locale() -> None:
    body = f"<body><h1>{mark(browser_key(None, 'Log in'), ())}</h1><nav>{LOCALE_MARK}</nav></body>"
    page = PRERENDERED.replace('<body><div id="root"></div></body>', body)
    html = localized_html(page, "/", DocumentLocale("nl", True, None), SETTINGS)
    assert html.endswith("<body><h1>Inloggen</h1><nav>NL</nav></body></html>")


def test_a_head_request_gets_the_gets_headers_without_a_body(client: TestClient) -> None:
    get = client.get("/", headers={"accept-language": "sv"})
    head = client.head("/", headers={"accept-language": "sv"})
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == get.headers["content-length"]
    assert head.headers["vary"] == get.headers["vary"]
