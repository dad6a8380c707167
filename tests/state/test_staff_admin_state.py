"""The admins' console handlers called as a tab calls them: the settings page (open a setting,
refused values and a missing reason shown on their inputs, a change saved with its history, a
change another admin saved meanwhile refused and shown) and the discount codes page (a new
code, its errors, one code for a double click, disabling with a reason)."""

import pytest
from sqlmodel import Session, select

from actions.site_settings_admin import change_setting
from actions.staff_viewer import StaffViewer
from models.discount_codes import DISABLED, DiscountCode
from models.member import Member
from models.setting_changes import SettingChange
from models.site_settings import load_settings, seed_default_settings
from models.staff import Role
from state.staff_discounts import StaffDiscountsState
from state.staff_settings import StaffSettingsState
from tests.factories import make_member
from tests.state.conftest import redirects, run, substate
from tests.unit.test_staff_console_routes import staff_session


@pytest.fixture
def admin_token(db: Session) -> str:
    seed_default_settings(db)
    db.commit()
    return staff_session(db, make_member(db, "ada@example.com"), Role.ADMIN)


def settings_tab(make_root, token: str) -> StaffSettingsState:
    return substate(
        make_root(url="/staff/settings", cookie=f"auth.session={token}"), StaffSettingsState
    )


def discounts_tab(make_root, token: str) -> StaffDiscountsState:
    root = make_root(url="/staff/discounts", cookie=f"auth.session={token}")
    return substate(root, StaffDiscountsState)


async def test_a_setting_is_opened_refused_and_saved(make_root, db, admin_token):
    page = settings_tab(make_root, admin_token)
    await run(page.load())
    titles = [theme["title"] for theme in page.themes]
    assert "Credits and costs" in titles and page.key == ""

    await run(page.open("message_credits"))
    assert (page.key, page.current, page.default, page.changes) == ("message_credits", "5", "5", [])
    assert page.inputs[0]["inputs"][0]["name"] == "value"

    await run(page.save({"value": "6", "reason": "  "}))
    assert list(page.errors) == ["reason"]
    await run(page.save({"value": "0", "reason": "Spring pricing"}))
    assert page.errors == {"value": "Enter a whole number from 1 to 1000."}
    assert db.exec(select(SettingChange)).all() == []

    await run(page.save({"value": "6", "reason": "Spring pricing"}))
    assert page.errors == {} and page.saved == "message_credits" and page.current == "6"
    assert [(c["old"], c["new"]) for c in page.changes] == [("5", "6")]
    db.expire_all()
    assert load_settings(db).message_credits == 6


async def test_only_editable_settings_open(make_root, db, admin_token):
    page = settings_tab(make_root, admin_token)
    await run(page.load())
    for key in ("cdn_prefix", "nonsense", "x" * 5000):
        await run(page.open(key))
        assert page.key == "" and page.inputs == []
    await run(page.save({"value": "/elsewhere/", "reason": "Try"}))
    assert db.exec(select(SettingChange)).all() == []


async def test_a_moderator_gets_no_settings(make_root, db, admin_token):
    token = staff_session(db, make_member(db, "mo@example.com"), Role.MODERATOR)
    page = settings_tab(make_root, token)
    events = await run(page.open("message_credits"))
    assert redirects(events)[0].startswith("/staff/verify") and page.key == ""


@pytest.fixture
def anna(db: Session) -> Member:
    return make_member(db, "anna@example.com")


async def test_a_code_is_created_listed_and_disabled(make_root, db, admin_token, anna):
    page = discounts_tab(make_root, admin_token)
    await run(page.load())
    assert "NL" in page.countries and "EUR" in page.currencies and page.rows == []

    form = {
        "code": "anna20",
        "percentage": "20",
        "validity": "once-per-user",
        "member": "anna@example.com",
        "form_key": "0",
    }
    await run(page.create(form))
    assert list(page.errors) == ["reason"] and page.created == ""
    await run(page.create({**form, "percentage": "91", "reason": "Goodwill"}))
    assert page.errors == {"percentage": "Enter a whole number from 1 to 90."}
    await run(page.create({**form, "country": "ZZ", "reason": "Goodwill"}))
    assert list(page.errors) == ["country"]

    await run(page.create({**form, "reason": "Goodwill"}))
    assert page.errors == {} and page.created == "ANNA20" and page.form_key == 1
    assert [(r["code"], r["member"], r["uses"]) for r in page.rows] == [
        ("ANNA20", "anna@example.com", 0)
    ]
    await run(page.create({**form, "form_key": "1", "reason": "Twice"}))
    assert page.errors == {"code": "This code exists already."}

    code_id = page.rows[0]["id"]
    await run(page.ask_disable(code_id))
    assert page.disabling == code_id
    await run(page.disable({"reason": ""}))
    assert list(page.errors) == ["reason"]
    await run(page.disable({"reason": "Sent to the wrong member"}))
    assert page.disabling == 0 and page.rows[0]["status"] == DISABLED
    db.expire_all()
    assert db.get(DiscountCode, code_id).status == DISABLED


async def test_a_double_click_makes_one_code(make_root, db, admin_token):
    page = discounts_tab(make_root, admin_token)
    await run(page.load())
    generated = {"percentage": "10", "validity": "reusable", "reason": "Campaign"}
    sent = {**generated, "form_key": str(page.form_key)}

    await run(page.create(sent))
    made = page.created
    await run(page.create(sent))  # the same form, sent again before the new one arrived

    assert page.created == made and page.errors == {}
    assert [r["code"] for r in page.rows] == [made]
    assert db.exec(select(DiscountCode.code)).all() == [made]
    await run(page.create({**generated, "form_key": str(page.form_key)}))
    assert len(db.exec(select(DiscountCode)).all()) == 2


async def test_a_setting_changed_meanwhile_is_refused_and_shown(make_root, db, admin_token):
    page = settings_tab(make_root, admin_token)
    await run(page.load())
    await run(page.open("message_credits"))
    bea = make_member(db, "bea@example.com")
    other = StaffViewer(bea.id, Role.ADMIN, frozenset({Role.ADMIN}), "en", "203.0.113.10")
    change_setting(other, "message_credits", {"value": "6"}, "Spring pricing", "5")

    await run(page.save({"value": "7", "reason": "Summer pricing"}))

    assert list(page.errors) == [""] and page.saved == ""
    assert page.current == "6" and [(c["old"], c["new"]) for c in page.changes] == [("5", "6")]
    db.expire_all()
    assert load_settings(db).message_credits == 6
    await run(page.save({"value": "7", "reason": "Summer pricing"}))
    assert page.errors == {} and page.current == "7"
