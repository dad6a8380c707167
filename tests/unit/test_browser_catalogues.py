"""The browser gets the texts of the visitor's language only: compiled pages name each text by
a short key, and `/i18n/{locale}.js` files one language's texts under that key, cached for a
year under the catalogues' version; mail and push texts stay on the server. `/shell.js` is
served minified, cached a year under its version."""

import ast
import gzip
import json
import re
from pathlib import Path

import pytest
import reflex as rx
from starlette.applications import Starlette
from starlette.testclient import TestClient

from app.catalogue_api import (
    catalogue_routes,
    catalogue_script,
    catalogue_url,
    part_catalogue_script,
    part_catalogue_url,
    regions_script,
)
from app.document_head import DocumentLocale, localized_html
from app.shell_api import shell_routes, shell_url
from components.i18n import t, t_choice, t_message, t_messages, tp
from models.payment_methods import METHOD_LABELS
from models.regions import regions_of
from models.site_settings import SiteSettings
from tests.node import run_node
from translations.catalog import (
    CATALOGUE_PARTS,
    SERVER_ONLY_SOURCES,
    STAFF,
    _entries,
    browser_catalogue,
    browser_key,
    browser_message,
    gettext,
    pgettext,
    plural_rule,
    server_only_texts,
)
from translations.errors import TOO_MANY_CODES
from translations.locales import LOCALES


def test_every_text_has_a_key_of_its_own() -> None:
    texts = list(_entries("en"))
    assert len(texts) > 600
    keys = {browser_key(context, msgid) for context, msgid in texts}
    assert len(keys) == len(texts)
    assert all(len(key) == 8 for key in keys)


@pytest.mark.parametrize("locale", LOCALES)
def test_each_catalogue_holds_every_text_in_its_language(locale: str) -> None:
    parts = [browser_catalogue(locale), *(browser_catalogue(locale, p) for p in CATALOGUE_PARTS)]
    catalogue = {key: text for part in parts for key, text in part.items()}
    shown = {
        key: english for key, english in _entries("en").items() if key not in server_only_texts()
    }
    assert set(catalogue) == {browser_key(c, m) for c, m in shown}
    assert sum(len(part) for part in parts) == len(catalogue)  # each text in one part only
    for (context, msgid), english in shown.items():
        found = catalogue[browser_key(context, msgid)]
        if len(english) > 1:
            assert isinstance(found, list) and len(found) == plural_rule(locale)[0]
            assert all(found)
        else:
            assert isinstance(found, str) and found


def test_a_page_carries_keys_not_translations() -> None:
    code = str(t("Log in"))
    assert json.dumps(browser_key(None, "Log in")) in code
    assert browser_catalogue("nl")[browser_key(None, "Log in")] not in code
    assert "Log in" not in code  # not even the English
    eyes = str(tp("eye colour", "Brown"))
    assert json.dumps(browser_key("eye colour", "Brown")) in eyes


def test_a_brand_name_is_written_in_as_it_is() -> None:
    assert str(t("iDEAL")) == '"iDEAL"'
    methods = str(t_choice(METHOD_LABELS, t("ideal")))
    assert '"iDEAL"' in methods and json.dumps(browser_key(None, "Credit card")) in methods


COUNTRIES = tuple(SiteSettings().countries)
BROWSER_GLOBALS = (
    "const document = {}, i18nVersion = 0, i18nStaffVersion = 0, i18nLegalVersion = 0,"
    " documentLocale = 'nl',"
    " isTrue = Boolean;"
)


def _client() -> TestClient:
    return TestClient(Starlette(routes=catalogue_routes()))


def test_a_catalogue_is_kept_a_year_under_its_version_and_gzipped() -> None:
    answer = _client().get(catalogue_url("nl", COUNTRIES))
    assert answer.status_code == 200
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert answer.headers["content-encoding"] == "gzip"
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.text == catalogue_script("nl")
    stale = _client().get("/i18n/nl.js?v=old")
    assert stale.headers["cache-control"] == "no-cache" and stale.text == answer.text
    assert len(gzip.compress(answer.content)) < 20_000  # one language, gzipped: a few KB


def test_the_staff_consoles_texts_come_apart() -> None:
    """Members never download the console's texts; a console page's head loads them."""
    decide = browser_key(None, "Decide")
    assert decide in browser_catalogue("de", STAFF) and decide not in catalogue_script("de")
    answer = _client().get(part_catalogue_url(STAFF, "de", COUNTRIES))
    assert answer.status_code == 200 and answer.text == part_catalogue_script(STAFF, "de")
    document = DocumentLocale("de", known=True, chosen=None)
    html = "<html><head></head><body></body></html>"
    staff_page = localized_html(html, "/staff/reports", document, SiteSettings())
    assert part_catalogue_url(STAFF, "de", COUNTRIES) in staff_page
    assert "/i18n/staff/" not in localized_html(html, "/members", document, SiteSettings())


def test_region_names_come_apart_for_the_site_countries_in_the_languages_order() -> None:
    regions = _client().get("/i18n/regions/pl.js")
    assert regions.status_code == 200 and "łódzkie" not in catalogue_script("pl")
    program = (
        regions_script("pl", ("PL", "NL"))
        + "const names = globalThis.__i18nRegions.pl;"
        + "console.log(JSON.stringify([names['region:PL-10'], names['regions:PL'],"
        + " names['regions:DE'] ?? null]));"
    )
    name, codes, elsewhere = json.loads(run_node(program))
    assert name == "łódzkie" and elsewhere is None  # only the site's countries
    assert codes == [code for code, _name in regions_of("PL", "pl")] and len(codes) == 16
    assert catalogue_url("pl", ("PL", "NL")) != catalogue_url("pl", ("PL",))


@pytest.mark.parametrize("path", ["/i18n/xx.js", "/i18n/NL.js", "/i18n/nl-BE.js", "/i18n/..js"])
def test_only_our_languages_are_served(path: str) -> None:
    assert _client().get(path).status_code == 404


def test_the_script_files_the_texts_and_looks_them_up_in_node() -> None:
    key = browser_key(None, "Log in")
    program = (
        catalogue_script("nl")
        + f"console.log(JSON.stringify([globalThis.i18nText({json.dumps(key)}, 'nl'),"
        + f" globalThis.i18nText({json.dumps(key)}, 'de') ?? null]));"
    )
    assert json.loads(run_node(program)) == [browser_catalogue("nl")[key], None]


def test_a_value_is_filled_in_as_it_is_written() -> None:
    """JavaScript's replace reads `$&`, `$'` and `` $` `` in a replacement string as patterns:
    a member named "$&" or an amount must still show literally."""
    value = "$&$'$`"
    code = re.sub(r"reflex___state\w+_i18n_state", "i18nState", str(t("Block {name}", name=value)))
    program = (
        catalogue_script("nl")
        + BROWSER_GLOBALS
        + "const i18nState = {ready_rx_state_: false};"
        + f"console.log(JSON.stringify({code}));"
    )
    dutch = browser_catalogue("nl")[browser_key(None, "Block {name}")]
    assert json.loads(run_node(program)) == dutch.replace("{name}", value) == f"{value} blokkeren"


def test_a_text_the_server_picked_is_written_in_the_pages_language() -> None:
    """A state keeps an error as a browser_message: the browser writes it in the language the
    page shows now (after a switch too), its values as they are written."""
    value = "$&$'$`"
    error, errors = browser_message(TOO_MANY_CODES, minutes=value), {"iban": {}}
    state = "{ready_rx_state_: true, locale_rx_state_: 'de'}"
    program = (
        catalogue_script("de")
        + BROWSER_GLOBALS
        + f"const i18nState = {state};"
        + f"const error = {json.dumps(error)}, errors = {json.dumps(errors)};"
    )
    shown = [t_message(rx.Var("error")), t_message(rx.Var("({})")), t_messages(rx.Var("errors"))]
    codes = [re.sub(r"reflex___state\w+_i18n_state", "i18nState", str(code)) for code in shown]
    program += f"console.log(JSON.stringify([{', '.join(codes)}]));"
    german = gettext("de", TOO_MANY_CODES, minutes=value)
    assert json.loads(run_node(program)) == [german, "", {"iban": ""}]
    assert "$&" in german and german != gettext("en", TOO_MANY_CODES, minutes=value)


def test_the_page_loads_its_languages_texts_after_reacts_own_head() -> None:
    html = (
        '<html lang="en"><head><meta charSet="utf-8"/><link rel="modulepreload" href="/a.js"/>'
        "<script>theme()</script><title>x</title></head>"
        '<body><script type="module" async="">import("/a.js");</script></body></html>'
    )
    page = localized_html(html, "/", DocumentLocale("pl", True, None), SiteSettings())
    texts = f'<script type="text/x-after-paint" src="{catalogue_url("pl", COUNTRIES)}"></script>'
    # Held until the first paint (app/deferred_boot.py), after every element React hydrates in
    # the head by its place.
    assert page.index("theme()") < page.index(texts + "</head>")
    assert 'rel="modulepreload"' not in page  # the app's modules come after the first paint


def test_mail_and_push_texts_stay_on_the_server() -> None:
    server_only = server_only_texts()
    assert len(server_only) > 40
    mail_only = (None, "Amount paid")  # services/receipt_mail.py alone
    assert mail_only in server_only
    assert browser_key(*mail_only) not in browser_catalogue("nl")
    assert pgettext("nl", *mail_only) != mail_only[1]  # still translated, on the server
    shared = (None, "Address")  # in a receipt and on the direct debit page
    assert shared not in server_only and browser_key(*shared) in browser_catalogue("nl")


ROOT = Path(__file__).resolve().parents[2]


def _names_imported_from(path: Path) -> set[str]:
    """The modules `path` takes names from (a text is a name; `import x` only runs x)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None
    }


def test_no_screen_imports_a_server_only_source() -> None:
    """What a screen could hand the browser is never defined only in a mail or push module."""
    server_only = {source.removesuffix(".py").replace("/", ".") for source in SERVER_ONLY_SOURCES}
    screens = [
        path for folder in ("app", "components", "state") for path in (ROOT / folder).rglob("*.py")
    ]
    assert len(screens) > 50
    importing = {
        str(path.relative_to(ROOT)) for path in screens if _names_imported_from(path) & server_only
    }
    assert importing == set()


def test_the_shell_is_minified_and_kept_a_year_under_its_version() -> None:
    client = TestClient(Starlette(routes=shell_routes()))
    answer = client.get(shell_url())
    source = (ROOT / "assets" / "shell.js").read_text(encoding="utf-8")
    assert answer.status_code == 200 and answer.headers["content-encoding"] == "gzip"
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "function pageReady()" in source and "function pageReady(){" in answer.text
    assert len(answer.text) < 0.75 * len(source)  # no comments, no indentation
    assert client.get("/shell.js").headers["cache-control"] == "no-cache"
