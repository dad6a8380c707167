"""/unsubscribe: the key in the link names the account without a log-in; opening the page
changes nothing, the button switches notification e-mails off with the reason "unsubscribe"."""

from sqlmodel import Session

from models.member import Member
from models.notification_prefs import unsubscribe_key
from state.unsubscribe import UnsubscribeState
from tests.factories import committed, make_member
from tests.state.conftest import run, substate
from tests.state.test_signup_state import fresh


async def page(make_root, key: str) -> UnsubscribeState:
    tab = substate(make_root(url=f"/unsubscribe?key={key}"), UnsubscribeState)
    await run(tab.check_link())
    return tab


async def test_the_button_unsubscribes_the_links_member(make_root, db: Session) -> None:
    bo = make_member(db)
    tab = await page(make_root, committed(db, unsubscribe_key, bo))
    assert (tab.checked, tab.key_ok, tab.done) == (True, True, False)
    assert fresh(db).get(Member, bo.id).notifications_disabled == []  # opening is not enough
    await run(tab.confirm())
    assert tab.done
    assert fresh(db).get(Member, bo.id).notifications_disabled == ["unsubscribe"]


async def test_a_key_of_no_account_changes_nothing(make_root, db: Session) -> None:
    bo = make_member(db)
    committed(db, unsubscribe_key, bo)
    tab = await page(make_root, "A" * 43)
    assert (tab.checked, tab.key_ok) == (True, False)
    await run(tab.confirm())
    assert not tab.done
    assert fresh(db).get(Member, bo.id).notifications_disabled == []
