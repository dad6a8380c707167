"""`GET /i18n/{locale}.js`: one language's texts for the browser, as a script that files them
under `globalThis.__i18n[locale]` and tells the page (assets/shell.js `i18nText`, which the
script stands in for until shell.js has run).

A visitor downloads only their own language: the page's head loads it before the app runs
(app/document_head.py), a language switch loads the next one. With `?v=` naming the current
`catalogue_version` the answer may be kept for a year (a new catalogue has a new version);
otherwise it must be revalidated."""

import json
from functools import cache

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from app.script_response import script_response, zipped
from translations.catalog import browser_catalogue, catalogue_version
from translations.locales import supported

CATALOGUE_PATH = "/i18n/{locale}.js"


def catalogue_url(locale: str) -> str:
    return f"/i18n/{locale}.js?v={catalogue_version()}"


def catalogue_script(locale: str) -> str:
    texts = json.dumps(browser_catalogue(locale), ensure_ascii=False, separators=(",", ":"))
    return (
        f"(globalThis.__i18n ??= {{}})[{json.dumps(locale)}] = {texts};"
        "globalThis.i18nText ??= (key, locale) => globalThis.__i18n[locale]?.[key];"
        "globalThis.i18nLoaded?.();"
    )


@cache
def _script_bytes(locale: str, gzipped: bool) -> bytes:
    """The script once per locale and encoding (11 x 2 at most)."""
    script = catalogue_script(locale)
    return zipped(script) if gzipped else script.encode()


async def catalogue(request: Request) -> Response:
    locale = supported(request.path_params["locale"])
    if locale is None or request.path_params["locale"] != locale:
        return PlainTextResponse("Not Found", status_code=404)
    return script_response(
        request, catalogue_version(), lambda gzipped: _script_bytes(locale, gzipped)
    )


def catalogue_routes() -> list[Route]:
    return [Route(CATALOGUE_PATH, catalogue, methods=["GET"])]
