"""`GET /i18n/{locale}.js`: one language's texts for the browser, as a script that files them
under `globalThis.__i18n[locale]` and tells the page (assets/shell.js `i18nText`, which the
script stands in for until shell.js has run).

A visitor downloads only their own language: the page's head loads it before the app runs
(app/document_head.py), a language switch loads the next one. It also names the regions of
the site's countries, in that language's order (`models.regions.region_catalogue`): the
pickers and profiles name them in the browser and follow a language switch with no state of
theirs depending on the language. With `?v=` naming the current
`catalogue_version` the answer may be kept for a year (a new catalogue has a new version);
otherwise it must be revalidated."""

import hashlib
import json
from functools import lru_cache

from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from app.script_response import script_response, zipped
from models.regions import region_catalogue, regions_version
from models.site_settings import SiteSettings
from services.site_settings import site_settings
from translations.catalog import browser_catalogue, catalogue_version
from translations.locales import LOCALES, supported

CATALOGUE_PATH = "/i18n/{locale}.js"


Countries = tuple[str, ...]


def _version(countries: Countries) -> str:
    """The texts' version, the region names' and the site's countries' (a setting)."""
    digest = hashlib.blake2b(",".join(countries).encode(), digest_size=3).hexdigest()
    return f"{catalogue_version()}{regions_version()}{digest}"


def catalogue_url(locale: str, countries: Countries) -> str:
    return f"/i18n/{locale}.js?v={_version(countries)}"


def catalogue_script(locale: str, countries: Countries) -> str:
    entries = {**browser_catalogue(locale), **region_catalogue(countries, locale)}
    texts = json.dumps(entries, ensure_ascii=False, separators=(",", ":"))
    return (
        f"(globalThis.__i18n ??= {{}})[{json.dumps(locale)}] = {texts};"
        "globalThis.i18nText ??= (key, locale) => globalThis.__i18n[locale]?.[key];"
        "globalThis.i18nLoaded?.();"
    )


@lru_cache(maxsize=4 * len(LOCALES))
def _script_bytes(locale: str, countries: Countries, gzipped: bool) -> bytes:
    """The script once per locale, encoding and list of countries (the setting rarely
    changes: a few lists at most)."""
    script = catalogue_script(locale, countries)
    return zipped(script) if gzipped else script.encode()


async def catalogue(request: Request) -> Response:
    locale = supported(request.path_params["locale"])
    if locale is None or request.path_params["locale"] != locale:
        return PlainTextResponse("Not Found", status_code=404)
    countries = await site_countries()
    return script_response(
        request, _version(countries), lambda gzipped: _script_bytes(locale, countries, gzipped)
    )


async def site_countries() -> Countries:
    """The site's countries; without the database, the default ones."""
    try:
        return tuple((await site_settings()).countries)
    except SQLAlchemyError:
        return tuple(SiteSettings().countries)


def catalogue_routes() -> list[Route]:
    return [Route(CATALOGUE_PATH, catalogue, methods=["GET"])]
