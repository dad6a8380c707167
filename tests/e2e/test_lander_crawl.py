"""A crawl of the built site's landers and member landings (issue 31, "Tests and figures"): every
lander with every niche's slug and a demo member's landings, in every language (`?lang=`),
over plain HTTP, no browser. Each answers 200 with the parts the server writes (cards leading
to `/members/{id}/signup`; on a member's page, that member), no mark of the prerender left and
no English interface text in another language. Members of every niche are added first, so no
niche's page is empty. tests/unit/test_lander_crawl.py checks what each page selects."""

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from html import escape

import httpx
import pytest
from journeys import create_account, stored_photo
from page_texts import english_text_in, html_text
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session, select

from models.lander_slug import NICHE_PREFIXES, NICHES
from models.member import Member, Profile
from models.routes import LANDER_NAMES
from translations.locales import LOCALES
from translations.prerender_marks import has_leftovers

SIGNUP_LINK = re.compile(r'href="/members/\d+/signup"')
MEMBER_PAGES = ("landing", "landing2/{slug}", "landing3/{slug}", "signup")
NICHE_MEMBERS = (  # gender, sexuality, age, body type: one fitting each niche at least
    ("female", "hetero", 30, "slim"),
    ("female", "bi", 45, "large"),
    ("female", "hetero", 65, "average"),
    ("male", "gay", 33, "slim"),
)
PARALLEL = 4  # requests at once: the crawl stays within a minute on two busy cores


def _slug(niche: str) -> str:
    return NICHE_PREFIXES[niche] + "amsterdam"


def lander_addresses() -> Iterator[str]:
    yield from (f"/landers/tinderswipe?lang={locale}" for locale in LOCALES)
    for kind in LANDER_NAMES:
        for niche in NICHES:
            yield from (f"/landers/{kind}/{_slug(niche)}?lang={locale}" for locale in LOCALES)


@pytest.fixture(scope="module")
def every_niche(site: Server, site_db: Engine, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Members in Amsterdam with a photo of whom every niche selects some."""
    folder = tmp_path_factory.mktemp("crawl-photos")
    for number, (gender, sexuality, age, body_type) in enumerate(NICHE_MEMBERS):
        account = create_account(
            site_db, "nl", name=f"Crawl{number}", gender=gender, sexuality=sexuality,
            date_of_birth=_born(age), body_type=body_type, country="NL", region="NL-NH",
            city="Amsterdam",
        )  # fmt: skip
        stored_photo(site, site_db, account.member_id, folder)


def _born(age: int) -> date:
    return date(date.today().year - age, 1, 1)


def _problems(client: httpx.Client, address: str, must_hold: re.Pattern[str]) -> list[str]:
    answer = client.get(address)
    if answer.status_code != 200:
        return [f"{address}: {answer.status_code}"]
    html, locale = answer.text, address.rsplit("=", 1)[1]
    found = [f"{address}: leftover marks"] if has_leftovers(html) else []
    if not must_hold.search(html):
        found.append(f"{address}: without {must_hold.pattern}")
    found.extend(f"{address}: {t}" for t in english_text_in(html_text(html), locale))
    return found


def _crawl(site: Server, addresses: list[tuple[str, re.Pattern[str]]]) -> list[str]:
    with (
        httpx.Client(base_url=site.url, timeout=30) as client,
        ThreadPoolExecutor(PARALLEL) as pool,
    ):
        found = pool.map(lambda pair: _problems(client, *pair), addresses)
        return [problem for problems in found for problem in problems]


def test_every_lander_in_every_niche_and_language(site: Server, every_niche: None) -> None:
    assert _crawl(site, [(address, SIGNUP_LINK) for address in lander_addresses()]) == []


def test_a_members_landings_in_every_language(site: Server, site_db: Engine) -> None:
    with Session(site_db) as db:
        demo = db.exec(
            select(Profile).join(Member).where(Member.is_demo.is_(True), Profile.listed.is_(True))
        ).first()
    assert demo is not None, "the site has no listed demo member"
    name = re.compile(re.escape(escape(demo.name)))
    addresses = [
        (f"/members/{demo.member_id}/{page.format(slug=_slug('milf'))}?lang={locale}", name)
        for page in MEMBER_PAGES
        for locale in LOCALES
    ]
    assert _crawl(site, addresses) == []
