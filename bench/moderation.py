"""`python bench/moderation.py [--members N] [--reseed] [--runs N] [--smoke]`: the staff
console's report queue and a member's history.

Uses the PostgreSQL database of bench/search.py (`bench_search_N`, seeded there on first use,
100,000 members unless `--members` says otherwise) and adds as many reports as members on first
use (100,000): members' reports and notices over a year in every category, 70 % of them decided
(each with its decision), the rest open; one member (#2) is reported a thousandth of the time
and reports a hundredth, so their history is long. It times, as the console's states call
them (actions/moderation_reads.py: a connection from the site's pool, the statements, the
rows made into the page's dicts), the queue's first page, a filtered first page, a page far
back, and the history of that member and of an ordinary one; beside the very statements they
send, compiled once and run raw on a psycopg connection. Runs alternate between the two.
Prints p50/p95/max per case, the ratio, `EXPLAIN (ANALYZE, BUFFERS)` of the slowest case and
the budget verdict (issue 29): p95 at most 50 ms and at most 1.5x raw. It never fails on the
budget. `--smoke`: as bench/search.py's (200 members and as many reports, 5 runs), no verdict.
"""

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from search import (  # bench/search.py: the seeded database and the timing helpers
    WARM_UP,
    Row,
    Spread,
    copy_rows,
    elapsed_ms,
    explain,
    print_load,
    seeded_database,
    server_version,
    spread,
    verdict,
)

from actions.moderation_reads import (
    QueueCursor,
    QueueFilter,
    Statement,
    history_select,
    member_history,
    queue_select,
    report_queue,
)
from models.moderation import CATEGORY_PRIORITY, ContentType, ReportCategory, ReportSource
from services.database import get_engine

BUDGET_P95_MS = 50.0
BUDGET_RATIO = 1.5
BUSY_MEMBER = 2  # reported and reporting far more often than anyone
DECIDED = 0.7
SPAN = timedelta(days=365)
MEASURES = ("dismiss", "dismiss", "warning", "remove_content", "hide_profile", "suspend", "ban")
FAR_PAGE = 20


@dataclass(frozen=True)
class Case:
    name: str
    ours: Callable[[], object]
    statements: list[Statement]


def _report_rows(rng: random.Random, members: int, now: datetime) -> tuple[list[Row], list[Row]]:
    """As many reports as members, and the decisions of those decided."""
    reports, decisions = [], []
    categories = list(ReportCategory)
    open_pairs: set[tuple[int, int]] = set()  # uq_report_open: one open report a pair
    for number in range(1, members + 1):
        created = now - SPAN * rng.random()
        category = rng.choice(categories)
        busy = rng.random()
        reported = BUSY_MEMBER if busy < 0.001 else rng.randint(3, members)
        reporter = BUSY_MEMBER if busy > 0.99 else rng.randint(3, members)
        notice = rng.random() < 0.1
        decided_at = created + timedelta(hours=rng.uniform(0.1, 72))
        decision = number if rng.random() < DECIDED and decided_at < now else None
        if not (decision or notice):
            while (reporter, reported) in open_pairs:
                reported = rng.randint(3, members)
            open_pairs.add((reporter, reported))
        reports.append(
            {
                "reference": f"B{number:09d}",
                "source": ReportSource.NOTICE if notice else ReportSource.REPORT,
                "category": category,
                "priority": CATEGORY_PRIORITY[category],
                "content_type": ContentType.PROFILE,
                "content_id": reported,
                "reported_id": reported,
                "reporter_id": None if notice else reporter,
                "text": "",
                "url": "",
                "notifier_name": "",
                "notifier_email": "",
                "good_faith": notice,
                "language": "en",
                "snapshot": "{}",
                "status": "decided" if decision else "open",
                "decision_id": decision,
                "created_at": created,
                "decided_at": decided_at if decision else None,
            }
        )
        if decision:
            decisions.append(
                {
                    "id": decision,
                    "puid": f"B{number:09d}",
                    "member_id": reported,
                    "report_id": number,
                    "measure": rng.choice(MEASURES),
                    "content_type": ContentType.PROFILE,
                    "category": category,
                    "source": reports[-1]["source"],
                    "ground_type": "terms",
                    "ground": str(rng.randint(1, 10)),
                    "facts": "Seen in the profile.",
                    "automated_detection": False,
                    "automated_decision": False,
                    "before": "{}",
                    "decided_by": 1,
                    "decided_at": decided_at,
                    "language": "en",
                }
            )
    return reports, decisions


def ensure_reports(dsn: str, members: int) -> str:
    """As many reports as members (and their decisions), added on first use."""
    with psycopg.connect(dsn) as connection, connection.cursor() as cursor:
        if cursor.execute("SELECT count(*) FROM report").fetchone()[0] == members:
            return "reused the reports"
        cursor.execute("TRUNCATE report, decision RESTART IDENTITY CASCADE")
        reports, decisions = _report_rows(random.Random(29), members, datetime.now(UTC))
        copy_rows(cursor, "decision", decisions)
        copy_rows(cursor, "report", reports)
        for table in ("report", "decision"):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), {members})")
            cursor.execute(f"ANALYZE {table}")
    return f"added {len(reports):,} reports, {len(decisions):,} decided"


def far_cursor(filters: QueueFilter, pages: int) -> QueueCursor | None:
    """Where page `pages` + 1 of the queue starts, as the pager reaches it."""
    after = None
    for _ in range(pages):
        after = report_queue(filters, after).next_after
    return after


def cases(members: int) -> list[Case]:
    everything, spam = QueueFilter(), QueueFilter(category=ReportCategory.SPAM)
    far = far_cursor(everything, FAR_PAGE - 1)
    ordinary = members // 2
    return [
        Case("queue, page 1", lambda: report_queue(everything), [queue_select(everything)]),
        Case("queue, spam only", lambda: report_queue(spam), [queue_select(spam)]),
        Case(
            f"queue, page {FAR_PAGE}",
            lambda: report_queue(everything, far),
            [queue_select(everything, far)],
        ),
        Case(
            f"history of #{BUSY_MEMBER} (busy)",
            lambda: member_history(BUSY_MEMBER),
            [history_select(BUSY_MEMBER)],
        ),
        Case(
            f"history of #{ordinary}",
            lambda: member_history(ordinary),
            [history_select(ordinary)],
        ),
    ]


def compiled(statement: Statement) -> tuple[str, dict]:
    """The SQL text and parameters our code sends, as compiled for this engine."""
    done = statement[0].compile(dialect=get_engine().dialect)
    return done.string, {**done.params, **statement[1]}


def raw_call(connection: psycopg.Connection, statements: list[Statement]) -> Callable[[], int]:
    """The same statements on a bare connection, each row fetched; ends the transaction as a
    session does."""
    sent = [compiled(statement) for statement in statements]

    def call() -> int:
        with connection.cursor() as cursor:
            rows = sum(len(cursor.execute(sql, params).fetchall()) for sql, params in sent)
        connection.rollback()
        return rows

    return call


def measure(connection: psycopg.Connection, all_cases: list[Case], runs: int) -> list[tuple]:
    """Every case, ours and raw in turns (which goes first alternates), after a warm-up."""
    results = []
    for case in all_cases:
        raw = raw_call(connection, case.statements)
        timings: tuple[list[float], list[float]] = ([], [])
        for run in range(WARM_UP + runs):
            if run % 2:
                bare, mine = elapsed_ms(raw), elapsed_ms(case.ours)
            else:
                mine, bare = elapsed_ms(case.ours), elapsed_ms(raw)
            if run >= WARM_UP:
                timings[0].append(mine)
                timings[1].append(bare)
        results.append((case, raw(), spread(timings[0]), spread(timings[1])))
    return results


def print_results(results: list, members: int, runs: int, server: str, budget: bool) -> None:
    print(
        f"\nConsole latency, ms ({members:,} reports, {server}; {runs} runs each after "
        f"{WARM_UP} warm-up)"
    )
    print(f"{'':<30}{'rows':>6} |{'ours: p50':>10}{'p95':>7}{'max':>7} |"
          f"{'raw: p50':>9}{'p95':>7}{'max':>7} | ours/raw p95")  # fmt: skip
    for case, rows, mine, bare in results:
        print(
            f"{case.name:<30}{rows:>6} |{mine.p50:>10.2f}{mine.p95:>7.2f}{mine.max:>7.2f} |"
            f"{bare.p50:>9.2f}{bare.p95:>7.2f}{bare.max:>7.2f} |{mine.p95 / bare.p95:>12.2f}x"
        )
    if budget:
        print_budget(results)
    print_load()


def print_budget(results: list) -> None:
    def ratio(result: tuple) -> float:
        mine, bare = result[2], result[3]
        return mine.p95 / bare.p95

    slowest = max(results, key=lambda r: r[2].p95)
    widest = max(results, key=ratio)
    slowest_p95: Spread = slowest[2]
    print(
        f"\nBudget: p95 <= {BUDGET_P95_MS:.0f} ms: slowest {slowest_p95.p95:.1f} ms "
        f"({slowest[0].name}) {verdict(slowest_p95.p95 <= BUDGET_P95_MS)}; p95 <= "
        f"{BUDGET_RATIO}x raw: worst {ratio(widest):.2f}x ({widest[0].name}) "
        f"{verdict(ratio(widest) <= BUDGET_RATIO)}"
    )


def main() -> None:
    bench = seeded_database(__doc__)
    note = ensure_reports(bench.dsn, bench.members)
    all_cases = cases(bench.members)
    with psycopg.connect(bench.dsn) as connection:
        server = server_version(connection)
        print(f"Database {bench.url.database}: {bench.note}; {note}")
        results = measure(connection, all_cases, bench.runs)
        slowest = max(results, key=lambda r: r[2].p95)
        plans = [explain(connection, *compiled(s)) for s in slowest[0].statements]
    print_results(results, bench.members, bench.runs, server, budget=not bench.smoke)
    print(f"\nEXPLAIN (ANALYZE, BUFFERS) of the slowest case, {slowest[0].name}:")
    print("\n\n".join(plans))


if __name__ == "__main__":
    main()
