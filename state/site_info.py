"""The site's name and company details, as the page's own HTML carries them.

They are the same for every visitor and change only when the site's settings do, so they do not
travel in any state: the server writes them into each page it sends, as `<html data-site>`
(JSON) and in place of the marks Reflex's prerender left where a page shows one
(app/document_head.py). The browser's first render reads the attribute, so it matches the
painted page, and the brand, the footer and the contact details are there before the app runs."""

import json
import re
from html import escape

import reflex as rx

from models.site_settings import SiteSettings, company_info
from state.document_values import document_value, read_once
from translations.prerender_marks import CLOSE, OPEN, SEPARATOR

FIELDS = ("name", "company", "address", "city", "kvk", "email", "phone")
_MARK = re.compile(f"{OPEN}site\\.({'|'.join(FIELDS)}){CLOSE}")
_MARK_CHARACTERS = str.maketrans("", "", OPEN + SEPARATOR + CLOSE)


def _mark(field: str) -> str:
    return f"{OPEN}site.{field}{CLOSE}"


def site_info(settings: SiteSettings) -> dict[str, str]:
    """What a page may show of `settings`, by field (the mark characters taken out, as no
    setting needs them and they would confuse the text marks a value can sit in)."""
    company = company_info(settings)
    values = (
        settings.name,
        company.name,
        company.address,
        company.city,
        company.kvk,
        company.support_email,
        company.support_phone,
    )
    pairs = zip(FIELDS, values, strict=True)
    return {field: value.translate(_MARK_CHARACTERS) for field, value in pairs}


def site_attribute(info: dict[str, str]) -> str:
    """The `<html>` attribute the browser reads them from."""
    return f'data-site="{escape(json.dumps(info), quote=True)}"'


def with_site_info(html: str, info: dict[str, str]) -> str:
    """The prerendered page with each site mark replaced by its value."""
    return _MARK.sub(lambda found: escape(info[found[1]]), html)


# Browser code: the fields the document carries (read once); in Reflex's prerender, their marks.
READ_DOCUMENT_SITE = read_once(
    "siteInfo",
    json.dumps({field: _mark(field) for field in FIELDS}),
    "JSON.parse(document.documentElement.dataset.site || '{}')",
)
_SITE_INFO = document_value("siteInfo", READ_DOCUMENT_SITE)


def site_text(field: str) -> rx.Var[str]:
    """One of `FIELDS`, as the page shows it."""
    if field not in FIELDS:
        raise ValueError(f"no site field {field!r}")
    return rx.Var(f'({_SITE_INFO}[{json.dumps(field)}] ?? "")').to(str)
