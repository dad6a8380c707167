"""What a page says, checked against the language it is in: English interface text on another
language's page, another language's texts on a page, counted texts in a form their count does
not take, marks of the prerendered page that were never written as texts."""

import re
from functools import cache
from html import unescape

from translations.catalog import browser_catalogue, gettext, plural_index

# English interface text a visitor of another language must never see (matched as whole words).
ENGLISH_UI_TEXT = (
    "Log in",
    "Log out",
    "Sign up",
    "Search members",
    "Messages",
    "Buy credits",
    "My profile",
    "Notifications",
    "Customer service",
    "Cookie policy",
    "Terms and conditions",
    "Privacy statement",
    "Frequently asked questions",
    "Back to the home page",
    "This page could not be found",
)
_NUMBER = r"\d{1,3}(?:[.,\u00a0\u202f ]\d{3})+|\d+"  # 1500, or grouped: 1.500, 1 500
_HIDDEN = re.compile(r"<(script|style|template)\b.*?</\1>|<!--.*?-->", re.S)
_TAG = re.compile(r"<[^>]+>")


def english_text_in(text: str, locale: str) -> list[str]:
    """The English interface phrases in `text` that `locale` writes otherwise (French writes
    "Messages" too)."""
    return [
        phrase
        for phrase in ENGLISH_UI_TEXT
        if gettext(locale, phrase) != phrase and re.search(rf"\b{re.escape(phrase)}\b", text)
    ]


def html_text(html: str) -> str:
    """The text of an HTML page's body, one line per element."""
    body = html[html.find("<body") :]
    return unescape(_TAG.sub("\n", _HIDDEN.sub("", body)))


def _pattern(form: str) -> re.Pattern[str]:
    """A form as it reads on a page: {count} a number, any other {name} some words."""
    parts = re.split(r"(\{\w+\})", form)
    body = "".join(
        rf"(?P<count>{_NUMBER})" if part == "{count}" else r"[^\n]+?" if part.startswith("{") else
        re.escape(part)
        for part in parts
    )  # fmt: skip
    return re.compile(rf"(?<!\w){body}(?!\w)")


@cache
def _counted_forms(locale: str) -> tuple[tuple[tuple[str, ...], str, re.Pattern[str]], ...]:
    """(forms, form, pattern) for each form with a {count} of each counted text in `locale`."""
    return tuple(
        (tuple(forms), form, _pattern(form))
        for forms in browser_catalogue(locale).values()
        if isinstance(forms, list)
        for form in dict.fromkeys(forms)
        if "{count}" in form
    )


def wrong_plurals(text: str, locale: str) -> list[str]:
    """Each counted text on the page whose form is not the one its number takes in `locale`."""
    wrong = []
    for forms, form, pattern in _counted_forms(locale):
        for found in pattern.finditer(text):
            if forms[plural_index(locale, int(re.sub(r"\D", "", found["count"])))] != form:
                wrong.append(found[0])
    return wrong


@cache
def _own_texts(locale: str) -> frozenset[str]:
    """Every text and form of `locale`'s catalogue."""
    found: set[str] = set()
    for entry in browser_catalogue(locale).values():
        found.update(entry if isinstance(entry, list) else [entry])
    return frozenset(found)


@cache
def _foreign_texts(locale: str, foreign: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """`foreign`'s texts with nothing to fill in that `locale` never writes, not even inside
    a text of its own (de "Credit" is in en "Credit card"), five characters or more (so a
    shared word such as "Premium" is not one)."""
    own = "\n".join(_own_texts(locale)).casefold()
    return tuple(
        (text, re.compile(rf"(?<!\w){re.escape(text)}(?!\w)"))
        for text in _own_texts(foreign)
        if len(text) >= 5 and "{" not in text and text.casefold() not in own
    )


def foreign_text_in(text: str, locale: str, foreign: str) -> list[str]:
    """The interface texts of language `foreign` on a page in `locale`."""
    return [found for found, pattern in _foreign_texts(locale, foreign) if pattern.search(text)]
