"""Routes with dynamic parts that the server writes into (the landers, a member's pages) are
prerendered at a stand-in path, and each of their addresses is served that page."""

from app.stand_in_pages import STAND_IN_PATHS, prerendered_path, with_stand_ins
from models.routes import LANDER_NAMES

CONFIG = 'export default {"ssr": false, "prerender": true, "build": "build"};'


def test_each_lander_and_member_page_has_a_stand_in() -> None:
    landers = {f"/landers/{name}" for name in LANDER_NAMES}
    members = {
        "/members/0",
        *(f"/members/0/{page}" for page in ("landing", "landing2", "landing3", "signup")),
    }
    assert set(STAND_IN_PATHS) == landers | members
    config = with_stand_ins(CONFIG)
    assert '"prerender": async ({getStaticPaths}) => [...getStaticPaths(), ...[' in config
    assert '"/landers/gallery"' in config and '"/members/0/landing2"' in config
    assert '"ssr": false' in config


def test_a_landers_slug_is_served_its_bare_page() -> None:
    assert prerendered_path("/landers/gallery/milf-amsterdam") == "/landers/gallery"
    assert prerendered_path("/landers/gallery/milf-amsterdam/") == "/landers/gallery"
    assert prerendered_path("/landers/gallery") == "/landers/gallery"
    assert prerendered_path("/landers/gallery/a/b") == "/landers/gallery/a/b"
    assert prerendered_path("/landers/tinderswipe/x") == "/landers/tinderswipe/x"


def test_a_members_page_is_served_member_zeros() -> None:
    assert prerendered_path("/members/42") == "/members/0"
    assert prerendered_path("/members/42/landing") == "/members/0/landing"
    assert prerendered_path("/members/42/landing2/milf-amsterdam") == "/members/0/landing2"
    assert prerendered_path("/members/42/landing3") == "/members/0/landing3"
    assert prerendered_path("/members/42/signup") == "/members/0/signup"


def test_nothing_else_moves() -> None:
    for path in ("/members", "/members/0", "/members/x", "/members/07", "/members/1/chat",
                 "/members/1/landing/x", "/members/1/signup/x", "/chats/3"):  # fmt: skip
        assert prerendered_path(path) == path
