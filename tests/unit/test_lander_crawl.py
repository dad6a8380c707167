"""Every lander and member landing renders with real members in all 11 languages and every
niche (issue 31, "Tests and figures"): each writer registered (components/landers/writers.py,
the member landings' family in app/document_head.SERVER_PARTS) is asked for its parts of every
niche's slug in every language, over members of every niche, some hidden. Each page shows
members, only listed ones with a photo that fit its niche (by the niche's rule,
models/niches.py, checked here in Python), no English text of the catalogues in another
language, and no sentence it writes alike in every language (a text not run through them)."""

import re
from collections.abc import Iterable
from datetime import date
from functools import cache
from html.parser import HTMLParser

import pytest
from sqlmodel import Session

from app.document_head import SERVER_PARTS
from components.landers.writers import WRITERS
from components.server_parts import PageRequest, PartWriter
from models.directory import age_on
from models.lander_slug import NICHE_PREFIXES, NICHES
from models.member import Member, Profile
from models.niches import niche_rule
from models.routes import LANDER_NAMES
from models.site_settings import SiteSettings
from tests.factories import add_photo, edit_profile, make_member
from translations.catalog import every_browser_text
from translations.locales import LOCALES
from translations.prerender_marks import has_leftovers

SETTINGS = SiteSettings()
UNSLUGGED = ("tinderswipe",)  # /landers/tinderswipe takes no slug: the plain niche
MEMBER_FAMILY = "member"  # the member landings' marks: ⟦member-…⟧
MEMBER_PAGES = ("landing", "landing2/{slug}", "landing3/{slug}", "signup")
PLACE = "amsterdam"
LINKED_MEMBER = re.compile(r"^/members/(\d+)(?:/|$)")
ATTRIBUTES = ("alt", "title", "aria-label", "placeholder")
WORDS = re.compile(r"[^\W\d_]{2,}")

# Members of every niche in Amsterdam (name, gender, sexuality, age, body type): each niche's
# selection holds some of them and leaves others out.
MEMBERS = (
    ("Mira", "female", "hetero", 30, "slim"),  # she
    ("Greet", "female", "bi", 45, "large"),  # she, bbw, milf
    ("Truus", "female", "hetero", 65, "average"),  # she, milf, gilf
    ("Saskia", "female", "hetero", 36, "large"),  # she, bbw
    ("Lotte", "female", "lesbian", 50, "curvy"),  # only the plain niches
    ("Bram", "male", "hetero", 41, "athletic"),  # only the plain niches
    ("Joost", "male", "gay", 33, "slim"),  # gay
    ("Kees", "male", "bi", 62, "large"),  # gay
)


def _slug(niche: str) -> str:
    return NICHE_PREFIXES[niche] + PLACE


def _born(age: int) -> date:
    return date(date.today().year - age, 1, 1)


def _member(db: Session, number: int, name: str, gender: str, sexuality: str, age: int,
            body_type: str, **account: object) -> Member:  # fmt: skip
    member = make_member(db, f"{name.lower()}{number}@example.com", **account)
    edit_profile(
        db, member, name=name, gender=gender, sexuality=sexuality, date_of_birth=_born(age),
        body_type=body_type, country="NL", region="NL-NH", city="Amsterdam",
    )  # fmt: skip
    add_photo(db, member, f"m{number}", main=True)
    return member


@pytest.fixture
def members(db: Session) -> dict[int, Profile]:
    """The listed members by id; a banned and an invisible one of every niche beside them."""
    listed = [_member(db, i, *fields) for i, fields in enumerate(MEMBERS)]
    _member(db, 90, "Hidden", "female", "bi", 45, "large", status="banned")
    _member(db, 91, "Unseen", "male", "gay", 62, "large", invisible=True)
    return {member.id: db.get(Profile, member.id) for member in listed}


class Page(HTMLParser):
    """A part's texts (and the texts of its attributes a visitor sees or hears), its links and
    its images."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.links: list[str] = []
        self.images: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "a":
            self.links.append(found.get("href", ""))
        if tag == "img" and found.get("src"):
            self.images.append(found["src"])
        self.texts.extend(found[name].strip() for name in ATTRIBUTES if found.get(name))

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.texts.append(data.strip())

    def member_ids(self) -> set[int]:
        return {int(found[1]) for link in self.links if (found := LINKED_MEMBER.match(link))}


def _forms(text: str | list[str]) -> list[str]:
    return text if isinstance(text, list) else [text]


@cache
def _english_only(locale: str) -> tuple[frozenset[str], re.Pattern[str] | None]:
    """The catalogues' English texts that `locale` writes otherwise (and never writes itself):
    those without a {name} as they are, the others as one pattern ({name}: anything)."""
    own = every_browser_text(locale)
    theirs = {form for text in own.values() for form in _forms(text)}
    english = {
        form
        for key, text in every_browser_text("en").items()
        if own.get(key) != text
        for form in _forms(text)
        if form not in theirs and len(WORDS.findall(re.sub(r"\{\w+\}", "", form))) >= 1
    }
    plain = frozenset(form for form in english if "{" not in form)
    filled = [
        "".join(".+?" if part.startswith("{") else re.escape(part) for part in
                re.split(r"(\{\w+\})", form))
        for form in english
        if "{" in form
    ]  # fmt: skip
    return plain, re.compile("|".join(filled)) if filled else None


def english_texts(texts: Iterable[str], locale: str) -> list[str]:
    plain, pattern = _english_only(locale)
    return [t for t in texts if t in plain or (pattern is not None and pattern.fullmatch(t))]


def fits(profile: Profile, niche: str) -> bool:
    """Whether the profile is one the niche's rule selects (models/niches.NICHE_RULES)."""
    rule = niche_rule(niche)
    return (
        rule.gender in (None, profile.gender)
        and (not rule.sexualities or profile.sexuality in rule.sexualities)
        and age_on(profile.date_of_birth, date.today()) >= rule.min_age
        and (not rule.body_types or profile.body_type in rule.body_types)
    )


async def _pages(write: PartWriter, path: str) -> dict[str, Page]:
    """The page's parts in every language, as one parsed page per language."""
    pages = {}
    for locale in LOCALES:
        parts = await write(PageRequest(path, {}, SETTINGS, locale, None))
        html = "".join(parts.values())
        assert not has_leftovers(html), (path, locale)
        pages[locale] = Page(html)
    return pages


def _check_languages(pages: dict[str, Page], path: str) -> None:
    for locale, page in pages.items():
        if locale != "en":
            assert english_texts(page.texts, locale) == [], (path, locale)
    alike = set.intersection(*(set(page.texts) for page in pages.values()))
    sentences = [text for text in alike if len(WORDS.findall(text)) >= 3]
    assert sentences == [], f"{path}: written alike in every language"


def lander_paths(kind: str) -> list[tuple[str, str]]:
    """(niche, path) of every niche's slug; the plain niche alone for a lander without one."""
    if kind in UNSLUGGED:
        return [("none", f"/landers/{kind}")]
    return [(niche, f"/landers/{kind}/{_slug(niche)}") for niche in NICHES]


def test_every_lander_is_registered() -> None:
    assert sorted(WRITERS) == sorted((*LANDER_NAMES, *UNSLUGGED))


@pytest.mark.parametrize("kind", sorted(WRITERS))
async def test_a_lander_shows_its_niches_members_in_every_language(
    members: dict[int, Profile], kind: str
) -> None:
    for niche, path in lander_paths(kind):
        pages = await _pages(WRITERS[kind], path)
        for locale, page in pages.items():
            shown = page.member_ids()
            assert shown and page.images, (path, locale)
            assert shown <= members.keys(), (path, locale)  # nobody hidden
            assert all(fits(members[i], niche) for i in shown), (path, locale)
        _check_languages(pages, path)


def member_writer() -> PartWriter | None:
    return next((p.write for p in SERVER_PARTS if p.family == MEMBER_FAMILY), None)


def test_the_member_landings_are_written_by_the_server() -> None:
    assert member_writer() is not None, "no ⟦member-…⟧ writer in app/document_head.SERVER_PARTS"


@pytest.mark.parametrize("page", MEMBER_PAGES)
async def test_a_member_landing_shows_its_member_in_every_language(
    members: dict[int, Profile], page: str
) -> None:
    write = member_writer()
    if write is None:
        pytest.skip("the member landings are not written yet")
    for niche in NICHES:
        member_id = next(i for i, profile in members.items() if fits(profile, niche))
        path = f"/members/{member_id}/" + page.format(slug=_slug(niche))
        pages = await _pages(write, path)
        for locale, parsed in pages.items():
            assert any(members[member_id].name in text for text in parsed.texts), (path, locale)
            assert parsed.images, (path, locale)
        _check_languages(pages, path)
