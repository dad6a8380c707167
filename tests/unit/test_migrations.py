"""The Alembic history builds exactly the schema the models describe, on every database."""

from datetime import UTC, datetime

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Integer,
    String,
    column,
    insert,
    inspect,
    select,
    table,
)

from models.db import is_ours, make_engine
from models.tables import metadata
from services.config import PROJECT_ROOT


def _alembic_config(connection) -> Config:
    config = Config(str(PROJECT_ROOT / "alembic.ini"))
    config.attributes["connection"] = connection
    return config


def test_migrations_match_models_and_roll_back(database_url: str) -> None:
    engine = make_engine(database_url)
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "head")
        context = MigrationContext.configure(
            connection,
            opts={"compare_type": True, "render_as_batch": True, "include_name": is_ours},
        )
        assert compare_metadata(context, metadata) == []
    with engine.begin() as connection:
        command.downgrade(_alembic_config(connection), "base")
        assert set(inspect(connection).get_table_names()) <= {"alembic_version"}
    engine.dispose()


DAMRAK = "Damrak 1, 1012 LG Amsterdam"


@pytest.mark.parametrize(
    ("stored", "address", "country", "downgraded"),
    [
        (f"{DAMRAK}, Netherlands", DAMRAK, "NL", f"{DAMRAK}, Netherlands"),
        (f"{DAMRAK}, The Netherlands", DAMRAK, "NL", f"{DAMRAK}, Netherlands"),
        (f"{DAMRAK},  the netherlands ", DAMRAK, "NL", f"{DAMRAK}, Netherlands"),
        (f"{DAMRAK}, Nederland", DAMRAK, "NL", f"{DAMRAK}, Netherlands"),
        ("Unter den Linden 1, 10117 Berlin, Deutschland", "Unter den Linden 1, 10117 Berlin",
         "DE", "Unter den Linden 1, 10117 Berlin, Germany"),
        (f"{DAMRAK}, Niederlande", DAMRAK, "NL", f"{DAMRAK}, Netherlands"),
        ("Mannerheimintie 1, 00100 Helsinki, Suomi", "Mannerheimintie 1, 00100 Helsinki", "FI",
         "Mannerheimintie 1, 00100 Helsinki, Finland"),
        # No country it can name: the address stays whole and no country is added to it.
        (DAMRAK, DAMRAK, "", DAMRAK),
        (f"{DAMRAK}, Atlantis", f"{DAMRAK}, Atlantis", "", f"{DAMRAK}, Atlantis"),
        ("Netherlands", "Netherlands", "", "Netherlands"),
    ],
)  # fmt: skip
def test_a_stored_creditor_address_gives_its_country_to_creditor_country(
    database_url: str, stored: str, address: str, country: str, downgraded: str
) -> None:
    """Issue 28: the country at the end of the address, named in any of the site's languages,
    becomes `creditor_country`; one it cannot name stays in the address, with no country added
    (the default "NL" would have made "…, Deutschland, Niederlande")."""
    engine = make_engine(database_url)
    settings = table("sitesetting", column("key", String), column("value", JSON))
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "0014")
        connection.execute(insert(settings).values(key="creditor_address", value=stored))
        command.upgrade(_alembic_config(connection), "0015")
        rows = dict(connection.execute(select(settings.c.key, settings.c.value)).all())
        assert rows == {"creditor_address": address, "creditor_country": country}
        command.downgrade(_alembic_config(connection), "0014")
        assert dict(connection.execute(select(settings.c.key, settings.c.value)).all()) == {
            "creditor_address": downgraded
        }
        command.downgrade(_alembic_config(connection), "base")
    engine.dispose()


FLAGS = ("paid_user", "fictional_icon", "is_demo", "invisible", "privacy_mode")
# The member table as 0017 leaves it: its columns that take no NULL, and the settings.
MEMBER_AT_0017 = table(
    "member",
    column("id", Integer),
    column("email", String),
    column("status", String),
    column("language", String),
    column("signup_date", DateTime),
    column("credits", Integer),
    column("failed_logins", Integer),
    *(column(flag, Boolean) for flag in FLAGS),
    column("notification_settings", JSON),
)


def member_row(member_id: int, settings: dict[str, bool] | None) -> dict[str, object]:
    return {
        "id": member_id,
        "email": f"m{member_id}@example.org",
        "status": "active",
        "language": "en",
        "signup_date": datetime(2026, 1, 1, tzinfo=UTC),
        "credits": 0,
        "failed_logins": 0,
        **dict.fromkeys(FLAGS, False),
        "notification_settings": settings,
    }


def test_a_stored_offers_choice_is_forgotten_and_the_others_kept(database_url: str) -> None:
    """Issue 28: the old save_preferences stored `email_offers` for every member who saved any
    switch, so a stored `true` is no opt-in: offers and news are off for everyone after it."""
    engine = make_engine(database_url)
    settings = MEMBER_AT_0017.c.notification_settings
    stored = {
        1: {"email_offers": True, "email_likes": False, "push_messages": True},
        2: {"email_offers": False},
        3: {"email_messages": False},
        4: {},
        5: None,
    }
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "0017")
        connection.execute(
            insert(MEMBER_AT_0017), [member_row(key, value) for key, value in stored.items()]
        )
        command.upgrade(_alembic_config(connection), "0018_offers_opt_in")
        assert dict(connection.execute(select(MEMBER_AT_0017.c.id, settings)).all()) == {
            1: {"email_likes": False, "push_messages": True},
            2: {},
            3: {"email_messages": False},
            4: {},
            5: None,
        }
        command.downgrade(_alembic_config(connection), "base")
    engine.dispose()
