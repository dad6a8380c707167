"""The route table is spec section 2 (plus /settings, the account settings the spec's activation
reminder names): every path once, the names the spec gives, the members area, the layouts; and
the URL builders every layer uses instead of path literals."""

from urllib.parse import parse_qs, urlsplit

import pytest
import reflex as rx
from reflex.route import get_router

from models.routes import (
    ROUTES,
    Layout,
    chat_url,
    liked_member_url,
    likes_url,
    login_url,
    member_chat_url,
    member_signup_url,
    member_url,
    static_page_url,
    url,
)

# Spec section 2, "Routes (path, name)", in Reflex's syntax: [id] a segment, [[...splat]] an
# optional tail. The spec names some routes; the others are "as named" after their path.
SPEC_NAMES = {
    "/": "index",
    "/likes": "likes",
    "/likes/[type]": "likes-type",
    "/likes/m/[id]": "likes-m-id",
    "/members": "members",
    "/members/[id]": "members-id",
    "/chats": "chats",
    "/chats/[id]": "chats-id",
    "/credits": "credits",
    "/credits/[id]/[[...splat]]": "credits-id-paymentmethod",
    "/credits/repeat-order": "credits-repeat-order",
    "/account-deleted": "account-deleted",
    "/complaints": "complaints",
    "/complete-signup": "complete-signup",
    "/directdebit": "directdebit",
    "/lang-config": "lang-config",
    "/login": "login",
    "/match-finder": "match-finder",
    "/notifications": "notifications",
    "/premium": "premium",
    "/pricing": "pricing",
    "/profile": "profile",
    "/signup": "signup",
    "/signup-matches": "signup-matches",
    "/swipe-game": "swipe-game",
}
SPEC_PATHS = {
    *SPEC_NAMES,
    "/members/[id]/chat", "/members/[id]/landing", "/members/[id]/signup",
    "/members/[id]/landing2/[[...splat]]", "/members/[id]/landing3/[[...splat]]",
    "/reset-password", "/reset-password/do", "/settings", "/transactions", "/transactions/[id]",
    "/activate/done", "/activate/error", "/mail-change/do", "/landers/tinderswipe",
    "/landers/alonetonight/[[...splat]]", "/landers/collagelanding/[[...splat]]",
    "/landers/gallery/[[...splat]]", "/landers/iconslanding/[[...splat]]",
    "/landers/maplanding/[[...splat]]", "/landers/socialnetwork/[[...splat]]",
    "/landers/transitionsvideolanding/[[...splat]]", "/landers/video/[[...splat]]",
    "/[token]", "/pages/ban", "/pages/cookies", "/pages/faq", "/pages/privacy",
    "/pages/return-policy", "/pages/service", "/pages/terms",
}  # fmt: skip
# Ours beside the spec's: the footer link of notification mails (docs/notifications.md), the
# statement of reasons' appeal page and the staff console (docs/moderation.md, docs/staff.md).
OWN_PATHS = {
    "/unsubscribe", "/appeal/[token]", "/staff", "/staff/verify", "/staff/enrol",
    "/staff/reports", "/staff/reports/[id]", "/staff/photos", "/staff/appeals",
    "/staff/appeals/[id]", "/staff/members/[id]", "/staff/transparency", "/staff/audit",
    "/staff/tickets", "/staff/tickets/[id]", "/staff/payments", "/staff/postbacks",
    "/staff/landers",
    "/staff/settings", "/staff/discounts", "/staff/support", "/staff/support/members/[id]",
}  # fmt: skip
BY_NAME = {route.name: route for route in ROUTES}


def test_every_spec_path_is_routed_once() -> None:
    paths = [route.path for route in ROUTES]
    assert len(paths) == len(set(paths))
    assert set(paths) == SPEC_PATHS | OWN_PATHS


def test_routes_carry_the_spec_names() -> None:
    names = [route.name for route in ROUTES]
    assert len(names) == len(set(names))
    assert {route.path: route.name for route in ROUTES if route.path in SPEC_NAMES} == SPEC_NAMES


def test_one_segment_routes_win_over_the_token_page() -> None:
    """/transactions/{id?}: the list without an id is a route of its own, since Reflex's
    router would hand a one-segment path to /[token] before an optional tail."""
    router = get_router([route.path.strip("/") or "index" for route in ROUTES])
    assert router("/transactions") == "transactions"
    assert router("/transactions/7") == "transactions/[id]"


def test_members_area_is_the_spec_list() -> None:
    area = {route.name for route in ROUTES if route.members_area}
    assert area == {"members", "members-id", "chats", "likes", "likes-m-id", "premium"}


def test_back_button_only_on_profile_likes_credits_and_payment_pages() -> None:
    with_back = {route.name for route in ROUTES if route.back_button}
    assert {"profile", "likes", "credits", "credits-id-paymentmethod"} <= with_back
    assert not with_back & {"index", "members", "chats", "login", "signup"}


def test_layouts() -> None:
    assert BY_NAME["chats"].layout == BY_NAME["members-id-chat"].layout == Layout.CHAT
    landers = [route for route in ROUTES if route.path.startswith("/landers/")]
    assert len(landers) == 9
    assert all(route.layout == Layout.LANDER for route in landers)
    assert BY_NAME["members-id-signup"].layout == Layout.EMPTY
    staff = {route.name for route in ROUTES if route.staff}
    assert {"staff", "staff-verify", "staff-reports", "staff-reports-id", "staff-audit"} <= staff
    assert {route.name for route in ROUTES if route.layout == Layout.STAFF} == staff


def test_samples_fill_every_dynamic_segment() -> None:
    assert all("[" not in route.sample for route in ROUTES)


def test_builders_give_the_spec_paths() -> None:
    assert url("index") == "/"
    assert url("members") == "/members"
    assert url("settings", tab="photos") == "/settings?tab=photos"
    assert member_url(7) == "/members/7"
    assert member_chat_url(7) == "/members/7/chat"
    assert member_chat_url(7, gift=True) == "/members/7/chat?gift=1"
    assert member_signup_url(7) == "/members/7/signup"
    assert liked_member_url(7) == "/likes/m/7"
    assert likes_url("received") == "/likes/received"
    assert chat_url(3) == "/chats/3"
    assert static_page_url("faq") == "/pages/faq"


def test_login_url_leads_back_to_path_and_query_only() -> None:
    prompt = urlsplit(login_url("https://elsewhere.example/settings?tab=photos"))
    assert prompt.path == "/login"
    assert parse_qs(prompt.query) == {"next": ["/settings?tab=photos"]}


def test_a_builder_refuses_a_name_outside_the_table_or_missing_segments() -> None:
    with pytest.raises(KeyError):
        url("no-such-page")
    with pytest.raises(ValueError, match="members-id"):
        url("members-id")


def test_a_builder_takes_a_browser_side_value() -> None:
    member_id = rx.Var(_js_expr="card.id", _var_type=int)
    assert str(rx.Var.create(member_url(member_id))) == '("/members/"+card.id)'
