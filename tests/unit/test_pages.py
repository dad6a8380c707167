"""Pages declare their routes themselves: names come from the route table, once each."""

import pytest
import reflex as rx

from app.layouts import with_layout
from app.pages import registry
from app.pages.registry import page, title_only
from components.signup_modal import signup_later_steps
from models.routes import route_named


@pytest.fixture(autouse=True)
def empty_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_DECLARED", {})


def _screen() -> rx.Component:
    return rx.fragment()


def test_a_page_declares_its_routes_with_their_table_entries() -> None:
    page("chats", "chats-id", on_load=["load"])(_screen)
    title_only("premium")

    declared = registry._DECLARED
    assert declared["chats-id"].route.path == "/chats/[id]"
    assert declared["chats"].screen is _screen
    assert declared["chats"].on_load == ("load",)
    assert declared["premium"].screen is None


def test_a_route_outside_the_table_or_declared_twice_is_refused() -> None:
    with pytest.raises(KeyError):
        page("no-such-route")(_screen)
    page("login")(_screen)
    with pytest.raises(ValueError, match="login"):
        title_only("login")


def test_the_console_has_its_own_frame_without_the_members() -> None:
    """A moderator sees the console's header, the language menu and log-out; none of the
    members' navigation, banners (the time bonus), modals or footer."""
    staff = str(with_layout(route_named("staff-reports-id"), rx.fragment()))
    members = str(with_layout(route_named("members"), rx.fragment()))
    for part in ("staff-nav", "language-menu", "staff-logout", "page-ready"):
        assert part in staff
    member_parts = ("account-menu", "activation-reminder", "time-bonus", "signup-modal")
    later_steps = signup_later_steps().tag  # the modal's later steps, loaded when it opens
    for part in (*member_parts, later_steps, "entry-warning", '"footer"', "disclaimer"):
        assert part in members and part not in staff
