from datetime import date
from itertools import count
from threading import Event

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, create_engine, select

import services.database
from models.site_settings import (
    NICHE_SLUG_PREFIXES,
    SETTING_NAMES,
    SiteSetting,
    SiteSettings,
    company_info,
    creditor_address,
    load_settings,
    save_setting,
    seed_default_settings,
    terms_version_date,
)
from services.database import transaction
from services.site_settings import current_settings, forget_cached_settings
from tests.concurrency import at_once, postgres_only

SPEC_FIELDS = {
    "countries", "name", "index_title", "description", "visible_profile_fields",
    "visible_profile_notes", "cdn_prefix", "message_credits", "signup_credits", "photo_credits",
    "gift_credits", "message_length", "minimum_message_costs", "support_email", "support_phone",
    "company_name", "company_address", "company_kvk", "company_city", "company_country",
    "company_tradenames", "company_vat_numbers", "company_added", "company_id", "mail_name",
    "delete_discount", "enable_site_entry_popup", "search_fields", "domain", "domain_language",
    "fictional_warning", "fictional_singular", "fictional_plural", "refund_days", "signups",
    "logged_out_search", "logged_out_search_trafficsource", "interests", "member_resell", "niche",
}  # fmt: skip


def test_every_stored_spec_setting_exists() -> None:
    assert SPEC_FIELDS <= SETTING_NAMES


def test_seed_writes_every_default_once(db: Session) -> None:
    seed_default_settings(db)
    seed_default_settings(db)
    keys = list(db.exec(select(SiteSetting.key)))
    assert sorted(keys) == sorted(SETTING_NAMES)
    assert load_settings(db) == SiteSettings()


def test_a_row_overrides_its_default(db: Session) -> None:
    seed_default_settings(db)
    save_setting(db, "message_credits", 7)
    save_setting(db, "countries", ["NL", "BE"])
    settings = load_settings(db)
    assert settings.message_credits == 7
    assert settings.countries == ["NL", "BE"]


@pytest.mark.parametrize(
    ("key", "value", "error"),
    [("no_such_setting", 1, KeyError), ("message_credits", "7", TypeError),
     ("niche", True, TypeError)],
)  # fmt: skip
def test_bad_edits_are_refused_and_change_nothing(db, key, value, error) -> None:
    with pytest.raises(error):
        save_setting(db, key, value)
    assert db.get(SiteSetting, key) is None


def test_message_costs_cover_every_country_with_a_currency() -> None:
    settings = SiteSettings()
    assert set(settings.minimum_message_costs) == set(settings.countries)
    assert settings.minimum_message_costs["GB"]["currency"] == "GBP"
    assert settings.minimum_message_costs["NL"]["currency"] == "EUR"


def test_niche_selects_landing_slug_prefix() -> None:
    assert [NICHE_SLUG_PREFIXES[n] for n in range(1, 8)] == [
        "", "she-", "bdsm-", "bbw-", "gilf-", "milf-", "gay-"
    ]  # fmt: skip
    assert SiteSettings(niche=3).niche_slug_prefix == "bdsm-"


def test_company_info_cleans_the_support_phone() -> None:
    info = company_info(SiteSettings(support_phone="+31 20-123 45 67"))
    assert info.support_phone == "+31201234567"


def test_the_seeded_creditor_address_holds_no_country_and_names_one_per_reader() -> None:
    settings = SiteSettings()
    assert (settings.creditor_address, settings.creditor_country) == (
        "Keizersgracht 123, 1015 CJ Amsterdam",
        "NL",
    )
    assert creditor_address(settings, "de") == "Keizersgracht 123, 1015 CJ Amsterdam, Niederlande"


def test_a_creditor_address_without_a_country_gets_none_added() -> None:
    """A stored address whose country the migration could not name keeps it in the address."""
    settings = SiteSettings(
        creditor_address="Damrak 1, 1012 LG Amsterdam, Holanda", creditor_country=""
    )
    assert creditor_address(settings, "de") == "Damrak 1, 1012 LG Amsterdam, Holanda"


@pytest.mark.parametrize(
    ("added", "expected"),
    [("2020-01-01", date(2023, 12, 1)), ("2024-05-02", date(2024, 5, 2)),
     ("not a date", date(2023, 12, 1))],
)  # fmt: skip
def test_terms_version_date(added: str, expected: date) -> None:
    assert terms_version_date(SiteSettings(company_added=added)) == expected


def test_fictional_words_exist_in_every_locale() -> None:
    from translations.locales import LOCALES

    settings = SiteSettings()
    assert set(settings.fictional_singular) == set(LOCALES) == set(settings.fictional_plural)


def test_a_cold_cache_does_not_stall_a_burst_that_fills_the_pool(
    engine: Engine, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More transactions than pool connections, each reading the settings once every connection
    is taken, plus a caller outside any transaction: every one gets the stored settings, none
    waits for a connection until the pool gives up (the cache is empty, as in a fresh worker)."""
    postgres_only(engine)
    save_setting(db, "message_credits", 7)
    db.commit()
    pool_size = 2
    small = create_engine(engine.url, pool_size=pool_size, max_overflow=0, pool_timeout=5)
    monkeypatch.setattr(services.database, "get_engine", lambda: small)
    forget_cached_settings()
    taken, pool_full = count(1), Event()

    def in_a_transaction() -> int:
        with transaction() as db:
            db.exec(select(SiteSetting.key)).first()  # holds its connection from here on
            if next(taken) == pool_size:
                pool_full.set()
            pool_full.wait()
            return current_settings().message_credits

    def outside() -> int:
        pool_full.wait()
        return current_settings().message_credits

    try:
        assert at_once([in_a_transaction] * 5 + [outside]) == [7] * 6
    finally:
        forget_cached_settings()
        small.dispose()


class RolledBack(Exception):
    pass


def test_settings_read_inside_a_transaction_that_rolls_back_its_edit_are_not_cached(
    engine: Engine, db: Session
) -> None:
    """A cold cache filled inside a transaction that saved a setting and then rolled back
    would give every thread the value that was never committed."""
    save_setting(db, "message_credits", 7)
    db.commit()
    forget_cached_settings()
    try:
        with pytest.raises(RolledBack), transaction() as own:
            save_setting(own, "message_credits", 99)
            assert current_settings().message_credits == 99  # the transaction sees its edit
            raise RolledBack

        assert current_settings().message_credits == 7
    finally:
        forget_cached_settings()


def test_settings_read_inside_a_transaction_without_edits_are_cached(
    engine: Engine, db: Session
) -> None:
    save_setting(db, "message_credits", 7)
    db.commit()
    forget_cached_settings()
    try:
        with transaction():
            assert current_settings().message_credits == 7
        save_setting(db, "message_credits", 8)
        db.commit()
        assert current_settings().message_credits == 7  # the cached copy, for its 30 s
    finally:
        forget_cached_settings()
