"""`python bench/capacity.py [--steps 6] [--seconds 15] [--smoke] [--site-build PORT:WEB_DIR]`:
how many connected members and messages a second one instance holds, and two behind nginx.

One instance of this site's production build (2 backend workers, Redis, PostgreSQL: the
server of `DATABASE_URL`, in its own database `bench_capacity`, wiped, migrated and seeded),
then two instances of the same build behind nginx on the same machine (docs/deploy.md), each
with 2 workers, sharing the database and Redis. The load rises step by step: step k connects
STEP_MEMBERS * k members (in pairs, each pair chatting) and sends STEP_RATE * k messages a
second among them for `--seconds`, as bench/chat.py does; the setup holds a step when chat p99
is at most 250 ms and every message arrived. The steps stop at the first one missed.

Prints, for each setup, every step's figures, then the last step held side by side. On one
machine of 2 CPUs a second instance adds no CPU: the difference is the cost of going through
nginx and Redis to another process, and the per-instance figures (server CPU and memory per
connected member, memory per instance) are what to plan a deployment from. Memory per
instance is its process tree's resident memory with the last step's members connected.
`--smoke`: one step of 2 members, 2 messages a second for 1 s; `--site-build` serves that
build instead of building (bench/options.py).
"""

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench.*, tests.*, models.*
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
from load_balancer import instances_behind_nginx, shared_settings
from server import build_site, prepare_site, running_site, site_env

from bench.chat import (
    BUDGET_P99_MS,
    DEFAULT_REDIS,
    DEFAULT_SERVER,
    DEMO_MEMBERS,
    MB,
    WORKERS,
    Arrivals,
    Figures,
    Member,
    Pair,
    SiteMember,
    add_pairs,
    measure,
    wait_for_warm_up,
)
from bench.options import add_site_build, bench_parser, parse
from bench.reflex_socket import process_tree, reflex_server, rss_bytes
from services.config import _sqlalchemy_url
from tests.services import own_database, redis_database
from tests.site_build import SiteBuild

DATABASE = "bench_capacity"
REDIS_DB = 1  # bench/chat.py's: the benches run one after the other
STEP_MEMBERS, STEP_RATE = 60, 15.0  # added at each step
STEPS, SECONDS = 6, 15.0
SMOKE = {"steps": 1, "seconds": 1.0, "step_members": 2, "step_rate": 2.0}


@dataclass(frozen=True)
class Step:
    members: int
    rate: float
    figures: Figures

    @property
    def held(self) -> bool:
        figures = self.figures
        return figures.delivered == figures.sent and figures.percentile(99) <= BUDGET_P99_MS


@dataclass(frozen=True)
class Setup:
    name: str
    steps: list[Step]
    instance_bytes: list[int]  # each instance's memory with the last step's members connected

    @property
    def last_held(self) -> Step | None:
        held = [step for step in self.steps if step.held]
        return held[-1] if held else None


@dataclass(frozen=True)
class Target:
    """A running setup: the address members connect to and each instance's processes."""

    url: str
    instance_pids: Callable[[], list[list[int]]]


def climb(
    target: Target, pairs: list[Pair], load: list[tuple[int, float]], seconds: float
) -> tuple[list[Step], list[int]]:
    """The steps, up to the first one missed, and each instance's memory at the last."""
    steps: list[Step] = []
    redis_url = bench_redis_url()

    def make(pair: Pair, side: int, arrivals: Arrivals) -> Member:
        return SiteMember(target.url, pair, side, arrivals)

    def all_pids() -> list[int]:
        return [pid for pids in target.instance_pids() for pid in pids]

    for members, rate in load:
        chatting = pairs[: members // 2]
        figures = asyncio.run(measure(make, chatting, all_pids, redis_url, rate, seconds))
        steps.append(Step(members, rate, figures))
        print(f"  {members} members, {rate:g}/s: p99 {figures.percentile(99):.0f} ms", flush=True)
        if not steps[-1].held:
            break
    return steps, [rss_bytes(pids) for pids in target.instance_pids()]


def bench_redis_url() -> str:
    return redis_database(os.environ.get("REDIS_URL") or DEFAULT_REDIS, REDIS_DB)


@contextmanager
def one_instance(work_dir: Path, build: SiteBuild) -> Iterator[Target]:
    with running_site(
        work_dir, external=True, demo_members=DEMO_MEMBERS, workers=WORKERS, build=build
    ) as site:
        wait_for_warm_up(site.log_path)

        def pids() -> list[list[int]]:
            supervisor = reflex_server(site.port)
            return [process_tree(supervisor) if supervisor else []]

        yield Target(site.url, pids)


@contextmanager
def two_instances(work_dir: Path, build: SiteBuild) -> Iterator[Target]:
    env = site_env(
        build.port, work_dir / "instance0", external=True, demo_members=DEMO_MEMBERS,
        workers=WORKERS, **shared_settings(work_dir, os.environ["DATABASE_URL"],
                                           os.environ["REDIS_URL"]),
    )  # fmt: skip
    work_dir.mkdir(parents=True, exist_ok=True)
    prepare_site(env, work_dir / "prepare.log")
    with instances_behind_nginx(build, env, work_dir, 2) as cluster:
        wait_for_warm_up(*(instance.log_path for instance in cluster.instances))

        def pids() -> list[list[int]]:
            return [process_tree(instance.process.pid) for instance in cluster.instances]

        yield Target(cluster.url, pids)


def run_setups(args: argparse.Namespace, build: SiteBuild, temp: Path) -> list[Setup]:
    database_url = own_database(os.environ.get("DATABASE_URL") or DEFAULT_SERVER, DATABASE)
    os.environ.update(DATABASE_URL=database_url, REDIS_URL=bench_redis_url())  # the servers'
    load = [(args.step_members * k, args.step_rate * k) for k in range(1, args.steps + 1)]
    setups = []
    for name, start in (("one instance", one_instance), ("two behind nginx", two_instances)):
        print(f"{name}:", flush=True)
        with start(temp / name.replace(" ", "-"), build) as target:
            pairs = add_pairs(_sqlalchemy_url(database_url), load[-1][0] // 2)
            steps, memory = climb(target, pairs, load, args.seconds)
        setups.append(Setup(name, steps, memory))
    return setups


def print_steps(setup: Setup) -> None:
    print(f"\n{setup.name}")
    print(f"{'members':>8}{'msgs/s':>8}{'delivered/s':>13}{'p50':>8}{'p99':>8}{'CPU':>7}  held")
    for step in setup.steps:
        f = step.figures
        print(
            f"{step.members:>8}{step.rate:>8g}{f.delivered / f.seconds:>13.1f}"
            f"{f.percentile(50):>6.0f}ms{f.percentile(99):>6.0f}ms{f.server_cpu:>7.2f}"
            f"  {'yes' if step.held else 'no'}"
        )


def print_summary(setups: list[Setup]) -> None:
    """The last step each setup held, side by side."""
    print(f"\nHeld with chat p99 <= {BUDGET_P99_MS:.0f} ms ({os.cpu_count()} CPUs shared)")
    print(f"{'':<34}" + "".join(f"{setup.name:>18}" for setup in setups))
    rows = (
        ("connected members", lambda s: f"{s.members}"),
        ("messages per second", lambda s: f"{s.figures.delivered / s.figures.seconds:.1f}"),
        ("chat p50", lambda s: f"{s.figures.percentile(50):.0f} ms"),
        ("chat p99", lambda s: f"{s.figures.percentile(99):.0f} ms"),
        ("server CPU", lambda s: f"{s.figures.server_cpu:.2f} CPU"),
        ("server CPU per message", lambda s: f"{_cpu_ms(s):.1f} ms"),
        ("server memory / connected member", lambda s: _mb(s.figures.server_bytes_per_member)),
        ("Redis memory / connected member", lambda s: _mb(s.figures.redis_bytes_per_member)),
    )
    for label, cell in rows:
        values = [cell(setup.last_held) if setup.last_held else "none held" for setup in setups]
        print(f"{label:<34}" + "".join(f"{value:>18}" for value in values))
    for setup in setups:
        per_instance = ", ".join(f"{memory / MB:.0f} MB" for memory in setup.instance_bytes)
        print(f"memory per instance, {setup.name}: {per_instance}")


def _mb(count: float) -> str:
    return f"{count / MB:.3f} MB"


def _cpu_ms(step: Step) -> float:
    per_second = step.figures.delivered / step.figures.seconds
    return step.figures.server_cpu / per_second * 1000 if per_second else float("nan")


def main() -> None:
    parser = bench_parser(__doc__)
    add_site_build(parser)
    parser.add_argument("--steps", type=int, default=STEPS, help="at most this many steps")
    parser.add_argument("--seconds", type=float, default=SECONDS, help="each step's sending")
    parser.add_argument("--step-members", type=int, default=STEP_MEMBERS, help="even")
    parser.add_argument("--step-rate", type=float, default=STEP_RATE, help="messages/s")
    args = parse(parser, SMOKE)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bench-capacity-") as temp:
        build = args.site_build or build_site(Path(temp) / "build")
        setups = run_setups(args, build, Path(temp))
    for setup in setups:
        print_steps(setup)
    print_summary(setups)
    print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
