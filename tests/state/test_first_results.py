"""The first page of /members in the server's HTML is the page the search's state then shows:
the same members in the same order and the same count, for a member (their saved search) and
for a visitor (their country), in the visitor's language; nothing where visitors may not
search."""

from html.parser import HTMLParser

from sqlmodel import Session

from components.first_results import first_results_html
from services.site_settings import site_settings
from state.shell import ShellState
from tests.factories import edit_profile, make_member
from tests.state.conftest import run, substate
from tests.state.test_likes_state import logged_in
from tests.state.test_search_state import ids, loaded_search, person, set_setting, viewer


class Cards(HTMLParser):
    """The hrefs, photos and texts of the snapshot's cards, and its paragraphs."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.loading: list[str] = []
        self.texts: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a":
            self.hrefs.append(found["href"] or "")
        if tag == "img":
            self.loading.append(found["loading"] or "")

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def card_ids(cards: Cards) -> list[int]:
    return [int(href.rsplit("/", 1)[1]) for href in cards.hrefs]


async def snapshot(member_id: int | None, locale: str = "en", **headers: str) -> Cards:
    """The snapshot for a request with `headers` (underscores become dashes)."""
    named = {name.replace("_", "-"): value for name, value in headers.items()}
    return Cards(await first_results_html(member_id, named, await site_settings(), locale))


async def test_a_member_sees_their_saved_search_first(make_root, db: Session) -> None:
    me = viewer(db)
    for i in range(30):
        person(db, f"w{i}@example.com", age=30 + i % 10)
    belgian = person(db, "be@example.com", age=40, country="BE")
    search = await loaded_search(await logged_in(make_root, db, me, "/members"))
    cards = await snapshot(me.id)
    assert card_ids(cards) == ids(search.results) and len(cards.hrefs) == 24
    assert cards.texts[0] == "30 members found"
    assert cards.loading == ["eager"] * 6 + ["lazy"] * 18  # a wide screen's first row at once
    await run(search.search({"country": "BE"}))
    assert card_ids(await snapshot(me.id)) == [belgian.id] == ids(search.results)


async def test_a_visitor_sees_their_countrys_members_in_their_language(
    make_root, db: Session
) -> None:
    dutch = edit_profile(db, person(db, "nl@example.com", paid_user=True), city="Utrecht")
    person(db, "de@example.com", age=33, country="DE")
    root = make_root(url="/members", accept_language="nl-NL,nl;q=0.9")
    await substate(root, ShellState).on_page_load()
    search = await loaded_search(root)
    cards = await snapshot(None, "pl", accept_language="nl-NL,nl;q=0.9")
    assert card_ids(cards) == ids(search.results) == [dutch.id]
    assert cards.texts[0] == "Znaleziono 1 użytkownika"
    assert "Utrecht, Holandia" in cards.texts and "Premium" in cards.texts


async def test_nothing_where_visitors_may_not_search(make_root, db: Session) -> None:
    person(db, "nl@example.com")
    set_setting(db, "logged_out_search", False)
    assert await first_results_html(None, {}, await site_settings(), "en") == ""


async def test_names_are_written_as_text(make_root, db: Session) -> None:
    edit_profile(db, make_member(db, "x@example.com"), name='<img src=x onerror="alert(1)">')
    html = await first_results_html(None, {}, await site_settings(), "en")
    assert "<img src=x" not in html and "&lt;img src=x" in html
