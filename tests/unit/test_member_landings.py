"""A member's server-written pages (docs/acquisition.md, "Member landings"): the three landing
designs and the signup's teaser show a member listed to the viewer and nobody else; the
profile's first paint shows what the profile shows this viewer; a page of a member the viewer
may not see leads to a gallery lander of the member's (or the slug's) niche, its query kept and
its click recorded."""

from collections.abc import Iterator
from datetime import UTC, date, datetime

import pytest
from sqlmodel import Session, select
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from actions.member_pages import MemberFound, member_found, unlisted_lander
from app import member_redirects
from app.member_redirects import UnlistedMembers
from app.traffic_clicks import TrafficClicks
from components.member_landings.common import member_mark
from components.member_landings.writers import write_member
from components.server_parts import PageRequest
from models.member import Member, MemberStatus, Profile
from models.niches import NicheFacts, fits_niche, member_niche
from models.site_settings import SiteSettings
from models.traffic import TrafficClick
from tests.factories import add_photo, block_member, edit_profile, make_member
from tests.queries import statements
from tests.unit.lander_pages import Parsed

SETTINGS = SiteSettings()
TODAY = date(2026, 6, 1)
LANDING, SIGNUP, PROFILE = member_mark("landing"), member_mark("signup"), member_mark("profile")
CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36"


def _born(age: int) -> date:
    today = datetime.now(UTC).date()
    return today.replace(year=today.year - age, day=1)


@pytest.fixture
def anna(db: Session) -> Member:
    member = make_member(db, "anna@example.com")
    edit_profile(
        db, member, name="Anna", date_of_birth=_born(45), city="Utrecht", region="NL-UT",
        country="NL", about_me="I like <b>long</b> walks.", body_type="large", hair_colour="red",
    )  # fmt: skip
    add_photo(db, member, "anna", main=True)
    add_photo(db, member, "anna2")
    return member


async def _write(path: str, locale: str = "en", viewer_id: int | None = None) -> dict[str, str]:
    return await write_member(PageRequest(path, {}, SETTINGS, locale, viewer_id))


@pytest.mark.parametrize("kind", ["landing", "landing2", "landing3"])
async def test_each_design_writes_the_member_with_the_chat_link(anna: Member, kind: str) -> None:
    page = Parsed((await _write(f"/members/{anna.id}/{kind}"))[LANDING])
    assert "Anna" in page.texts and ", 45" in page.texts
    assert any(
        "Utrecht, Utrecht, Netherlands" in t or t == "Utrecht, Netherlands" for t in page.texts
    )
    assert f"/members/{anna.id}/signup" in page.links
    assert "Chat with Anna" in page.texts
    photo = page.images[0]
    assert photo["src"].endswith("anna.jpg") and photo["fetchpriority"] == "high"
    assert photo["srcset"].endswith(" 1600w") and photo["alt"] == "Anna"
    assert "I like <b>long</b> walks." in page.texts  # escaped text, not markup
    assert "A few extra pounds" in page.texts and "Red" in page.texts


async def test_the_landing_speaks_the_visitors_language(anna: Member) -> None:
    page = Parsed((await _write(f"/members/{anna.id}/landing", "de"))[LANDING])
    assert "Utrecht, Niederlande" in page.texts
    assert "Über mich" in page.texts
    assert "Chat with Anna" not in page.texts


async def test_the_slug_gives_its_wording_only_when_the_member_fits(
    anna: Member, db: Session
) -> None:
    milf = "Meet women aged 40 and over who are looking for a man"
    plain = "Meet new people and start chatting"
    assert milf in Parsed((await _write(f"/members/{anna.id}/landing2/milf"))[LANDING]).texts
    gay = Parsed((await _write(f"/members/{anna.id}/landing3/gay-berlin"))[LANDING]).texts
    assert plain in gay and "Meet men who are looking for a man" not in gay
    edit_profile(db, anna, date_of_birth=_born(30))
    young = Parsed((await _write(f"/members/{anna.id}/landing2/milf"))[LANDING]).texts
    assert plain in young and milf not in young


async def test_a_fictional_member_is_labelled(anna: Member, db: Session) -> None:
    anna.fictional_icon = True
    db.add(anna)
    db.commit()
    page = Parsed((await _write(f"/members/{anna.id}/landing"))[LANDING])
    assert SETTINGS.fictional_singular["en"] in page.texts


async def test_the_signup_page_shows_the_member_it_is_aimed_at(anna: Member) -> None:
    page = Parsed((await _write(f"/members/{anna.id}/signup"))[SIGNUP])
    assert "Anna" in page.texts and page.images[0]["src"].endswith("anna.jpg")
    assert "Log in or sign up free to chat with Anna." in page.texts


def _hide(db: Session, member: Member, how: str) -> None:
    if how == "hidden":
        edit_profile(db, member, status="disabled")
        return
    if how == "invisible":
        member.invisible = True
    elif how == "privacy":
        member.privacy_mode = True
    else:
        member.status = how
    db.add(member)
    db.commit()


UNLISTED = ["hidden", "invisible", "privacy", *(s.value for s in MemberStatus if s != "active")]


@pytest.mark.parametrize("how", UNLISTED)
async def test_an_unlisted_member_is_written_nowhere(anna: Member, db: Session, how: str) -> None:
    _hide(db, anna, how)
    for kind in ("landing", "landing2/milf", "landing3", "signup"):
        assert await _write(f"/members/{anna.id}/{kind}") == {}
    profile = (await _write(f"/members/{anna.id}"))[PROFILE]
    # invisible mode keeps a member out of lists, not off their profile (the profile's rule)
    assert ("Anna" in profile) if how == "invisible" else profile == ""
    assert not member_found(None, anna.id).listed


async def test_a_block_either_way_hides_the_member_from_that_viewer(
    anna: Member, db: Session
) -> None:
    bert, carl = make_member(db, "bert@example.com"), make_member(db, "carl@example.com")
    block_member(db, anna.id, bert.id)
    block_member(db, carl.id, anna.id)
    for viewer in (bert, carl):
        assert await _write(f"/members/{anna.id}/landing", viewer_id=viewer.id) == {}
        assert await _write(f"/members/{anna.id}", viewer_id=viewer.id) == {PROFILE: ""}
    other = make_member(db, "dora@example.com")
    assert LANDING in await _write(f"/members/{anna.id}/landing", viewer_id=other.id)


async def test_nobody_and_other_pages_get_nothing(anna: Member) -> None:
    assert await _write("/members/999999/landing") == {}
    assert await _write("/members/99999999999999999/landing") == {}
    assert await _write("/members/0") == {PROFILE: ""}
    assert await _write("/profile") == {}
    assert await _write(f"/members/{anna.id}/chat") == {}


# --- the profile's first paint ------------------------------------------------------------------


async def test_the_profile_paints_what_the_profile_shows_a_visitor(anna: Member) -> None:
    html = (await _write(f"/members/{anna.id}"))[PROFILE]
    page = Parsed(html)
    assert page.texts[:2] == ["Anna", ", 45"]
    main, *thumbs = page.images
    assert main["class"] == "gallery-main-image" and main["src"].endswith("/anna.jpg")
    # the second photo is locked for a visitor: its thumbnail arrives blurred, as on the page
    assert [image["src"].rsplit("/", 1)[1] for image in thumbs] == ["anna_t.jpg", "anna2_b.jpg"]
    assert 'class="profile-layout"' in html and 'class="card profile-head"' in html
    assert "profile-paint-actions" in html and "profile-paint-reports" in html


async def test_a_profile_for_members_only_paints_nothing_for_a_visitor(
    anna: Member, db: Session
) -> None:
    _hide(db, anna, "privacy")
    assert await _write(f"/members/{anna.id}") == {PROFILE: ""}
    viewer = make_member(db, "bert@example.com")
    assert "Anna" in (await _write(f"/members/{anna.id}", viewer_id=viewer.id))[PROFILE]


# --- where a page of an unlisted member leads ---------------------------------------------------


def _facts(gender: str, sexuality: str, age: int, body: str | None = None) -> NicheFacts:
    return NicheFacts(gender, sexuality, TODAY.replace(year=TODAY.year - age), body)


@pytest.mark.parametrize(
    ("facts", "niche"),
    [
        (_facts("female", "hetero", 65, "large"), "gilf"),
        (_facts("female", "bi", 45), "milf"),
        (_facts("female", "hetero", 39, "large"), "bbw"),
        (_facts("female", "hetero", 25, "curvy"), "she"),
        (_facts("female", "lesbian", 50), "none"),
        (_facts("male", "gay", 30), "gay"),
        (_facts("male", "bi", 70), "gay"),
        (_facts("male", "hetero", 30), "none"),
    ],
)
def test_a_members_niche_is_the_most_particular_that_selects_them(facts, niche) -> None:
    assert member_niche(facts, TODAY) == niche
    if niche != "none":
        assert fits_niche(niche, facts, TODAY)


def test_the_lander_of_an_unlisted_member() -> None:
    gone = MemberFound(False, None)
    assert unlisted_lander(gone, None, TODAY) == "/landers/gallery"
    assert unlisted_lander(gone, "bbw-koeln", TODAY) == "/landers/gallery/bbw-koeln"
    assert unlisted_lander(gone, "<script>", TODAY) == "/landers/gallery"


async def test_the_lander_follows_the_members_niche_and_the_slugs_place(
    anna: Member, db: Session
) -> None:
    _hide(db, anna, "banned")
    found = member_found(None, anna.id)
    assert unlisted_lander(found, None, date.today()) == "/landers/gallery/milf"
    assert unlisted_lander(found, "", date.today()) == "/landers/gallery/milf"
    assert unlisted_lander(found, "berlin", date.today()) == "/landers/gallery/milf-berlin"
    assert unlisted_lander(found, "gay-berlin", date.today()) == "/landers/gallery/gay-berlin"


@pytest.fixture
def client(engine) -> Iterator[TestClient]:
    """The two middlewares in app/app.py's order: the click outside the redirect."""
    page = HTMLResponse("<html><body>page</body></html>")
    inner = Starlette(routes=[Route("/{path:path}", lambda _request: page)])
    app = TrafficClicks(UnlistedMembers(inner))
    with TestClient(app, headers={"user-agent": CHROME}, follow_redirects=False) as test_client:
        yield test_client


QUERY = "network=n1&ref=r1&sub1=s1&clickid=c1"


async def test_an_unlisted_members_landing_redirects_with_its_query_and_its_click(
    client: TestClient, anna: Member, db: Session
) -> None:
    assert client.get(f"/members/{anna.id}/landing?{QUERY}").status_code == 200
    _hide(db, anna, "deleted")
    query = QUERY.replace("s1", "s2")  # other values: a new click, not the cookie's
    answer = client.get(f"/members/{anna.id}/landing2/berlin?{query}")
    assert answer.status_code == 307
    assert answer.headers["location"] == f"/landers/gallery/milf-berlin?{query}"
    assert any(k == "set-cookie" for k, _ in answer.headers.multi_items())
    clicks = db.exec(select(TrafficClick).order_by(TrafficClick.id)).all()
    assert [click.lander for click in clicks] == ["member-landing", "member-landing2"]
    assert clicks[1].network == "n1" and clicks[1].path == f"/members/{anna.id}/landing2/berlin"
    for path in ("/members/999999/signup", "/members/0/landing", f"/members/{anna.id}/landing3/"):
        assert client.get(path).status_code == 307
    assert client.get("/members/999999/signup").headers["location"] == "/landers/gallery"
    assert client.head(f"/members/{anna.id}/signup").status_code == 307


async def test_the_profile_and_other_pages_pass(client: TestClient, anna: Member, db) -> None:
    _hide(db, anna, "hidden")
    for path in (f"/members/{anna.id}", f"/members/{anna.id}/chat", "/members", "/landers/gallery"):
        assert client.get(path).status_code == 200
    assert db.get(Profile, anna.id).status == "disabled"


def test_the_redirect_runs_inside_the_click_in_the_app() -> None:
    from app.app import app

    order = list(app.api_transformer)  # each wraps those before it
    assert order.index(UnlistedMembers) < order.index(TrafficClicks)


async def test_a_failed_check_serves_the_page(
    client: TestClient, anna: Member, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(*_args: object) -> MemberFound:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(member_redirects, "member_found", failing)
    assert client.get(f"/members/{anna.id}/landing").status_code == 200


async def test_the_page_writer_reuses_the_checks_read(anna: Member, engine) -> None:
    """The redirect's check reads the viewer and the member once; the writer reads neither."""
    seen: dict = {}

    def page(request) -> HTMLResponse:
        seen.update(request.scope)
        return HTMLResponse("page")

    inner = Starlette(routes=[Route("/{path:path}", page)])
    with TestClient(UnlistedMembers(inner)) as test_client:
        assert test_client.get(f"/members/{anna.id}/landing").status_code == 200
    found = seen[member_redirects.FOUND_SCOPE]
    assert seen[member_redirects.VIEWER_SCOPE] is None and found.member.id == anna.id
    request = PageRequest(f"/members/{anna.id}/landing", {}, SETTINGS, "en", None, "", found)
    with statements() as ran:
        written = await write_member(request)
    assert ran == [] and "Anna" in written[LANDING]
    other = PageRequest(f"/members/{anna.id + 1}/landing", {}, SETTINGS, "en", None, "", found)
    with statements() as ran:
        await write_member(other)  # another member's page: the check's read is not theirs
    assert len(ran) == 1
