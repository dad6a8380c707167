"""`python bench/matchfinder.py [--members N] [--reseed] [--runs N] [--smoke]`: matchfinder
latency.

Uses the PostgreSQL database of bench/search.py (`bench_search_N`, seeded there on first use,
100,000 members unless `--members` says otherwise), and adds saved matchfinder wishes for 30%
of the members on first use (age ranges, places, interests, answers to the few questions with
the answers hoped for and how much they matter). For the viewer of that bench (a man of 35
in NL looking for women) and a few sets of wishes, it times a matchfinder page as the action
runs it (`ranked_matches`: the statement that scores both sides and ranks, the rows, the cards
and the reasons) beside the very statement it sends (`matches_select`), compiled once and run
raw on a psycopg connection.
Runs alternate between the two. Prints p50/p95/max per case, the ratio, `EXPLAIN (ANALYZE,
BUFFERS)` of the slowest case and the budget verdict (issue 15): p95 at most 80 ms and at most
1.5x raw. It never fails on the budget. `--smoke`: as bench/search.py's, no verdict.
"""

import json
import random
import sys
from datetime import UTC, date, datetime
from functools import partial
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from search import (  # bench/search.py: the seeded database and the timing helpers
    VIEWER_ID,
    WARM_UP,
    Row,
    copy_rows,
    elapsed_ms,
    explain,
    print_load,
    seeded_database,
    server_version,
    spread,
    verdict,
)

from models.attributes import INTERESTS
from models.match_questions import IMPORTANCE, QUESTIONS, clean_question_wishes
from models.match_score import ANYWHERE, COUNTRY, PLACES, REGION, Wishes
from models.matchfinder import INTERESTS_MAX, matches_select, ranked_matches
from models.member import Profile
from services.database import db_session, get_engine

PAGE_SIZE = 24  # actions/matchfinder.PAGE_SIZE
SITE_MIN_AGE = 18
BUDGET_P95_MS = 80.0
BUDGET_RATIO = 1.5
WITH_WISHES = 0.3  # the share of members who saved wishes in the matchfinder
QUESTIONS_ASKED = clean_question_wishes(
    {
        "children": {"answer": "maybe", "accepted": ["yes", "maybe"], "importance": "very"},
        "smoking": {"answer": "no", "accepted": ["no"], "importance": "somewhat"},
        "weekend": {"answer": "outdoors"},
    }
)
CASES = (
    ("region NL-NH, 25-45, 2 interests", Wishes(25, 45, REGION, ("travel", "music"))),
    ("country NL, 30-40, 3 questions", Wishes(30, 40, COUNTRY, (), QUESTIONS_ASKED)),
    ("anywhere, 18-99, 1 interest", Wishes(18, 99, ANYWHERE, ("wine",))),
    ("country NL, 70-80 (rare)", Wishes(70, 80, COUNTRY, ())),
)


def _question_wishes(rng: random.Random) -> dict:
    """A member's side of a few questions, as the page saves it."""
    wishes = {}
    for question in rng.sample(QUESTIONS, rng.randint(0, len(QUESTIONS))):
        answers = list(question.answers)
        accepted = rng.sample(answers, rng.randint(0, len(answers) - 1))
        importance = rng.choice(list(IMPORTANCE)[1:]) if accepted else "none"
        wishes[question.key] = {
            "answer": rng.choice(answers),
            "accepted": sorted(accepted),
            "importance": importance,
        }
    return wishes


def _wishes_row(rng: random.Random, member_id: int, now: datetime) -> Row:
    low = rng.randint(18, 60)
    return {
        "member_id": member_id,
        "min_age": low,
        "max_age": low + rng.randint(5, 30),
        "place": rng.choice(PLACES),
        "interests": json.dumps(rng.sample(INTERESTS, rng.randint(0, INTERESTS_MAX))),
        "questions": json.dumps(_question_wishes(rng)),
        "updated_at": now,
    }


def ensure_wishes(dsn: str, members: int) -> str:
    """Saved matchfinder wishes for WITH_WISHES of the members, added on first use."""
    with psycopg.connect(dsn) as connection, connection.cursor() as cursor:
        if cursor.execute("SELECT count(*) FROM matchpreference").fetchone()[0]:
            return "reused saved wishes"
        rng, now = random.Random(15), datetime.now(UTC)
        chosen = sorted(rng.sample(range(VIEWER_ID + 1, members + 1), int(members * WITH_WISHES)))
        copy_rows(cursor, "matchpreference", [_wishes_row(rng, id_, now) for id_ in chosen])
        cursor.execute("ANALYZE matchpreference")
        return f"saved wishes for {len(chosen):,} members"


def viewer_profile() -> Profile:
    with db_session() as db:
        profile = db.get(Profile, VIEWER_ID)
        assert profile is not None, "the bench database has no viewer"
        db.expunge(profile)
        return profile


def ours(viewer: Profile, wishes: Wishes, today: date) -> list[int]:
    with db_session() as db:
        found = ranked_matches(db, viewer, wishes, today, PAGE_SIZE, SITE_MIN_AGE)
    return [match.member.id for match in found]


def raw_statement(viewer: Profile, wishes: Wishes, today: date) -> tuple[str, dict]:
    statement = matches_select(viewer, wishes, today, PAGE_SIZE, SITE_MIN_AGE)
    compiled = statement.compile(dialect=get_engine().dialect)
    expanded = compiled.construct_expanded_state()
    processors = compiled._bind_processors  # as SQLAlchemy sends them: JSON text, path arrays
    params = {
        name: processors[name](value) if name in processors else value
        for name, value in expanded.parameters.items()
    }
    return expanded.statement, params


def raw(connection: psycopg.Connection, sql: str, params: dict) -> int:
    with connection.cursor() as cursor:
        rows = cursor.execute(sql, params).fetchall()
    connection.rollback()
    return len(rows)


def measure(connection: psycopg.Connection, viewer: Profile, today: date, runs: int) -> list:
    results = []
    for name, wishes in CASES:
        ours_call = partial(ours, viewer, wishes, today)
        raw_call = partial(raw, connection, *raw_statement(viewer, wishes, today))
        shown, candidates = len(ours_call()), raw_call()
        timings: tuple[list[float], list[float]] = ([], [])
        for run in range(WARM_UP + runs):  # which goes first alternates
            if run % 2:
                bare, mine = elapsed_ms(raw_call), elapsed_ms(ours_call)
            else:
                mine, bare = elapsed_ms(ours_call), elapsed_ms(raw_call)
            if run >= WARM_UP:
                timings[0].append(mine)
                timings[1].append(bare)
        results.append((name, wishes, shown, candidates, spread(timings[0]), spread(timings[1])))
    return results


def print_results(results: list, members: int, runs: int, server: str, budget: bool) -> None:
    print(
        f"\nMatchfinder latency, ms ({members:,} members, {server}; viewer #{VIEWER_ID}, "
        f"{PAGE_SIZE} shown; {runs} runs each after {WARM_UP} warm-up)"
    )
    print(f"{'':<34}{'ranked':>7}{'shown':>6} |{'ours: p50':>10}{'p95':>7}{'max':>7} |"
          f"{'raw: p50':>9}{'p95':>7}{'max':>7} | ours/raw p95")  # fmt: skip
    for name, _wishes, shown, candidates, mine, bare in results:
        print(
            f"{name:<34}{candidates:>7}{shown:>6} |{mine.p50:>10.1f}{mine.p95:>7.1f}"
            f"{mine.max:>7.1f} |{bare.p50:>9.1f}{bare.p95:>7.1f}{bare.max:>7.1f} |"
            f"{mine.p95 / bare.p95:>12.2f}x"
        )
    if budget:
        print_budget(results)
    print_load()


def print_budget(results: list) -> None:
    slowest = max(results, key=lambda r: r[4].p95)
    widest = max(results, key=lambda r: r[4].p95 / r[5].p95)
    print(
        f"\nBudget: p95 <= {BUDGET_P95_MS:.0f} ms: slowest {slowest[4].p95:.1f} ms ({slowest[0]}) "
        f"{verdict(slowest[4].p95 <= BUDGET_P95_MS)}; p95 <= {BUDGET_RATIO}x raw: worst "
        f"{widest[4].p95 / widest[5].p95:.2f}x ({widest[0]}) "
        f"{verdict(widest[4].p95 / widest[5].p95 <= BUDGET_RATIO)}"
    )


def main() -> None:
    bench = seeded_database(__doc__)
    wishes_note = ensure_wishes(bench.dsn, bench.members)
    today = date.today()
    viewer = viewer_profile()
    with psycopg.connect(bench.dsn) as connection:
        server = server_version(connection)
        print(f"Database {bench.url.database}: {bench.note}; {wishes_note}")
        results = measure(connection, viewer, today, bench.runs)
        slowest = max(results, key=lambda r: r[4].p95)
        plan = explain(connection, *raw_statement(viewer, slowest[1], today))
    print_results(results, bench.members, bench.runs, server, budget=not bench.smoke)
    print(f"\nEXPLAIN (ANALYZE, BUFFERS) of the slowest case, {slowest[0]}:\n{plan}")


if __name__ == "__main__":
    main()
