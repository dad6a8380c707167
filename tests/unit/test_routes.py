"""The route table holds every path of spec section 2 (plus /settings, the account settings the
spec's activation reminder names), once, with the spec's members area."""

from app.routes import LANDER_NAMES, ROUTES, STATIC_PAGES, Layout

SPEC_PATHS = {
    "/", "/likes", "/likes/[type]", "/likes/m/[id]", "/members", "/members/[id]",
    "/members/[id]/chat", "/members/[id]/landing", "/members/[id]/signup",
    "/members/[id]/landing2/[[...splat]]", "/members/[id]/landing3/[[...splat]]", "/chats",
    "/chats/[id]", "/account-deleted", "/complaints", "/complete-signup", "/credits",
    "/credits/[id]/[[...splat]]", "/credits/repeat-order", "/directdebit", "/lang-config",
    "/login", "/match-finder", "/notifications", "/premium", "/pricing", "/profile",
    "/reset-password", "/reset-password/do", "/settings", "/signup", "/signup-matches",
    "/swipe-game",
    "/transactions/[[...splat]]", "/activate/done", "/activate/error", "/mail-change/do",
    "/landers/tinderswipe", "/[token]",
    *(f"/landers/{name}/[[...splat]]" for name in LANDER_NAMES),
    *(f"/pages/{slug}" for slug in STATIC_PAGES),
}  # fmt: skip


def test_every_spec_path_is_routed_once() -> None:
    paths = [route.path for route in ROUTES]
    assert len(paths) == len(set(paths))
    assert set(paths) == SPEC_PATHS


def test_names_are_unique() -> None:
    names = [route.name for route in ROUTES]
    assert len(names) == len(set(names))


def test_members_area_is_the_spec_list() -> None:
    area = {route.name for route in ROUTES if route.members_area}
    assert area == {"members", "members-id", "chats", "likes", "likes-m-id", "premium"}


def test_back_button_only_on_profile_likes_credits_and_payment_pages() -> None:
    with_back = {route.name for route in ROUTES if route.back_button}
    assert {"profile", "likes", "credits", "credits-id-paymentmethod"} <= with_back
    assert not with_back & {"index", "members", "chats", "login", "signup"}


def test_layouts() -> None:
    by_name = {route.name: route.layout for route in ROUTES}
    assert by_name["chats"] == by_name["members-id-chat"] == Layout.CHAT
    assert all(by_name[f"landers-{n}"] == Layout.LANDER for n in LANDER_NAMES)
    assert by_name["members-id-signup"] == Layout.EMPTY


def test_samples_fill_every_dynamic_segment() -> None:
    assert all("[" not in route.sample for route in ROUTES)
