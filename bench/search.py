"""`python bench/search.py [--members N] [--reseed] [--runs N] [--smoke]`: member search
latency.

Needs PostgreSQL: the server of `DATABASE_URL` (default postgresql://postgres@127.0.0.1:5432),
in its own database `bench_search_N` (N the members, 100,000 unless `--members` says
otherwise), created there when missing and migrated with Alembic (so it has the real
indexes); the shared `test` database is never touched. The first run seeds the members with
profiles (bulk COPY in batches: seconds for 100,000, a few minutes for 1,000,000): 20
countries weighted towards NL, DE, GB and US, ages 18-80, regions, signups over three years,
~85% active with an enabled profile, the rest unconfirmed, pending deletion or disabled, 2%
invisible, main photos for most, and blocks to and from the viewer. Later runs reuse the data;
`--reseed` drops the database and starts over, and so does any change to migrations/versions/.

For a logged-in viewer and a few filter sets, it times page 1 and page 3 (offset 48) of
`search_members` as the search state calls it (`db_session()`, statement building, ORM
objects, tiles) beside the very statement it builds (`search_select`), compiled once and run
raw on a psycopg connection (execute, fetch all rows, end the transaction). Runs alternate
between the two. Prints p50/p95/max per case, the ratio, `EXPLAIN (ANALYZE, BUFFERS)` of the
slowest case (by our p95) and the budget verdict: p95 at most 50 ms and at most 1.5x raw.
Run it with `--members 1000000` too: the budget there is a p95 at most 1.5x the one at
100,000 (search costs what a page reads, not what the site holds). It never fails on the
budget. `--smoke`: 200 members (`bench_search_200`), 5 runs, no verdict.
"""

import hashlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache, partial
from itertools import islice
from pathlib import Path

import psycopg
from alembic import command
from alembic.config import Config
from sqlalchemy import URL, Engine, make_url, text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.options import bench_parser, parse
from models.attributes import (
    BODY_TYPES,
    EYE_COLOURS,
    HAIR_COLOURS,
    INTERESTS,
    RELATIONSHIP_STATUSES,
    TATTOOS,
)
from models.db import make_engine
from models.member import is_listed
from models.regions import regions_of
from models.search import SearchFilters, search_members, search_select
from models.site_settings import TARGET_COUNTRIES
from services.config import _sqlalchemy_url
from services.database import db_session, get_engine

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/test"
DATABASE = "bench_search_{members}"
MEMBERS = 100_000
SMOKE = {"members": 200, "runs": 5}  # --smoke
SEED_BATCH = 50_000  # people generated and copied at a time
VIEWER_ID = 1
PAGE_SIZE = 24  # state.members.PAGE_SIZE
LATER_OFFSET = 2 * PAGE_SIZE
RUNS = 200
WARM_UP = 10
BUDGET_P95_MS = 50.0
BUDGET_RATIO = 1.5
RANDOM_SEED = 2026

COUNTRY_WEIGHTS = {"NL": 20, "DE": 16, "GB": 14, "US": 14}  # every other target country: 2
MEMBER_STATUSES = {"active": 90, "not_confirmed": 5, "deleted_pending": 5}
DISABLED_SHARE, INVISIBLE_SHARE, PRIVACY_SHARE, PAID_SHARE = 0.05, 0.02, 0.05, 0.1
PHOTO_SHARE, REGION_SHARE = 0.8, 0.9
BLOCKED_BY_VIEWER, BLOCKING_VIEWER, OTHER_BLOCKS = 15, 10, 5_000
FEWEST_MEMBERS = 100
SIGNUP_SPAN = timedelta(days=3 * 365)
NAMES = ("Anna", "Bram", "Chloe", "Daan", "Emma", "Finn", "Greta", "Hugo", "Iris", "Jonas")
CITIES = ("", "Springfield", "Riverside", "Fairview", "Kingston", "Newport", "Lakeside")
WORDS = ("love", "travel", "music", "cosy", "evenings", "honest", "laugh", "walks", "sea", "coffee")

FILTER_SETS = (
    ("female, NL, 25-40", SearchFilters("female", "NL", "", 25, 40)),
    ("female, DE, Bayern, 30-45", SearchFilters("female", "DE", "DE-BY", 30, 45)),
    ("female, any country", SearchFilters("female")),
    ("GB, anybody", SearchFilters(country="GB")),
    ("female, LU, 60-70 (rare)", SearchFilters("female", "LU", "", 60, 70)),
)

# --- database -----------------------------------------------------------------------------


def bench_url(members: int) -> URL:
    """DATABASE_URL's server, database `bench_search_<members>`, psycopg 3 driver."""
    url = make_url(_sqlalchemy_url(os.environ.get("DATABASE_URL") or DEFAULT_SERVER))
    if url.get_backend_name() != "postgresql":
        sys.exit("bench/search.py needs PostgreSQL: set DATABASE_URL=postgresql://...")
    return url.set(database=DATABASE.format(members=members))


def libpq_dsn(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def migrations_digest() -> str:
    """Changes with any migration, also one edited in place before its release."""
    files = sorted((ROOT / "migrations" / "versions").glob("*.py"))
    return hashlib.sha256(b"".join(path.read_bytes() for path in files)).hexdigest()[:16]


def prepare_database(url: URL, reseed: bool) -> None:
    """Create and migrate the database; dropped first with `reseed` or other migrations.

    The database's comment holds the digest of the migrations it was built with."""
    digest, name = migrations_digest(), url.database
    server = make_engine(url.set(database="postgres").render_as_string(hide_password=False))
    with server.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        built_with = connection.execute(
            text(
                "SELECT shobj_description(oid, 'pg_database') FROM pg_database "
                "WHERE datname = :name"
            ),
            {"name": name},
        ).one_or_none()
        if built_with is None or reseed or built_with[0] != digest:
            if built_with is not None:
                connection.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
            connection.execute(text(f"CREATE DATABASE {name}"))
            migrate(url)
            connection.execute(text(f"COMMENT ON DATABASE {name} IS '{digest}'"))
    server.dispose()


def migrate(url: URL) -> None:
    config = Config()
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["url"] = url.render_as_string(hide_password=False)
    command.upgrade(config, "head")


# --- seeding ------------------------------------------------------------------------------


Row = dict[str, object]  # column name: value


@dataclass(frozen=True)
class Person:
    member: Row
    profile: Row
    photo: Row | None


@cache
def region_codes(country: str) -> tuple[tuple[str, ...], list[float]]:
    """A country's regions, the first ones more populous (weights 1, 1/2, 1/3, ...)."""
    codes = tuple(code for code, _name in regions_of(country))
    return codes, [1 / (rank + 1) for rank in range(len(codes))]


def pick_region(rng: random.Random, country: str) -> str | None:
    codes, weights = region_codes(country)
    if not codes or rng.random() > REGION_SHARE:
        return None
    return rng.choices(codes, weights)[0]


@cache
def country_weights() -> list[int]:
    return [COUNTRY_WEIGHTS.get(country, 2) for country in TARGET_COUNTRIES]


def pick_sexuality(rng: random.Random, gender: str) -> str:
    same = "gay" if gender == "male" else "lesbian"
    return rng.choices(("hetero", "bi", same), (85, 8, 7))[0]


def birth_date(rng: random.Random, today: date) -> date:
    """Ages 18-80, most around 30-45."""
    days = rng.triangular(18 * 365.25 + 1, 81 * 365.25 - 1, 33 * 365.25)
    return today - timedelta(days=int(days))


def member_row(rng: random.Random, member_id: int, signup: datetime) -> Row:
    return {
        "id": member_id,
        "email": f"member{member_id}@bench.example",
        "status": rng.choices(list(MEMBER_STATUSES), list(MEMBER_STATUSES.values()))[0],
        "language": "en",
        "paid_user": rng.random() < PAID_SHARE,
        "credits": 0,
        "signup_date": signup,
        "fictional_icon": False,
        "is_demo": False,
        "notifications_disabled": "[]",
        "notification_settings": "{}",
        "invisible": rng.random() < INVISIBLE_SHARE,
        "privacy_mode": rng.random() < PRIVACY_SHARE,
        "failed_logins": 0,
    }


def profile_row(rng: random.Random, member_id: int, today: date, photo_id: int | None) -> Row:
    gender = rng.choices(("male", "female"), (55, 45))[0]
    country = rng.choices(TARGET_COUNTRIES, country_weights())[0]
    return {
        "member_id": member_id,
        "name": rng.choice(NAMES),
        "gender": gender,
        "sexuality": pick_sexuality(rng, gender),
        "date_of_birth": birth_date(rng, today),
        "country": country,
        "region": pick_region(rng, country),
        "city": rng.choice(CITIES) or None,
        "hair_colour": rng.choice(HAIR_COLOURS),
        "eye_colour": rng.choice(EYE_COLOURS),
        "body_type": rng.choice(BODY_TYPES),
        "relationship_status": rng.choice(RELATIONSHIP_STATUSES),
        "tattoos": rng.choice(TATTOOS),
        "interests": json.dumps(rng.sample(INTERESTS, rng.randint(0, 5))),
        "about_me": " ".join(rng.choices(WORDS, k=rng.randint(0, 60))),
        "status": "disabled" if rng.random() < DISABLED_SHARE else "enabled",
        "main_photo_id": photo_id,
    }


def photo_row(member_id: int, signup: datetime) -> Row:
    """The member's main photo; photo ids equal member ids. No files: search reads names only."""
    return {
        "id": member_id,
        "member_id": member_id,
        "filename": f"m{member_id}.jpg",
        "thumb_filename": f"m{member_id}_t.jpg",
        "position": 0,
        "status": "approved",
        "created_at": signup,
    }


def with_search_copies(member: Row, profile: Row) -> Row:
    """The profile with its copies of the member's facts, as the site's flush hook keeps them."""
    listed = is_listed(str(member["status"]), bool(member["invisible"]), str(profile["status"]))
    return {
        **profile,
        "listed": listed,
        "privacy_mode": member["privacy_mode"],
        "signup_date": member["signup_date"],
    }


def person(rng: random.Random, member_id: int, signup: datetime, today: date) -> Person:
    photo = photo_row(member_id, signup) if rng.random() < PHOTO_SHARE else None
    member = member_row(rng, member_id, signup)
    profile = profile_row(rng, member_id, today, photo["id"] if photo else None)
    return Person(member, with_search_copies(member, profile), photo)


def viewer(person: Person, today: date) -> Person:
    """Member 1: active, a man of 35 in NL looking for women, shown and not hidden."""
    member = {**person.member, "status": "active", "invisible": False}
    profile = {
        **person.profile,
        "gender": "male",
        "sexuality": "hetero",
        "date_of_birth": today.replace(year=today.year - 35),
        "country": "NL",
        "region": "NL-NH",
        "status": "enabled",
    }
    return Person(member, with_search_copies(member, profile), person.photo)


def people(rng: random.Random, now: datetime, members: int) -> Iterator[Person]:
    """`members` people; ids follow signup order, as they do on the site."""
    signups = sorted(now - SIGNUP_SPAN * rng.random() for _ in range(members))
    for member_id, signup in enumerate(signups, start=1):
        made = person(rng, member_id, signup, now.date())
        yield viewer(made, now.date()) if member_id == VIEWER_ID else made


def blocks(rng: random.Random, now: datetime, members: int) -> list[Row]:
    """Who blocked whom: some by the viewer, some of the viewer, the rest among others
    (OTHER_BLOCKS, or half the members when they are fewer than twice that)."""
    others = range(VIEWER_ID + 1, members + 1)
    pairs = {(VIEWER_ID, blocked) for blocked in rng.sample(others, BLOCKED_BY_VIEWER)}
    pairs |= {(blocker, VIEWER_ID) for blocker in rng.sample(others, BLOCKING_VIEWER)}
    while len(pairs) < BLOCKED_BY_VIEWER + BLOCKING_VIEWER + min(OTHER_BLOCKS, members // 2):
        blocker, blocked = rng.sample(others, 2)
        pairs.add((blocker, blocked))
    return [{"blocker_id": a, "blocked_id": b, "created_at": now} for a, b in sorted(pairs)]


def copy_rows(cursor: psycopg.Cursor, table: str, rows: list[Row]) -> None:
    columns = ", ".join(rows[0])
    with cursor.copy(f'COPY "{table}" ({columns}) FROM STDIN') as copy:
        for row in rows:
            copy.write_row(tuple(row.values()))


def seed(dsn: str, members: int) -> float:
    """Fill an empty schema with `members` people, SEED_BATCH at a time; seconds taken."""
    started = time.monotonic()
    rng = random.Random(RANDOM_SEED)
    now = datetime.now(UTC)
    crowd = people(rng, now, members)
    with psycopg.connect(dsn) as connection, connection.cursor() as cursor:
        cursor.execute("TRUNCATE member RESTART IDENTITY CASCADE")
        while batch := list(islice(crowd, SEED_BATCH)):
            copy_rows(cursor, "member", [p.member for p in batch])
            copy_rows(cursor, "photo", [p.photo for p in batch if p.photo])
            copy_rows(cursor, "profile", [p.profile for p in batch])
        copy_rows(cursor, "block", blocks(rng, now, members))
        for table in ("member", "photo"):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), {members})")
    return time.monotonic() - started


def ensure_seeded(dsn: str, members: int) -> str:
    """Seed unless the members are there already; VACUUM ANALYZE either way."""
    with psycopg.connect(dsn, autocommit=True) as connection:
        count = connection.execute("SELECT count(*) FROM member").fetchone()[0]
        note = f"reused {count:,} members"
        if count != members:
            note = f"seeded {members:,} members in {seed(dsn, members):.0f} s"
        connection.execute("VACUUM ANALYZE")
    return note


# --- timing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    label: str
    filters: SearchFilters
    offset: int

    @property
    def name(self) -> str:
        return f"{self.label}, {'page 1' if self.offset == 0 else 'page 3'}"


@dataclass(frozen=True)
class Spread:
    p50: float
    p95: float
    max: float


@dataclass(frozen=True)
class Result:
    case: Case
    total: int
    ours: Spread
    raw: Spread

    @property
    def p95_ratio(self) -> float:
        return self.ours.p95 / self.raw.p95


def spread(samples: list[float]) -> Spread:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return Spread(statistics.median(samples), cuts[94], max(samples))


def raw_statement(engine: Engine, case: Case, today: date) -> tuple[str, dict]:
    """The SQL text and parameters our code sends, as compiled for this engine."""
    statement = search_select(VIEWER_ID, case.filters, today, PAGE_SIZE, case.offset)
    compiled = statement.compile(dialect=engine.dialect)
    return compiled.string, compiled.params


def ours(case: Case, today: date) -> tuple[list[int], int]:
    """The search state's call: a session from the site's pool, the search, the tiles."""
    with db_session() as db:
        page = search_members(db, VIEWER_ID, case.filters, today, PAGE_SIZE, case.offset)
    return [tile.id for tile in page.tiles], page.total


def raw(connection: psycopg.Connection, sql: str, params: dict) -> tuple[list[int], int]:
    """The same statement on a bare connection; ends the transaction as a session does."""
    with connection.cursor() as cursor:
        rows = cursor.execute(sql, params).fetchall()
    connection.rollback()
    return [row[0] for row in rows], rows[0][-1] if rows else 0


def elapsed_ms(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def measure(
    connection: psycopg.Connection, cases: list[Case], today: date, runs: int
) -> list[Result]:
    """Every case, ours and raw in turns (which goes first alternates), after a warm-up."""
    calls = []
    for case in cases:
        ours_call = partial(ours, case, today)
        raw_call = partial(raw, connection, *raw_statement(get_engine(), case, today))
        found = ours_call()
        if raw_call() != found:
            raise RuntimeError(f"{case.name}: raw rows differ from search_members")
        calls.append((case, found[1], ours_call, raw_call))
    samples: dict[Case, tuple[list[float], list[float]]] = {case: ([], []) for case in cases}
    for run in range(WARM_UP + runs):
        for case, _total, ours_call, raw_call in calls:
            if run % 2:
                raw_ms, ours_ms = elapsed_ms(raw_call), elapsed_ms(ours_call)
            else:
                ours_ms, raw_ms = elapsed_ms(ours_call), elapsed_ms(raw_call)
            if run >= WARM_UP:
                samples[case][0].append(ours_ms)
                samples[case][1].append(raw_ms)
    return [
        Result(case, total, spread(samples[case][0]), spread(samples[case][1]))
        for case, total, *_ in calls
    ]


# --- report -------------------------------------------------------------------------------


def explain(connection: psycopg.Connection, sql: str, params: dict) -> str:
    with connection.cursor() as cursor:
        rows = cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params).fetchall()
    connection.rollback()
    return "\n".join(row[0] for row in rows)


def indexes(connection: psycopg.Connection) -> list[str]:
    rows = connection.execute(
        "SELECT indexdef FROM pg_indexes WHERE tablename IN ('member', 'profile', 'photo', "
        "'block') ORDER BY tablename, indexname"
    ).fetchall()
    connection.rollback()
    return [row[0].replace(" USING btree", "").replace("public.", "") for row in rows]


def verdict(ok: bool) -> str:
    return "within" if ok else "OVER"


def print_results(
    results: list[Result], members: int, runs: int, server: str, budget: bool
) -> None:
    print(
        f"\nSearch latency, ms ({members:,} members, {server}; viewer #{VIEWER_ID}, "
        f"{PAGE_SIZE} a page; {runs} runs each after {WARM_UP} warm-up)"
    )
    print(f"{'':<36}{'matches':>8} |{'ours: p50':>10}{'p95':>7}{'max':>7} |"
          f"{'raw: p50':>9}{'p95':>7}{'max':>7} | ours/raw: p50   p95")  # fmt: skip
    for r in results:
        print(
            f"{r.case.name:<36}{r.total:>8,} |{r.ours.p50:>10.1f}{r.ours.p95:>7.1f}"
            f"{r.ours.max:>7.1f} |{r.raw.p50:>9.1f}{r.raw.p95:>7.1f}{r.raw.max:>7.1f} |"
            f"{r.ours.p50 / r.raw.p50:>14.2f}x{r.p95_ratio:>5.2f}x"
        )
    if budget:
        print_budget(results)
    print_load()


def print_budget(results: list[Result]) -> None:
    slowest = max(results, key=lambda r: r.ours.p95)
    widest = max(results, key=lambda r: r.p95_ratio)
    gap = widest.ours.p95 - widest.raw.p95
    print(
        f"\nBudget: p95 <= {BUDGET_P95_MS:.0f} ms: slowest {slowest.ours.p95:.1f} ms "
        f"({slowest.case.name}) {verdict(slowest.ours.p95 <= BUDGET_P95_MS)}; "
        f"p95 <= {BUDGET_RATIO}x raw: worst {widest.p95_ratio:.2f}x = raw + {gap:.1f} ms "
        f"({widest.case.name}) {verdict(widest.p95_ratio <= BUDGET_RATIO)}"
    )


@dataclass(frozen=True)
class BenchDatabase:
    """The seeded database a run uses, and how it was asked for."""

    url: URL
    dsn: str
    note: str  # seeded now or reused
    runs: int
    members: int
    smoke: bool  # a tiny run: no budget verdict


def seeded_database(doc: str) -> BenchDatabase:
    """The command line (--members, --runs, --reseed, --smoke) and the database it names,
    seeded."""
    parser = bench_parser(doc)
    parser.add_argument("--reseed", action="store_true", help="drop the database, seed again")
    parser.add_argument("--runs", type=int, default=RUNS, help="timed runs per case and way")
    parser.add_argument("--members", type=int, default=MEMBERS, help="members in the database")
    args = parse(parser, SMOKE)
    if args.members < FEWEST_MEMBERS or args.runs < 2:
        sys.exit(f"--members: at least {FEWEST_MEMBERS}; --runs: at least 2")
    url = bench_url(args.members)
    os.environ["DATABASE_URL"] = url.render_as_string(hide_password=False)  # db_session()
    prepare_database(url, args.reseed)
    dsn = libpq_dsn(url)
    note = ensure_seeded(dsn, args.members)
    return BenchDatabase(url, dsn, note, args.runs, args.members, args.smoke)


def server_version(connection: psycopg.Connection) -> str:
    return "PostgreSQL " + connection.info.parameter_status("server_version").split()[0]


def print_load() -> None:
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"PostgreSQL and this script share this machine's {os.cpu_count()} CPUs (load {load}).")


def main() -> None:
    bench = seeded_database(__doc__)
    today = date.today()
    cases = [Case(label, f, offset) for label, f in FILTER_SETS for offset in (0, LATER_OFFSET)]
    with psycopg.connect(bench.dsn) as connection:
        server = server_version(connection)
        print(f"Database {bench.url.database}: {bench.note}")
        results = measure(connection, cases, today, bench.runs)
        slowest = max(results, key=lambda r: r.ours.p95)
        plan = explain(connection, *raw_statement(get_engine(), slowest.case, today))
        index_list = indexes(connection)
    print_results(results, bench.members, bench.runs, server, budget=not bench.smoke)
    print("\nIndexes:\n  " + "\n  ".join(index_list))
    print(f"\nEXPLAIN (ANALYZE, BUFFERS) of the slowest case, {slowest.case.name}:\n{plan}")


if __name__ == "__main__":
    main()
