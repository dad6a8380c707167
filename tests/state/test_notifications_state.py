"""/notifications: switches store known kinds only, for the member behind the session cookie;
e-mail switched off by the mail system stays off until the member asks for e-mail again."""

import pytest
from sqlmodel import Session

from models.auth_session import end_session, start_session
from models.member import Member
from models.notification_prefs import NOTIFICATION_KINDS
from services.push_keys import vapid_public_key
from state.i18n import I18nState
from state.notifications import EMAIL_ON_AGAIN, SAVED, NotificationsState
from state.session import SessionState
from tests.factories import committed, make_member
from tests.state.conftest import redirects, run, scripts, substate
from tests.state.test_signup_state import fresh
from translations.catalog import gettext
from translations.errors import GENERIC_ERROR

LOGIN = "/login?next=%2Fnotifications"


async def notifications_tab(make_root, token: str | None, locale: str = "en") -> NotificationsState:
    cookie = {"cookie": f"auth.session={token}"} if token else {}
    root = make_root(url="/notifications", **cookie)
    await substate(root, SessionState)._load()
    substate(root, I18nState).locale = locale
    return substate(root, NotificationsState)


async def loaded_tab(make_root, db: Session, member: Member, locale: str = "en"):
    tab = await notifications_tab(make_root, committed(db, start_session, member.id), locale)
    await run(tab.load())
    return tab


def stored(db: Session, member: Member) -> tuple[dict, list]:
    saved = fresh(db).get(Member, member.id)
    return saved.notification_settings, saved.notifications_disabled


async def test_loading_shows_the_choices_and_asks_the_browser(make_root, db) -> None:
    member = make_member(db, notification_settings={"email_offers": False})
    tab = await notifications_tab(make_root, committed(db, start_session, member.id))
    events = await run(tab.load())
    assert tab.loaded and tab.reasons == []
    assert tab.prefs == {kind: kind != "email_offers" for kind in NOTIFICATION_KINDS}
    assert scripts(events) == ["window.siteSession.pushStatus()"]


async def test_a_switch_is_saved_with_a_notice(make_root, db) -> None:
    member = make_member(db)
    tab = await loaded_tab(make_root, db, member, "fr")
    await run(tab.set_preference("email_likes", False))
    assert stored(db, member)[0]["email_likes"] is False
    assert tab.prefs["email_likes"] is False and tab.prefs["email_messages"] is True
    assert tab.notices == {"email": gettext("fr", SAVED)}
    await run(tab.set_preference("push_messages", False))
    assert stored(db, member)[0]["push_messages"] is False
    assert tab.notices == {"push": gettext("fr", SAVED)}


async def test_unknown_kinds_are_ignored(make_root, db) -> None:
    member = make_member(db)
    tab = await loaded_tab(make_root, db, member)
    for kind in ("admin", "paid_user", "", "EMAIL_LIKES"):
        await run(tab.set_preference(kind, False))
    assert stored(db, member)[0] == {} and tab.notices == {}


async def test_only_true_switches_on(make_root, db) -> None:
    member = make_member(db, notification_settings={"push_likes": False})
    tab = await loaded_tab(make_root, db, member)
    await run(tab.set_preference("push_likes", "false"))
    assert stored(db, member)[0]["push_likes"] is False


async def test_email_switches_stay_while_email_is_switched_off(make_root, db) -> None:
    member = make_member(db, notifications_disabled=["bounce", "spam", "unknown"])
    tab = await loaded_tab(make_root, db, member)
    assert tab.reasons == ["bounce", "spam"]
    await run(tab.set_preference("email_messages", False))
    assert stored(db, member)[0] == {} and tab.notices == {}
    await run(tab.set_preference("push_likes", False))
    assert stored(db, member)[0]["push_likes"] is False


async def test_asking_for_email_again_clears_the_reasons(make_root, db) -> None:
    member = make_member(db, notifications_disabled=["unsubscribe"])
    tab = await loaded_tab(make_root, db, member, "de")
    await run(tab.send_emails_again())
    assert stored(db, member)[1] == [] and tab.reasons == []
    assert tab.notices == {"email": gettext("de", EMAIL_ON_AGAIN)}
    await run(tab.set_preference("email_messages", False))
    assert stored(db, member)[0]["email_messages"] is False


GUARDED = [
    ("set_preference", ("email_likes", False)),
    ("set_preference", ("push_likes", False)),
    ("send_emails_again", ()),
    ("turn_on_push", ()),
]


@pytest.mark.parametrize(("handler", "args"), GUARDED)
@pytest.mark.parametrize("cookie", ["missing", "ended"])
async def test_without_a_live_session_nothing_changes(
    make_root, db, outbox, handler, args, cookie
) -> None:
    member = make_member(db, notifications_disabled=["spam"])
    token = committed(db, start_session, member.id)
    tab = await notifications_tab(make_root, token if cookie == "ended" else None)
    await run(tab.load())
    if cookie == "ended":  # logged out elsewhere after this page loaded
        assert tab.loaded
        committed(db, end_session, token)
    before = stored(db, member)
    events = await run(getattr(tab, handler)(*args))
    assert redirects(events) == [LOGIN] and scripts(events) == []
    assert stored(db, member) == before


async def test_turning_on_push_uses_the_shared_opt_in(make_root, db, outbox) -> None:
    member = make_member(db)
    tab = await loaded_tab(make_root, db, member)
    events = await run(tab.turn_on_push())
    assert scripts(events) == [f'window.siteSession.subscribePush("{vapid_public_key()}")']


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        ("subscribed", "subscribed"),
        ("denied", "denied"),
        ("unsupported", "unsupported"),
        ("ios_home_screen", "ios_home_screen"),  # an iPhone outside the Home Screen app
        ("default", "not_subscribed"),
        ("failed", "not_subscribed"),
        ("<script>", "not_subscribed"),
    ],
)
async def test_the_browsers_answer_sets_the_push_state(make_root, db, answer, status) -> None:
    member = make_member(db)
    tab = await loaded_tab(make_root, db, member, "it")
    await run(tab.push_answered(answer))
    assert tab.push_status == status
    failed = status == "not_subscribed" and answer != "default"
    assert tab.errors == ({"push": gettext("it", GENERIC_ERROR)} if failed else {})


@pytest.mark.parametrize(
    ("status", "shown"),
    [("subscribed", "subscribed"), ("not_subscribed", "not_subscribed"), ("x" * 99, "unsupported"),
     ("ios_home_screen", "ios_home_screen")],
)  # fmt: skip
async def test_the_push_state_reported_by_the_browser(make_root, db, status, shown) -> None:
    member = make_member(db)
    tab = await loaded_tab(make_root, db, member)
    await run(tab.push_checked(status))
    assert tab.push_status == shown
