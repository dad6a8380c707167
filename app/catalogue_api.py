"""`GET /i18n/{locale}.js`: one language's texts for the browser, as a script that files them
under `globalThis.__i18n[locale]` and tells the page (assets/shell.js `i18nText`, which the
script stands in for until shell.js has run).

A visitor downloads only their own language: the page's head loads it before the app runs
(app/document_head.py), a language switch loads the next one. `GET /i18n/regions/{locale}.js`
names the regions of the site's countries in that language, each country's in that language's
order (`models.regions.region_catalogue`), for the pages that show one, which ask for it
(assets/shell.js): the pickers and profiles name regions in the browser and follow a language
switch, with no state of theirs depending on the language. With `?v=` naming the current
version (of the texts, the region names and the site's countries) the answer may be kept for a
year; otherwise it must be revalidated."""

import hashlib
import json
from collections.abc import Awaitable, Callable
from functools import lru_cache

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from app.script_response import script_response, zipped
from models.regions import region_catalogue, regions_version
from services.site_settings import settings_or_defaults
from translations.catalog import (
    CATALOGUE_PARTS,
    browser_catalogue,
    catalogue_version,
    part_global,
)
from translations.locales import LOCALES, supported

CATALOGUE_PATH = "/i18n/{locale}.js"
REGIONS_PATH = "/i18n/regions/{locale}.js"
Countries = tuple[str, ...]
TEXTS, REGIONS = "texts", "regions"  # the kinds of script, besides each catalogue part's


def _version(countries: Countries) -> str:
    """One version for both kinds of script: the texts', the region names' and the site's
    countries' (a setting)."""
    digest = hashlib.blake2b(",".join(countries).encode(), digest_size=3).hexdigest()
    return f"{catalogue_version()}{regions_version()}{digest}"


def catalogue_url(locale: str, countries: Countries) -> str:
    return f"/i18n/{locale}.js?v={_version(countries)}"


def part_path(part: str) -> str:
    """Where a catalogue part (translations.catalog.CATALOGUE_PARTS) is served."""
    return f"/i18n/{part}/{{locale}}.js"


def part_catalogue_url(part: str, locale: str, countries: Countries) -> str:
    return f"{part_path(part).format(locale=locale)}?v={_version(countries)}"


def _script(store: str, locale: str, entries: dict[str, str | list[str]], then: str) -> str:
    """A script that files `entries` under `globalThis[store][locale]`, then runs `then`."""
    data = json.dumps(entries, ensure_ascii=False, separators=(",", ":"))
    return f"(globalThis.{store} ??= {{}})[{json.dumps(locale)}] = {data};{then}"


def catalogue_script(locale: str) -> str:
    return _script(
        "__i18n",
        locale,
        browser_catalogue(locale),
        "globalThis.i18nText ??= (key, locale) => globalThis.__i18n[locale]?.[key];"
        "globalThis.i18nLoaded?.();",
    )


def part_catalogue_script(part: str, locale: str) -> str:
    """A catalogue part's texts, filed and looked up like the others (assets/shell.js
    `i18nStaffText`, `i18nLegalText`..., which this stands in for)."""
    name = part_global(part)
    return _script(
        f"__{name}",
        locale,
        browser_catalogue(locale, part),
        f"globalThis.{name}Text ??= (key, locale) => globalThis.__{name}[locale]?.[key];"
        f"globalThis.{name}Loaded?.();",
    )


def regions_script(locale: str, countries: Countries) -> str:
    """The names of the site's countries' regions, which only a page that shows a region asks
    for (assets/shell.js `i18nRegion`); only what shows one redraws when they arrive."""
    entries = region_catalogue(countries, locale)
    return _script("__i18nRegions", locale, entries, "globalThis.i18nRegionsLoaded?.();")


def _kind_script(kind: str, locale: str, countries: Countries) -> str:
    if kind == REGIONS:
        return regions_script(locale, countries)
    return catalogue_script(locale) if kind == TEXTS else part_catalogue_script(kind, locale)


@lru_cache(maxsize=2 * (2 + len(CATALOGUE_PARTS)) * len(LOCALES))
def _script_bytes(kind: str, locale: str, countries: Countries, gzipped: bool) -> bytes:
    """Each script once per kind, locale and encoding (and list of countries, a setting that
    rarely changes)."""
    script = _kind_script(kind, locale, countries)
    return zipped(script) if gzipped else script.encode()


def _answer(kind: str) -> Callable[[Request], Awaitable[Response]]:
    async def answer(request: Request) -> Response:
        locale = supported(request.path_params["locale"])
        if locale is None or request.path_params["locale"] != locale:
            return PlainTextResponse("Not Found", status_code=404)
        countries = tuple((await settings_or_defaults(f"{request.url.path} served")).countries)
        return script_response(
            request,
            _version(countries),
            lambda gzipped: _script_bytes(kind, locale, countries, gzipped),
        )

    return answer


def catalogue_routes() -> list[Route]:
    return [
        Route(CATALOGUE_PATH, _answer(TEXTS), methods=["GET"]),
        Route(REGIONS_PATH, _answer(REGIONS), methods=["GET"]),
        *(Route(part_path(part), _answer(part), methods=["GET"]) for part in CATALOGUE_PARTS),
    ]
