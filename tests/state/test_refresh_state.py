"""The periodic refresh: only while logged in, first after 5 s, then every 60 s (300 s with
push); an older chain of ticks stops once the page mounts a new one; the tab re-registers."""

from models.auth_session import start_session
from models.push_subscription import save_subscription
from state.refresh import FIRST_REFRESH_MS, PUSH_REFRESH_MS, REFRESH_MS, RefreshState
from state.session import SessionState
from tests.factories import make_member
from tests.state.conftest import run, scripts, substate


def refresh_of(make_root, db, member=None) -> RefreshState:
    cookie = f"auth.session={start_session(db, member.id)}" if member else ""
    root = make_root(url="/members", cookie=cookie)
    substate(root, SessionState).load()
    return substate(root, RefreshState)


def waits(events: list) -> list[str]:
    return [code for code in scripts(events) if "setTimeout" in code]


async def test_logged_out_tabs_do_not_refresh(make_root, db) -> None:
    assert await run(refresh_of(make_root, db).start()) == []


async def test_ticks_come_after_5_then_60_seconds_and_register_the_tab(
    make_root, db, tab_registry_in_memory
) -> None:
    anna = make_member(db)
    refresh = refresh_of(make_root, db, anna)

    [first] = waits(await run(refresh.start()))
    assert f"{FIRST_REFRESH_MS})" in first
    events = await run(refresh.tick(refresh._generation))

    assert f"{REFRESH_MS})" in waits(events)[0]
    assert {"refresh_list", "refresh"} <= {str(e.handler.fn.__name__) for e in events[:2]}
    assert await tab_registry_in_memory.tokens(anna.id) == ["test-client-token"]


async def test_push_subscribers_refresh_every_five_minutes(make_root, db) -> None:
    anna = make_member(db)
    save_subscription(db, anna.id, "https://push.example/1", "key", "auth")
    refresh = refresh_of(make_root, db, anna)
    await run(refresh.start())

    assert f"{PUSH_REFRESH_MS})" in waits(await run(refresh.tick(refresh._generation)))[0]


async def test_an_older_chain_of_ticks_stops(make_root, db) -> None:
    refresh = refresh_of(make_root, db, make_member(db))
    await run(refresh.start())
    old = refresh._generation
    await run(refresh.start())  # the next page mounted

    assert await run(refresh.tick(old)) == []


async def test_a_push_message_reloads_chats_and_likes(make_root, db) -> None:
    refresh = refresh_of(make_root, db, make_member(db))
    events = await run(refresh.push_arrived())

    assert [e.handler.fn.__name__ for e in events] == ["refresh_list", "refresh"]
    assert await run(refresh_of(make_root, db).push_arrived()) == []
