import pytest
from sqlmodel import Session

from models.auth_session import start_session
from models.site_settings import save_setting, seed_default_settings
from state.i18n import I18nState
from state.members import MembersState
from state.session import SessionState
from state.shell import ShellState
from tests.factories import add_photo, committed, make_member
from tests.state.conftest import browser_delivers, substate


async def _load(root) -> None:
    await substate(root, ShellState).on_page_load()


async def test_locale_comes_from_the_browser_and_is_remembered(make_root, db: Session) -> None:
    committed(db, seed_default_settings)
    root = make_root(accept_language="sv-SE,sv;q=0.9,en;q=0.5")
    await _load(root)
    i18n = substate(root, I18nState)
    assert (i18n.locale, i18n.locale_cookie, i18n.ready) == ("sv", "sv", True)


async def test_cookie_wins_and_account_language_beats_browser(make_root, db: Session) -> None:
    member = make_member(db, language="it")
    token = committed(db, start_session, member.id)
    root = make_root(accept_language="de", cookie=f"auth.session={token}")
    await _load(root)
    assert substate(root, I18nState).locale == "it"
    root = make_root(accept_language="de")
    substate(root, I18nState).locale_cookie = "fi"
    await _load(root)
    assert substate(root, I18nState).locale == "fi"


async def test_a_state_rebuilt_without_the_browsers_cookies_keeps_the_cookies_locale(
    make_root, db: Session
) -> None:
    """After Redis lost the tab's state, Reflex rebuilds it on an ordinary event without the
    cookies a hydrate brings: the locale cookie the socket's request carried still wins over
    the account's language, and is not overwritten with it."""
    member = make_member(db, language="de")
    token = committed(db, start_session, member.id)
    root = make_root(accept_language="de", cookie=f"auth.session={token}; i18n_redirected=fi")
    await _load(root)
    i18n = substate(root, I18nState)
    assert (i18n.locale, i18n.locale_cookie) == ("fi", "fi")


@pytest.mark.parametrize("reload", [True, False], ids=["reload", "navigation"])
async def test_an_older_tab_follows_the_language_another_tab_picked(
    make_root, db: Session, reload: bool
) -> None:
    """A member has two tabs in Finnish and picks English in the second: the first, loading a
    page again, shows English and does not write Finnish back into the browser's cookie."""
    member = make_member(db, language="fi")
    token = committed(db, start_session, member.id)
    tabs = [make_root(cookie=f"auth.session={token}") for _ in range(2)]
    for tab in tabs:
        browser_delivers(tab, I18nState, locale_cookie="fi", reload=True)
        await _load(tab)
    await substate(tabs[1], I18nState).switch("en")
    db.refresh(member)
    assert member.language == "en"
    browser_delivers(tabs[0], I18nState, locale_cookie="en", reload=reload)
    await _load(tabs[0])
    i18n = substate(tabs[0], I18nState)
    assert (i18n.locale, i18n.locale_cookie) == ("en", "en")


async def test_domain_language_applies_without_cookie_or_browser_match(make_root, db) -> None:
    committed(db, seed_default_settings)
    committed(db, save_setting, "domain_language", "da_DK")
    root = make_root(accept_language="ja")
    await _load(root)
    assert substate(root, I18nState).locale == "da"


async def test_switching_language_sets_the_cookie_and_refuses_unknown_codes(make_root) -> None:
    i18n = substate(make_root(), I18nState)
    await i18n.switch("pl")
    assert (i18n.locale, i18n.locale_cookie) == ("pl", "pl")
    assert await i18n.switch("xx") is None
    assert i18n.locale == "pl"


@pytest.mark.parametrize(
    ("country_header", "setting", "shown"),
    [("NL", "yes", True), ("US", "yes", False), ("DE", "no", False)],
)  # fmt: skip
async def test_entry_warning_rules(make_root, db, country_header, setting, shown) -> None:
    committed(db, seed_default_settings)
    committed(db, save_setting, "enable_site_entry_popup", setting)
    root = make_root(cf_ipcountry=country_header)
    await _load(root)
    shell = substate(root, ShellState)
    assert not shell.show_entry_warning  # not before the page said it is not the installed app
    shell.set_in_app(False)
    assert shell.show_entry_warning is shown


async def test_entry_warning_stays_away_once_dismissed_or_in_the_app(make_root, db) -> None:
    committed(db, seed_default_settings)
    root = make_root(accept_language="nl-NL")
    await _load(root)
    shell = substate(root, ShellState)
    shell.set_in_app(False)
    assert shell.show_entry_warning
    shell.set_in_app(True)
    assert not shell.show_entry_warning
    shell.set_in_app(False)
    shell.dismiss_entry_warning()
    assert shell.entry_warning_dismissed_at.startswith("20")
    assert not shell.show_entry_warning


async def test_the_terms_date_reaches_the_footer(make_root, db) -> None:
    committed(db, seed_default_settings)
    root = make_root()
    await _load(root)
    assert substate(root, ShellState).terms_date == "2023-12-01"


async def test_newest_members_hides_disabled_profiles(make_root, db) -> None:
    committed(db, seed_default_settings)
    for n in range(3):
        add_photo(db, make_member(db, f"m{n}@example.com"), f"p{n}", main=True)
    make_member(db, "gone@example.com", status="deleted_pending")
    members = substate(make_root(), MembersState)
    await members.load_newest()
    assert [m["name"] for m in members.members] == ["M2", "M1", "M0"]
    assert members.members[0]["thumb"].startswith("/media/photos/")


async def test_logged_out_search_can_be_switched_off(make_root, db) -> None:
    committed(db, seed_default_settings)
    committed(db, save_setting, "logged_out_search", False)
    make_member(db)
    members = substate(make_root(), MembersState)
    await members.load_newest()
    assert members.login_required and members.members == []
    assert not substate(make_root(), SessionState).logged_in


@pytest.mark.parametrize(
    ("switched_on", "name", "link", "shown"),
    [
        (True, "CamPals", "https://campals.example/?aff=7&s={placement}", True),
        (False, "CamPals", "https://campals.example/?aff=7&s={placement}", False),
        (True, "", "https://campals.example/?aff=7", False),
        (True, "CamPals", "", False),
    ],
)
async def test_the_cam_card_has_a_partner_only_while_switched_on_with_name_and_link(
    make_root, db, switched_on: bool, name: str, link: str, shown: bool
) -> None:
    committed(db, seed_default_settings)
    committed(db, save_setting, "cam_promotion", switched_on)
    committed(db, save_setting, "cam_partner_name", name)
    committed(db, save_setting, "cam_partner_url", link)
    root = make_root()
    await _load(root)
    shell = substate(root, ShellState)
    assert (shell.cam_partner, shell.cam_link) == ((name, link) if shown else ("", ""))
