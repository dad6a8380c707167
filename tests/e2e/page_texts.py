"""What a page says, checked against the language it is in: English interface text on another
language's page, counted texts in a form their count does not take, marks of the prerendered
page that were never written as texts."""

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
        r"(?P<count>\d+)" if part == "{count}" else r"[^\n]+?" if part.startswith("{") else
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
            if forms[plural_index(locale, int(found["count"]))] != form:
                wrong.append(found[0])
    return wrong
