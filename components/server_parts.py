"""Parts of a page the server writes for each request (docs/acquisition.md, "The page, written
by the server"): the prerendered page holds a mark such as `⟦lander-head⟧` in a holder; before
the page is sent, app/document_head.py asks the writer whose prefix the page holds for each
mark's HTML, in the visitor's language, and React hydrates the holder with the HTML it has."""

import json
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

import reflex as rx

from actions.member_pages import MemberFound
from models.site_settings import SiteSettings
from state.document_values import document_value, read_once
from translations.prerender_marks import CLOSE, OPEN


@dataclass(frozen=True)
class PageRequest:
    """What a writer may know of the request: the address asked for, its headers, the settings,
    the page's language, the logged-in member, if any, a lander's variant's name
    (app/lander_variants.py) and a member page's member as app/member_redirects.py read it."""

    path: str
    headers: Mapping[str, str]
    settings: SiteSettings
    locale: str
    viewer_id: int | None
    variant: str = ""
    member: MemberFound | None = None


def part_mark(family: str, name: str) -> str:
    """The mark the server replaces with the part `name` of `family`."""
    return f"{OPEN}{family}-{name}{CLOSE}"


PartWriter = Callable[[PageRequest], Awaitable[dict[str, str]]]


@dataclass(frozen=True)
class ServerParts:
    """A family of marks (`⟦{family}-{name}⟧`) and the writer that fills them."""

    family: str
    write: PartWriter

    @property
    def prefix(self) -> str:
        return f"{OPEN}{self.family}-"

    def fill(self, page: str, parts: Mapping[str, str]) -> str:
        """`page` with each of the family's marks replaced by its part ("" for a part not
        written, so no mark ever reaches a visitor)."""
        pattern = re.escape(self.prefix) + f"[a-z0-9-]+{CLOSE}"
        return re.sub(pattern, lambda found: parts.get(found.group(0), ""), page)


def server_html(family: str, name: str) -> rx.Component:
    """A holder of what the server wrote in place of `⟦{family}-{name}⟧`; hydrated with the HTML
    it has."""
    element_id = f"{family}-{name}"
    key = f"{family}_{name}".replace("-", "_")
    read = read_once(
        key,
        json.dumps(part_mark(family, name)),
        f"document.getElementById({json.dumps(element_id)})?.innerHTML ?? ''",
    )
    return rx.html(document_value(key, read).to(str), id=element_id, data_testid=element_id)
