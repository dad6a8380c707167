"""Every benchmark in bench/ still runs: each in its smoke configuration (`--smoke`: a few
members, a second or two, no budget verdict), so a bench that a change elsewhere broke fails CI.

A bench is a script of bench/ (it runs under `if __name__ == "__main__":`); the other modules
there are libraries the benches import. Benches that serve this site serve the fault tests'
shared production build (`fault_build`) instead of building their own; those that need
PostgreSQL and Redis make databases of their own on DATABASE_URL's and REDIS_URL's servers.
Each bench has a time limit of its own (SMOKE_SECONDS) and must leave no process running.
"""

import ctypes
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from server import REPO_ROOT

from bench.options import SMOKE_BANNER, site_build_argument
from bench.reflex_socket import children_of, command_line, process_tree
from tests.services import require_services

BENCH_DIR = REPO_ROOT / "bench"
SERVES_SITE = {
    "capacity",
    "chat",
    "lighthouse",
    "login",
    "page_load",
    "push",
}  # they take --site-build
NEEDS_SERVICES = {
    "capacity",
    "chat",
    "matchfinder",
    "moderation",
    "push",
    "search",
}  # PostgreSQL (and Redis)
# A bench still running after its limit ignored --smoke or hangs. The limits leave room for a
# machine that is busy: these run beside the browser tests on the shared site (tests/suite.py),
# where the last CI run measured lighthouse 104 s, page_load 51 s, login over 60 s, push 33 s,
# payments 28 s and the others under 10 s (chat's 208 s include building the site); alone,
# a smoke run takes half of that or less. A hang never ends, so a wide limit still catches it.
SMOKE_SECONDS = {"lighthouse": 300, "chat": 240, "capacity": 300}  # capacity: 3 servers
DEFAULT_SMOKE_SECONDS = 150
STOP_SECONDS = 30  # for a bench interrupted (Ctrl-C) to stop the servers it started
EXIT_SECONDS = 5  # for what a bench started to finish exiting after it (Chromium's helpers)
PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>


def is_bench(path: Path) -> bool:
    return '\nif __name__ == "__main__":' in path.read_text()


MODULES = sorted(BENCH_DIR.glob("*.py"))
BENCHES = [path.stem for path in MODULES if is_bench(path)]
LIBRARIES = [path.stem for path in MODULES if not is_bench(path) and path.stem != "__init__"]


@contextmanager
def adopting_orphans() -> Iterator[None]:
    """Meanwhile this process adopts its descendants' orphans, as init would: the servers and
    Chromium a bench starts run in sessions of their own, out of reach of its process group, so
    one it leaves running is found among our children instead."""
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    if prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
    try:
        yield
    finally:
        prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def running_adopted(ours: set[int]) -> list[int]:
    """This process's children other than `ours` still running; those that exited are reaped."""
    running = []
    for pid in children_of(os.getpid()):
        if pid not in ours:
            with suppress(ChildProcessError):
                if os.waitpid(pid, os.WNOHANG) == (0, 0):
                    running.append(pid)
    return running


def wait_for_adopted(ours: set[int], seconds: float) -> list[int]:
    """The adopted children still running after up to `seconds`."""
    deadline = time.monotonic() + seconds
    while (running := running_adopted(ours)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return running


def end_leftovers(ours: set[int]) -> list[str]:
    """The processes a bench left running (adopted, with their descendants) once EXIT_SECONDS
    have passed: killed and reaped; their command lines."""
    leftovers = [pid for root in wait_for_adopted(ours, EXIT_SECONDS) for pid in process_tree(root)]
    named = [f"{pid} {command_line(pid)}" for pid in leftovers]
    for pid in leftovers:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    wait_for_adopted(ours, STOP_SECONDS)  # reaps them, and their children reparented to us
    return named


def interrupt(process: subprocess.Popen) -> None:
    """Ctrl-C, as a terminal sends it to the bench's process group, so that it stops the servers
    it started; the group killed if the bench still runs STOP_SECONDS later."""
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def run_bench(args: list[str], seconds: float) -> subprocess.CompletedProcess:
    """Run a bench in a session of its own. One still running after `seconds` is interrupted
    (see interrupt) and fails the test; so does one that leaves a process running, which is
    killed. Its output goes to a file: a pipe would be held open by what it leaves running."""
    ours = set(children_of(os.getpid()))
    with tempfile.TemporaryFile("w+") as out, adopting_orphans():
        process = subprocess.Popen(
            args, cwd=REPO_ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            process.wait(timeout=seconds)
            hung = False
        except subprocess.TimeoutExpired:
            interrupt(process)
            hung = True
        leftovers = end_leftovers(ours)
        out.seek(0)
        output = out.read()
    if hung:
        pytest.fail(f"{args[1]} still ran after {seconds} s, left {leftovers}:\n{output[-3000:]}")
    if leftovers:
        pytest.fail(f"{args[1]} left processes running (now killed): {leftovers}")
    return subprocess.CompletedProcess(args, process.returncode, output)


@pytest.mark.parametrize("name", BENCHES)
def test_the_bench_runs_in_its_smoke_configuration(name: str, request: pytest.FixtureRequest):
    args = [sys.executable, str(BENCH_DIR / f"{name}.py"), "--smoke"]
    if name in NEEDS_SERVICES:
        require_services()
    if name in SERVES_SITE:
        args += ["--site-build", site_build_argument(request.getfixturevalue("fault_build"))]
    result = run_bench(args, SMOKE_SECONDS.get(name, DEFAULT_SMOKE_SECONDS))
    assert result.returncode == 0, f"{name} exited {result.returncode}:\n{result.stdout[-3000:]}"
    assert SMOKE_BANNER in result.stdout, f"{name} ignored --smoke:\n{result.stdout[-3000:]}"
    assert result.stdout.strip() != SMOKE_BANNER, f"{name} printed no figures"


# A bench that starts a server in a session of its own, as running_site does (Chromium and
# Lighthouse's Chromium start in theirs too), and a helper in its own process group that
# ignores Ctrl-C, writes their pids to the file it is given and ends or hangs.
FAKE_BENCH = """import signal, subprocess, sys, time
server = subprocess.Popen(["sleep", "600"], start_new_session=True)
signal.signal(signal.SIGINT, signal.SIG_IGN)
helper = subprocess.Popen(["sleep", "600"])
signal.signal(signal.SIGINT, signal.default_int_handler)
open(sys.argv[1], "w").write(f"{server.pid} {helper.pid}")
if sys.argv[2] == "hang":
    time.sleep(600)
"""


def fake_bench(tmp_path: Path, ending: str) -> tuple[list[str], Path]:
    script, pids = tmp_path / "fake_bench.py", tmp_path / "pids"
    script.write_text(FAKE_BENCH)
    return [sys.executable, str(script), str(pids), ending], pids


def running(pids: Path) -> list[int]:
    alive = []
    for pid in map(int, pids.read_text().split()):
        with suppress(ProcessLookupError):
            os.kill(pid, 0)
            alive.append(pid)
    return alive


def test_a_bench_that_leaves_processes_running_fails_and_they_are_killed(tmp_path: Path):
    args, pids = fake_bench(tmp_path, "end")
    with pytest.raises(pytest.fail.Exception, match="left processes running"):
        run_bench(args, 60)
    assert running(pids) == []


def test_a_bench_still_running_at_its_limit_fails_and_all_it_started_is_killed(tmp_path: Path):
    args, pids = fake_bench(tmp_path, "hang")
    with pytest.raises(pytest.fail.Exception, match="still ran after 5 s"):
        run_bench(args, 5)
    assert running(pids) == []


def test_benches_and_libraries_are_told_apart() -> None:
    """Every module of bench/ that is no script is imported by a bench, so a new bench written
    without a `__main__` block fails here instead of never running."""
    sources = {name: (BENCH_DIR / f"{name}.py").read_text() for name in BENCHES}
    unused = [
        library
        for library in LIBRARIES
        if not any(f"bench.{library} import" in source for source in sources.values())
    ]
    assert not unused, f"bench/ modules that no bench imports (a bench needs __main__): {unused}"
    assert {"chat", "search"} <= set(BENCHES)
    assert "reflex_socket" in LIBRARIES


def test_every_bench_that_serves_the_site_is_given_the_shared_build() -> None:
    """A bench that starts this site (running_site) serves the shared build here: building its
    own would add a minute or more to CI."""
    starts_the_site = {
        name for name in BENCHES if "running_site(" in (BENCH_DIR / f"{name}.py").read_text()
    }
    assert starts_the_site <= SERVES_SITE
