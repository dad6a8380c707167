"""The audit log is append-only (issue 29): the ORM refuses to change or delete a row, on
PostgreSQL the migration's trigger refuses UPDATE, DELETE and TRUNCATE from any SQL, and no
code of ours has a statement that updates or deletes an audit row. A reason of up to 4000
characters (an appeal's answer) fits, a longer one is cut, and a transparency download is
audited."""

import ast
import re
from dataclasses import replace
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, select

from actions.audit import audit
from actions.staff_viewer import StaffViewer
from models.audit import AuditEntry, AuditLogIsAppendOnly
from models.db import make_engine
from models.staff import Role
from services.config import PROJECT_ROOT
from tests.factories import make_member
from tests.unit.test_staff_console_routes import CSV_MAY, client_with, staff_session

CODE_FOLDERS = ("app", "components", "state", "actions", "services", "models", "bench")
STAFF = StaffViewer(7, Role.MODERATOR, frozenset({Role.MODERATOR}), "en", "192.0.2.1")


def _one_row(db: Session) -> AuditEntry:
    audit(db, STAFF, "decide", ("report", 3), "spam", {"status": "open"}, {"status": "decided"})
    db.commit()
    return db.exec(select(AuditEntry)).one()


def test_a_row_says_who_what_on_what_why_and_from_where(db: Session) -> None:
    row = _one_row(db)
    assert (row.actor_id, row.actor_role, row.action) == (7, "moderator", "decide")
    assert (row.target_type, row.target_id, row.reason) == ("report", 3, "spam")
    assert (row.before, row.after, row.address) == (
        {"status": "open"},
        {"status": "decided"},
        "192.0.2.1",
    )
    assert row.created_at is not None
    audit(db, None, "grant_role", ("member", 7), after={"role": "admin"})
    db.commit()
    cli = db.exec(select(AuditEntry).where(AuditEntry.action == "grant_role")).one()
    assert (cli.actor_id, cli.actor_role, cli.address) == (None, "cli", "")


def test_the_orm_refuses_to_change_a_row(db: Session) -> None:
    row = _one_row(db)
    row.reason = "something else"
    db.add(row)
    with pytest.raises(AuditLogIsAppendOnly):
        db.commit()
    db.rollback()
    assert db.exec(select(AuditEntry.reason)).one() == "spam"


def test_the_orm_refuses_to_delete_a_row(db: Session) -> None:
    db.delete(_one_row(db))
    with pytest.raises(AuditLogIsAppendOnly):
        db.commit()
    db.rollback()
    assert len(db.exec(select(AuditEntry)).all()) == 1


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE auditentry SET reason = 'changed'",
        "DELETE FROM auditentry",
        "TRUNCATE auditentry",
    ],
)
def test_postgresql_refuses_any_change_after_the_migrations(
    database_url: str, statement: str
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("the trigger is PostgreSQL's")
    engine = make_engine(database_url)
    with engine.begin() as connection:
        config = Config(str(PROJECT_ROOT / "alembic.ini"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    with Session(engine) as db:
        _one_row(db)
    with engine.connect() as connection, pytest.raises(DBAPIError, match="append-only"):
        connection.execute(text(statement))
    with engine.connect() as connection:
        assert connection.execute(text("SELECT reason FROM auditentry")).scalars().all() == ["spam"]
    engine.dispose()


def _code_files() -> list[Path]:
    return sorted(path for folder in CODE_FOLDERS for path in (PROJECT_ROOT / folder).rglob("*.py"))


# update(AuditEntry) / delete(AuditEntry) / the table's name in SQL text that changes rows
WRITES = re.compile(
    r"\b(update|delete)\s*\(\s*AuditEntry\b|\b(UPDATE|DELETE\s+FROM|TRUNCATE)\s+(TABLE\s+)?auditentry\b",
    re.IGNORECASE,
)


def test_no_code_updates_or_deletes_an_audit_row() -> None:
    found = [
        f"{path.relative_to(PROJECT_ROOT)}:{source.count(chr(10), 0, match.start()) + 1}"
        for path in _code_files()
        for source in [path.read_text()]
        for match in WRITES.finditer(source)
    ]
    assert found == []


def _deletes_an_entry(path: Path) -> list[str]:
    """`x.delete(...)` calls in a module that names AuditEntry, whose argument mentions an
    audit row (a name with "audit" or "entry" in it, or AuditEntry itself)."""
    source = path.read_text()
    if "AuditEntry" not in source:
        return []
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "delete":
            argument = " ".join(ast.unparse(arg) for arg in node.args)
            if re.search(r"audit|entry", argument, re.IGNORECASE):
                found.append(f"{path.relative_to(PROJECT_ROOT)}:{node.lineno}")
    return found


def test_no_code_deletes_an_audit_row_through_the_session() -> None:
    assert [hit for path in _code_files() for hit in _deletes_an_entry(path)] == []


def test_the_scan_would_see_one() -> None:
    """The scans find what they look for (so an empty answer means something)."""
    assert WRITES.search("db.exec(update(AuditEntry).where(AuditEntry.id == 1))")
    assert WRITES.search('db.execute(text("DELETE FROM auditentry"))')
    assert not WRITES.search("db.exec(update(AuthSession))")


# -- bounded reasons (an appeal's answer is up to 4000 characters) -------------------------


def test_a_reason_of_4000_characters_is_kept_whole_and_a_longer_one_cut(db: Session) -> None:
    audit(db, STAFF, "moderation.decide_appeal", ("appeal", 1), "a" * 4000)
    audit(db, STAFF, "moderation.decide_appeal", ("appeal", 2), "b" * 5000)
    audit(db, replace(STAFF, address="x" * 100), "decide", ("report", 3))
    db.commit()
    rows = db.exec(select(AuditEntry).order_by(AuditEntry.id)).all()
    assert [len(row.reason) for row in rows] == [4000, 4000, 0]
    assert len(rows[2].address) == 64


def test_the_migrated_postgresql_column_holds_a_4000_character_reason(database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite does not enforce a VARCHAR's length")
    engine = make_engine(database_url)
    with engine.begin() as connection:
        config = Config(str(PROJECT_ROOT / "alembic.ini"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    with Session(engine) as db:
        audit(db, STAFF, "moderation.decide_appeal", ("appeal", 1), "a" * 4000)
        db.commit()
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT length(reason) FROM auditentry")).scalars()
        assert stored.all() == [4000]
    engine.dispose()


def test_a_transparency_download_is_audited_with_its_period(db: Session) -> None:
    member = make_member(db, "mo@example.com")
    token = staff_session(db, member, Role.MODERATOR)
    assert client_with(token).get(CSV_MAY).status_code == 200
    row = db.exec(select(AuditEntry)).one()
    assert (row.actor_id, row.actor_role, row.action) == (
        member.id,
        "moderator",
        "download_transparency_csv",
    )
    assert row.after == {"start": "2026-05-01", "end": "2026-05-31"}
