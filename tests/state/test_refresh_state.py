"""The periodic refresh: only while logged in, first after 5 s, then every 60 s (300 s with
push); an older chain of ticks stops once the page mounts a new one; the tab re-registers; a
refresh that fails is logged and the next one still comes, with no error for the member."""

import logging

import pytest

import state.refresh
from models.auth_session import start_session
from models.push_subscription import save_subscription
from services.site_settings import current_settings
from state.refresh import RefreshState
from state.session import SessionState
from tests.factories import committed, make_member
from tests.outages import database_refused
from tests.queries import statements
from tests.state.conftest import run, scripts, substate


async def refresh_of(make_root, db, member=None, url: str = "/members") -> RefreshState:
    cookie = f"auth.session={committed(db, start_session, member.id)}" if member else ""
    root = make_root(url=url, cookie=cookie)
    await substate(root, SessionState)._load()
    return substate(root, RefreshState)


def waits(events: list) -> list[str]:
    return [code for code in scripts(events) if "setTimeout" in code]


async def test_logged_out_tabs_do_not_refresh(make_root, db) -> None:
    assert await run((await refresh_of(make_root, db)).start()) == []


async def test_ticks_come_after_5_then_60_seconds_and_register_the_tab(
    make_root, db, tab_registry_in_memory
) -> None:
    anna = make_member(db)
    refresh = await refresh_of(make_root, db, anna)

    [first] = waits(await run(refresh.start()))
    assert "5000)" in first
    events = await run(refresh.tick(refresh._generation))

    assert "60000)" in waits(events)[0]
    assert events[0].handler.fn.__name__ == "refresh"  # the likes
    assert await tab_registry_in_memory.tokens(anna.id) == ["test-client-token"]


async def test_push_subscribers_refresh_every_five_minutes(make_root, db) -> None:
    anna = make_member(db)
    committed(db, save_subscription, anna.id, "https://push.example/1", "key", "auth")
    refresh = await refresh_of(make_root, db, anna)
    await run(refresh.start())

    assert "300000)" in waits(await run(refresh.tick(refresh._generation)))[0]


async def test_an_older_chain_of_ticks_stops(make_root, db) -> None:
    refresh = await refresh_of(make_root, db, make_member(db))
    await run(refresh.start())
    old = refresh._generation
    await run(refresh.start())  # the next page mounted

    assert await run(refresh.tick(old)) == []


async def test_a_tab_whose_state_was_lost_keeps_its_chain_of_ticks(make_root, db) -> None:
    """Redis restarted: the tab's state is new, its browser still counts the page's chain."""
    refresh = await refresh_of(make_root, db, make_member(db))

    assert waits(await run(refresh.tick(7)))  # adopted: the next tick is on its way
    assert await run(refresh.tick(6)) == []  # another chain stops
    assert await run(refresh.tick("7")) == []  # only a number from the browser
    assert await run(refresh.tick(2**40)) == []


async def test_a_push_message_reloads_chats_and_likes(make_root, db) -> None:
    refresh = await refresh_of(make_root, db, make_member(db))
    events = await run(refresh.push_arrived())

    assert [e.handler.fn.__name__ for e in events] == ["refresh"]
    assert await run((await refresh_of(make_root, db)).push_arrived()) == []


async def test_a_tick_that_fails_is_logged_and_the_next_one_still_comes(
    make_root, db, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    refresh = await refresh_of(make_root, db, make_member(db))
    await run(refresh.start())

    def database_down(_member_id: int) -> bool:
        raise database_refused()

    monkeypatch.setattr(state.refresh, "gets_pushes", database_down)
    with caplog.at_level(logging.ERROR):
        events = await run(refresh.tick(refresh._generation))

    assert ["60000)" in code for code in waits(events)] == [True]  # and nothing else: no toast
    assert "periodic refresh failed" in caplog.text


@pytest.mark.parametrize("url", ["/members", "/chats"])
async def test_a_tick_costs_a_few_statements(make_root, db, one_event, url: str) -> None:
    refresh = await refresh_of(make_root, db, make_member(db), url)
    await run(refresh.start())

    current_settings()  # cached per worker
    one_event()
    with statements() as seen:
        await run(refresh.tick(refresh._generation))

    # the frame (viewer, member, profile and badges in one) and push or not; on /chats the list
    assert len(seen) == {"/members": 2, "/chats": 3}[url]
