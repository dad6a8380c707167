"""Routes with an optional tail (the landers) are prerendered at their bare path, and any tail is
served that page."""

from app.splat_prerender import TAIL_ROUTES, prerendered_path, with_tail_routes
from models.routes import LANDER_NAMES

CONFIG = 'export default {"ssr": false, "prerender": true, "build": "build"};'


def test_each_lander_with_a_slug_is_prerendered_at_its_bare_path() -> None:
    assert set(TAIL_ROUTES) == {f"/landers/{name}" for name in LANDER_NAMES}
    config = with_tail_routes(CONFIG)
    assert '"prerender": async ({getStaticPaths}) => [...getStaticPaths(), ...[' in config
    assert '"/landers/gallery"' in config and '"ssr": false' in config


def test_a_slug_is_served_its_landers_page_and_nothing_else_moves() -> None:
    assert prerendered_path("/landers/gallery/milf-amsterdam") == "/landers/gallery"
    assert prerendered_path("/landers/gallery/milf-amsterdam/") == "/landers/gallery"
    assert prerendered_path("/landers/gallery") == "/landers/gallery"
    assert prerendered_path("/landers/gallery/a/b") == "/landers/gallery/a/b"
    assert prerendered_path("/landers/tinderswipe/x") == "/landers/tinderswipe/x"
    assert prerendered_path("/members/3/landing2/x") == "/members/3/landing2/x"
    assert prerendered_path("/members") == "/members"
