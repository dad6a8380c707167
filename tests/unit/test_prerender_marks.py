"""The prerendered page's texts: marks the page's code fills like texts, written by the server
in the visitor's language (translations/prerender_marks.py, components/i18n.py)."""

import json
import re
from html import escape

import pytest

from components.i18n import tn
from components.signup_modal import TERMS_NOTE
from tests.node import run_node
from translations.catalog import browser_key, gettext
from translations.prerender_marks import LOCALE_MARK, filled, has_leftovers, mark

CREDITS = ("{count} credit", "{count} credits")


def page_fill(text: str, **values: str) -> str:
    """What the page's code does to a text: each {name} replaced by its value."""
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


def credits_mark(count: int) -> str:
    return page_fill(mark(browser_key(None, CREDITS[0]), ("count",)), count=str(count))


def test_a_plain_text_is_written_in_the_locale() -> None:
    assert filled(f"<a>{mark(browser_key(None, 'Log in'), ())}</a>", "de") == "<a>Einloggen</a>"


@pytest.mark.parametrize(
    ("count", "polish"),
    [(0, "0 kredytów"), (1, "1 kredyt"), (2, "2 kredyty"), (5, "5 kredytów"),
     (22, "22 kredyty"), (101, "101 kredytów")],
)  # fmt: skip
def test_a_counted_text_takes_the_form_its_count_needs(count: int, polish: str) -> None:
    assert filled(credits_mark(count), "pl") == polish


def test_values_and_texts_are_escaped_once() -> None:
    react_escaped = "Ann &amp; &lt;Bo&gt;"  # how React writes a name inside the mark
    block = page_fill(mark(browser_key(None, "Block {name}"), ("name",)), name=react_escaped)
    assert filled(block, "en") == "Block Ann &amp; &lt;Bo&gt;"
    premium = mark(browser_key(None, "Get Premium to see all photos"), ())
    assert filled(f'<i title="{premium}"/>', "nl") == (
        '<i title="Word Premium om alle foto&#x27;s te zien"/>'
    )


def test_the_language_menu_shows_the_code() -> None:
    assert filled(f"<span>{LOCALE_MARK}</span>", "fi") == "<span>FI</span>"


def test_a_mark_taken_apart_is_noticed() -> None:
    whole = mark(browser_key(None, "Log in"), ())
    assert not has_leftovers(filled(f"<p>{whole}</p>", "nl"))
    assert has_leftovers(filled(f"<p>{whole[:5]}</p><p>{whole[5:]}</p>", "nl"))


def test_without_a_document_a_counted_text_is_its_filled_mark() -> None:
    """The expression the pages compile, run where Reflex prerenders (node: no document)."""
    code = re.sub(r"reflex___state\w+_i18n_state", "i18nState", str(tn(*CREDITS, 3)))
    script = (
        "const i18nVersion = 0, hydrated = false, documentLocale = 'en', isTrue = Boolean;"
        "const i18nState = {ready_rx_state_: false};"
        f"console.log(JSON.stringify({code}));"
    )
    printed = json.loads(run_node(script))
    assert printed == credits_mark(3)
    assert filled(printed, "pl") == "3 kredyty"


def test_a_text_filled_into_another_is_written_first() -> None:
    terms, privacy = "terms and conditions", "privacy statement"
    sentence = page_fill(
        mark(browser_key(None, TERMS_NOTE), ("terms", "privacy")),
        terms=mark(browser_key(None, terms), ()),
        privacy=mark(browser_key(None, privacy), ()),
    )
    written = gettext("de", TERMS_NOTE, terms=gettext("de", terms), privacy=gettext("de", privacy))
    assert filled(f"<p>{sentence}</p>", "de") == f"<p>{escape(written)}</p>"
    assert "{" not in written
