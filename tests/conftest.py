"""Shared fixtures: a fresh database per test on SQLite, and on PostgreSQL when configured.

With DATABASE_URL set (CI sets it), every database test also runs on PostgreSQL; in CI an
unreachable PostgreSQL or Redis fails the run instead of skipping. Under pytest-xdist each
worker has a PostgreSQL and a Redis database of its own (see pytest_configure).
"""

import os
import shutil
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import Engine, make_url, text
from sqlmodel import Session, SQLModel

import actions.mail_notify
import models.tables  # noqa: F401 - registers every table
import services.database
import state.live
from models.db import make_engine
from services import jobs
from services.config import _sqlalchemy_url, get_config
from services.job_engine import schema_sql
from services.mail import outbox_messages
from services.tab_registry import MemoryTabRegistry
from tests.queries import statements_on_the_event_loop
from tests.services import (
    IN_CI,
    empty_postgres_tables,
    own_database,
    redis_database,
    wipe_postgres_schema,
)

pytest_plugins = ["tests.payments_fixtures", "tests.s3_server"]

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # gw0, gw1, ... under pytest-xdist
FIRST_WORKER_REDIS_DB = 8  # 0 is the site's own; the fault tests and benches use 1 to 3
JOB_TABLES = ("procrastinate_periodic_defers", "procrastinate_jobs", "procrastinate_workers")
HAS_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")


def pytest_configure(config: pytest.Config) -> None:
    """Each pytest-xdist worker points DATABASE_URL and REDIS_URL at databases of its own on the
    same servers (`<name>_gw0`, Redis database 8, ...): the fixtures empty the database, and the
    tab registry is keyed by member id. So they never meet each other, nor the browser tests
    that run beside them on the machine's own (tests/suite.py)."""
    if not WORKER:
        return
    number = int(WORKER.removeprefix("gw"))
    if HAS_POSTGRES:
        url = os.environ["DATABASE_URL"]
        os.environ["DATABASE_URL"] = own_database(url, f"{make_url(url).database}_{WORKER}")
    if redis_url := os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = redis_database(redis_url, FIRST_WORKER_REDIS_DB + number)


def _postgres_url() -> str:
    return _sqlalchemy_url(os.environ.get("DATABASE_URL", ""))


def pytest_sessionstart(session: pytest.Session) -> None:
    if not IN_CI:
        return
    redis_url = os.environ.get("REDIS_URL", "")
    if not HAS_POSTGRES or not redis_url:
        pytest.exit("CI must set DATABASE_URL (PostgreSQL) and REDIS_URL", returncode=3)
    try:
        with make_engine(_postgres_url()).connect() as connection:
            connection.execute(text("select 1"))
        import redis

        redis.Redis.from_url(redis_url, socket_connect_timeout=3).ping()
    except Exception as error:
        pytest.exit(f"CI services unreachable: {error}", returncode=3)


def _database_kinds() -> list:
    kinds = [pytest.param("sqlite", id="sqlite")]
    if HAS_POSTGRES:
        kinds.append(pytest.param("postgres", id="postgres"))
    return kinds


# PostgreSQL databases whose schema holds every table of the models, as `engine` made it: the
# next test only empties them (TRUNCATE), far quicker than dropping and creating the schema.
_TABLES_MADE: set[str] = set()


@pytest.fixture(params=_database_kinds())
def database_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """An empty database: a fresh SQLite file, or the PostgreSQL test database emptied."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.db'}"
        return
    url = _postgres_url()
    if url in _TABLES_MADE and "engine" in request.fixturenames:
        empty_postgres_tables(url, SQLModel.metadata, also=JOB_TABLES)
    else:  # a test without `engine` builds (and may change) the schema itself
        _TABLES_MADE.discard(url)
        wipe_postgres_schema(url)
    yield url


@pytest.fixture(scope="session")
def sqlite_with_tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every table, made once: a test's database starts as a copy of it
    (about 3 ms, where creating the tables takes about 80)."""
    path = tmp_path_factory.mktemp("sqlite") / "tables.db"
    engine = make_engine(f"sqlite:///{path}")
    SQLModel.metadata.create_all(engine)
    engine.dispose()
    return path


@pytest.fixture
def engine(
    database_url: str, sqlite_with_tables: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Engine]:
    """Every table created, and the app's own sessions pointed at this database."""
    engine = make_engine(database_url)
    sqlite_file = Path(engine.url.database or "")
    if engine.dialect.name == "sqlite" and not sqlite_file.exists():
        shutil.copyfile(sqlite_with_tables, sqlite_file)
    elif database_url not in _TABLES_MADE:
        SQLModel.metadata.create_all(engine)
        if engine.dialect.name == "postgresql":
            with engine.begin() as connection:  # the job engine's own tables (0023_jobs.py)
                connection.connection.driver_connection.execute(schema_sql())
            _TABLES_MADE.add(database_url)
    monkeypatch.setattr(services.database, "get_engine", lambda: engine)
    yield engine
    jobs._waiting.clear()  # jobs committed outside `act` that no settle() ran: this test's
    engine.dispose()


@pytest.fixture
def db(engine: Engine) -> Iterator[Session]:
    with Session(engine, expire_on_commit=False) as session:
        yield session


@pytest.fixture
def outbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], list]]:
    """DATA_DIR in tmp_path, so mails, photos and the push key land there; returns a reader of
    the mails sent so far."""
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    get_config.cache_clear()

    def sent() -> list[EmailMessage]:
        return outbox_messages(get_config().outbox_dir)

    yield sent
    get_config.cache_clear()


@pytest.fixture(autouse=True)
def tab_registry_in_memory(monkeypatch: pytest.MonkeyPatch) -> MemoryTabRegistry:
    """Tabs register in memory, for the live updates and for telling who is on the site: no
    Redis client outlives its test's event loop."""
    registry = MemoryTabRegistry()
    monkeypatch.setattr(state.live, "tab_registry", lambda: registry)
    monkeypatch.setattr(actions.mail_notify, "tab_registry", lambda: registry)
    return registry


@pytest.fixture(autouse=True)
def no_statement_on_the_event_loop() -> Iterator[None]:
    """Fail any test in which a handler or route ran SQL on the event loop's thread."""
    with statements_on_the_event_loop() as offenders:
        yield
    assert not offenders, "SQL on the event loop:\n" + "\n".join(offenders)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests last: the unit tests wipe the PostgreSQL schema the server would use."""
    items.sort(key=lambda item: "tests/e2e/" in str(item.path).replace("\\", "/"))
