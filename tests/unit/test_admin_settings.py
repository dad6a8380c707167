"""The admins' site settings: every setting but the deployment's own is editable; each editor
refuses values outside the setting's type, range or vocabulary; a change is stored with its
history and audit row, and this worker's cache forgets the old value at once; a change saved
by another admin since the editor showed the value is refused."""

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from actions.effects import settle
from actions.runner import act
from actions.site_settings_admin import (
    CHANGED_MEANWHILE,
    change_setting,
    setting_editor,
    settings_overview,
)
from actions.staff_viewer import StaffViewer
from models.audit import AuditEntry
from models.chat import Message
from models.member import utcnow
from models.setting_catalogue import DEPLOYMENT_ONLY, EDITABLE, OPTION_LABELS
from models.setting_changes import SettingChange
from models.setting_fields import SettingRefused
from models.setting_kinds import Choice, Subset
from models.signup import SignupSource
from models.site_settings import SETTING_NAMES, SiteSettings, load_settings, seed_default_settings
from models.staff import Role
from services.site_settings import current_settings, forget_cached_settings
from tests.factories import make_member
from translations.catalog import STAFF, messages, text_part
from translations.locales import DEFAULT_LOCALE, LOCALES

DEFAULTS = SiteSettings()


def parse(key: str, form: dict, settings: SiteSettings = DEFAULTS):
    return EDITABLE[key].kind.parse(form, settings)


def refused(key: str, form: dict) -> str:
    """The input the editor names when it refuses `form`."""
    with pytest.raises(SettingRefused) as error:
        parse(key, form)
    return error.value.field


def form_of(key: str, settings: SiteSettings = DEFAULTS) -> dict:
    """The editor's form as the browser sends it back untouched (checkboxes: only ticked)."""
    form = {}
    for group in EDITABLE[key].kind.groups(getattr(settings, key), settings):
        for item in group.inputs:
            if item.input == "checkbox":
                if item.checked:
                    form[item.name] = "on"
            else:
                form[item.name] = item.value
    return form


def test_every_setting_but_the_deployments_own_is_editable():
    assert {"cdn_prefix"} == DEPLOYMENT_ONLY
    assert SETTING_NAMES - set(EDITABLE) == DEPLOYMENT_ONLY


def _translated(msgid: str) -> bool:
    return all(messages(locale).get(msgid) for locale in LOCALES if locale != DEFAULT_LOCALE)


def test_every_setting_has_a_label_and_any_hint_translated_in_the_staff_catalogue():
    texts = {e.label for e in EDITABLE.values()} | {e.hint for e in EDITABLE.values() if e.hint}
    assert all(e.label for e in EDITABLE.values())
    assert len({e.label for e in EDITABLE.values()}) == len(EDITABLE)  # no two alike
    assert [text for text in sorted(texts) if not _translated(text)] == []
    # Shared words ("Minimum age") stay in the main catalogue; the rest are the staff console's.
    assert text_part(None, EDITABLE["message_credits"].label) == STAFF
    assert text_part(None, EDITABLE["refund_days"].hint) == STAFF


def _option_values(kind) -> tuple[str, ...]:
    named = isinstance(kind, Choice | Subset) and kind.kind == "option"
    return kind.vocabulary(DEFAULTS) if named else ()


def test_every_vocabulary_option_has_a_translated_label():
    assert EDITABLE["signups"].kind.kind == EDITABLE["photo_moderation"].kind.kind == "option"
    options = {value for e in EDITABLE.values() for value in _option_values(e.kind)}
    assert {"all", "with_trafficsource", "none", "pre", "post", "yes", "no"} <= options
    assert options <= set(OPTION_LABELS)
    assert [v for v in sorted(options) if not _translated(OPTION_LABELS[v])] == []
    # The raw vocabularies left are named by the browser (countries, languages) or are data
    # (a bundle's tier, a field or interest name).
    raw = [e.key for e in EDITABLE.values() if isinstance(e.kind, Choice) and e.kind.kind == "raw"]
    assert raw == ["popular_bundle"]


@pytest.mark.parametrize("key", sorted(EDITABLE))
def test_each_editor_gives_back_the_value_it_shows(key):
    stored = parse(key, form_of(key))
    expected = getattr(DEFAULTS, key)
    if key == "minimum_message_costs":
        assert stored == {}  # shown as derived from the bundles: stored empty
    else:
        assert stored == expected


@pytest.mark.parametrize(
    ("key", "form", "name"),
    [
        ("message_credits", {"value": "0"}, "value"),
        ("message_credits", {"value": "1001"}, "value"),
        ("message_credits", {"value": "5.5"}, "value"),
        ("message_credits", {"value": "five"}, "value"),
        ("niche", {"value": "8"}, "value"),
        ("niche", {"value": "0"}, "value"),
        ("refund_days", {"value": "13"}, "value"),
        ("min_age", {"value": "17"}, "value"),
        ("signups", {"value": "some"}, "value"),
        ("photo_moderation", {"value": "never"}, "value"),
        ("domain_language", {"value": "xx"}, "value"),
        ("company_country", {"value": "ZZ"}, "value"),
        ("popular_bundle", {"value": "p9"}, "value"),
        ("support_email", {"value": "not an address"}, "value"),
        ("company_kvk", {"value": "1234"}, "value"),
        ("name", {"value": "   "}, "value"),
        ("name", {"value": "x" * 61}, "value"),
        ("company_added", {"value": "2023-13-01"}, "value"),
        ("company_added", {"value": (utcnow() + timedelta(days=1)).date().isoformat()}, "value"),
        ("message_length", {"value": "99"}, "value"),
        ("message_length", {"value": "2001"}, "value"),
        ("mail_name", {"value": "Amora\r\nBcc: all@example.com"}, "value"),
        ("name", {"value": "Amora\tDating"}, "value"),
        ("index_title", {"value": "Amora\x7f"}, "value"),
        ("description", {"value": "Amo\x85ra"}, "value"),
        ("company_tradenames", {"value": "Amora\x00Dating"}, "value"),
        ("fictional_plural", {"lang.nl": "a\x1bb"}, "lang.nl"),
        ("company_vat_numbers", {"value": "nl 123"}, "value"),
        ("company_vat_numbers", {"value": ""}, "value"),
        ("countries", {}, ""),
        ("interests", {}, ""),
        ("fictional_singular", {"lang.nl": "fictief"}, "lang.en"),
        ("vat_rates", {"rate.NL": "51"}, "rate.NL"),
        ("vat_rates", {"rate.NL": "-1"}, "rate.NL"),
        ("vat_rates", {"rate.NL": "21.123"}, "rate.NL"),
        ("cam_partner_url", {"value": "http://cams.example.com/"}, "value"),
        ("cam_partner_url", {"value": "https://203.0.113.9/?aff=1"}, "value"),
        ("cam_partner_url", {"value": 'https://cams.example.com/"><script>'}, "value"),
        ("cam_partner_url", {"value": "https://cams.example.com/?s={member}"}, "value"),
        ("cam_partner_name", {"value": "x" * 61}, "value"),
    ],
)
def test_values_outside_a_settings_rules_are_refused(key, form, name):
    assert refused(key, form) == name


def test_the_longest_message_fits_the_columns_that_store_it():
    assert parse("message_length", {"value": "2000"}) == 2000
    assert SignupSource.__table__.c.signup_message.type.length >= 2000
    assert Message.__table__.c.body.type.length >= 2000


def test_lists_keep_only_their_vocabulary():
    form = {"item.NL": "on", "item.BE": "on", "item.XX": "on", "item.nl": "on"}
    assert parse("countries", form) == ["NL", "BE"]
    assert parse("site_entry_popup_countries", {}) == []
    assert parse("interests", {"item.music": "on", "item.hacking": "on"}) == ["music"]


def test_numbers_texts_and_switches():
    assert parse("message_credits", {"value": " 7 "}) == 7
    assert parse("message_length", {"value": "2000"}) == 2000
    assert parse("company_added", {"value": utcnow().date().isoformat()}) == (
        utcnow().date().isoformat()
    )
    assert parse("mail_name", {"value": " Amora Dating "}) == "Amora Dating"
    assert parse("niche", {"value": "7"}) == 7
    assert parse("logged_out_search", {}) is False
    assert parse("logged_out_search", {"value": "on"}) is True
    assert parse("vat_rates", {"rate.NL": "21", "rate.FI": "25,5"}) == {"NL": 21.0, "FI": 25.5}
    assert parse("company_vat_numbers", {"value": "NL862345678B01\n\nBE0123456789\n"}) == [
        "NL862345678B01",
        "BE0123456789",
    ]


def test_the_bundles_editor_checks_every_tier_and_currency():
    form = form_of("credit_bundles")
    form["credits.p0"], form["price.p0.EUR"] = "120", "21,95"
    bundles = parse("credit_bundles", form)
    assert bundles["p0"]["credits"] == 120 and bundles["p0"]["prices"]["EUR"] == 2195
    assert bundles["p3"] == DEFAULTS.credit_bundles["p3"]
    for name, value in (("price.p1.GBP", "0"), ("price.p1.GBP", ""), ("credits.p2", "0")):
        broken = {**form, name: value}
        with pytest.raises(SettingRefused) as error:
            parse("credit_bundles", broken)
        assert error.value.field == name
    without_sek = {k: v for k, v in form.items() if k != "price.p3.SEK"}
    with pytest.raises(SettingRefused):
        parse("credit_bundles", without_sek)
    smuggled = parse("credit_bundles", {**form, "credits.p9": "5", "price.p0.XYZ": "1"})
    assert set(smuggled) == {"p0", "p1", "p2", "p3"} and "XYZ" not in smuggled["p0"]["prices"]


def test_the_message_costs_editor_derives_or_takes_each_country():
    assert parse("minimum_message_costs", {"derived": "on", "cost.NL": "9"}) == {}
    form = {f"cost.{c}": "0.10" for c in DEFAULTS.countries}
    form |= {f"currency.{c}": "EUR" for c in DEFAULTS.countries}
    costs = parse("minimum_message_costs", form)
    assert costs["NL"] == {"costs": 0.1, "currency": "EUR"} and len(costs) == 20
    with pytest.raises(SettingRefused) as error:
        parse("minimum_message_costs", {**form, "currency.GB": "XYZ"})
    assert error.value.field == "currency.GB"
    with pytest.raises(SettingRefused) as error:
        parse("minimum_message_costs", {**form, "cost.DE": "0"})
    assert error.value.field == "cost.DE"


# ----- the action -----


@pytest.fixture
def admin(db: Session) -> StaffViewer:
    member = make_member(db, "ada@example.com")
    return StaffViewer(member.id, Role.ADMIN, frozenset({Role.ADMIN}), "en", "203.0.113.9")


async def test_a_change_is_stored_with_its_history_and_audit_row(db: Session, admin: StaffViewer):
    seed_default_settings(db)
    db.commit()
    forget_cached_settings()
    assert current_settings().message_credits == 5  # now cached in this worker

    await act(change_setting, admin, "message_credits", {"value": "7"}, "Spring pricing", "5")
    await settle()

    assert current_settings().message_credits == 7  # the cache forgot the old value
    db.expire_all()
    assert load_settings(db).message_credits == 7
    change = db.exec(select(SettingChange)).one()
    assert (change.key, change.old, change.new, change.staff_id) == (
        "message_credits",
        5,
        7,
        admin.member_id,
    )
    entry = db.exec(select(AuditEntry)).one()
    assert (entry.action, entry.reason, entry.actor_id) == (
        "setting.change",
        "Spring pricing",
        admin.member_id,
    )
    assert (entry.before, entry.after) == ({"message_credits": 5}, {"message_credits": 7})


def test_a_refused_or_unchanged_value_writes_nothing(db: Session, admin: StaffViewer):
    seed_default_settings(db)
    db.commit()
    for key, form in (
        ("message_credits", {"value": "0"}),
        ("message_credits", {"value": "5"}),
        ("cdn_prefix", {"value": "/x/"}),
        ("minimum_message_costs", {"derived": "on"}),
    ):
        with pytest.raises(SettingRefused):
            change_setting(admin, key, form, "Testing", setting_editor_value(key))
    assert db.exec(select(SettingChange)).all() == []
    assert db.exec(select(AuditEntry)).all() == []
    assert load_settings(db) == SiteSettings()


def test_the_overview_and_the_editor_show_current_default_and_history(
    db: Session, admin: StaffViewer
):
    seed_default_settings(db)
    db.commit()
    change_setting(admin, "photo_moderation", {"value": "pre"}, "Spam wave", '"post"')
    change_setting(admin, "photo_moderation", {"value": "post"}, "Over", '"pre"')

    themes = settings_overview()
    rows = {row["key"]: row for theme in themes for row in theme["rows"]}
    assert set(rows) == set(EDITABLE)
    assert rows["photo_moderation"]["current"] == '"post"'
    assert rows["photo_moderation"]["default"] == '"post"'

    editor = setting_editor("photo_moderation")
    assert editor is not None
    assert [(c["old"], c["new"]) for c in editor["history"]] == [
        ('"pre"', '"post"'),
        ('"post"', '"pre"'),
    ]
    assert editor["groups"][0]["inputs"][0]["options"] == ["pre", "post"]
    assert setting_editor("cdn_prefix") is None


def setting_editor_value(key: str) -> str:
    """The value the setting's editor shows now ("" for one that has no editor)."""
    editor = setting_editor(key)
    return editor["current"] if editor else ""


def test_a_change_saved_since_the_editor_showed_the_value_is_refused(
    db: Session, admin: StaffViewer
):
    seed_default_settings(db)
    db.commit()
    bea = make_member(db, "bea@example.com")
    other = StaffViewer(bea.id, Role.ADMIN, frozenset({Role.ADMIN}), "en", "203.0.113.10")
    shown_to_both = setting_editor_value("message_credits")
    assert shown_to_both == "5"

    change_setting(other, "message_credits", {"value": "6"}, "Spring pricing", shown_to_both)
    with pytest.raises(SettingRefused) as error:
        change_setting(admin, "message_credits", {"value": "7"}, "Summer pricing", shown_to_both)

    assert error.value.message == CHANGED_MEANWHILE
    db.expire_all()
    assert load_settings(db).message_credits == 6
    assert [c.new for c in db.exec(select(SettingChange))] == [6]
    assert db.exec(select(AuditEntry.reason)).all() == ["Spring pricing"]
    change_setting(admin, "message_credits", {"value": "7"}, "Summer pricing", "6")
    db.expire_all()
    assert load_settings(db).message_credits == 7
