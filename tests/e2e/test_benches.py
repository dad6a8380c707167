"""Every benchmark in bench/ still runs: each in its smoke configuration (`--smoke`: a few
members, a second or two, no budget verdict), so a bench that a change elsewhere broke fails CI.

A bench is a script of bench/ (it runs under `if __name__ == "__main__":`); the other modules
there are libraries the benches import. Benches that serve this site serve the fault tests'
shared production build (`fault_build`) instead of building their own; those that need
PostgreSQL and Redis make databases of their own on DATABASE_URL's and REDIS_URL's servers.
"""

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from server import REPO_ROOT
from test_chat_faults import require_services

from bench.options import SMOKE_BANNER, site_build_argument

BENCH_DIR = REPO_ROOT / "bench"
SERVES_SITE = {"chat", "lighthouse", "login", "page_load", "push"}  # they take --site-build
NEEDS_SERVICES = {"chat", "matchfinder", "push", "search"}  # PostgreSQL (and Redis)
SMOKE_SECONDS = 300  # a bench still running then ignored --smoke
STOP_SECONDS = 30  # for a bench interrupted (Ctrl-C) to stop the servers it started


def is_bench(path: Path) -> bool:
    return '\nif __name__ == "__main__":' in path.read_text()


MODULES = sorted(BENCH_DIR.glob("*.py"))
BENCHES = [path.stem for path in MODULES if is_bench(path)]
LIBRARIES = [path.stem for path in MODULES if not is_bench(path) and path.stem != "__init__"]


def run_bench(args: list[str]) -> subprocess.CompletedProcess:
    """Run a bench; one still running after SMOKE_SECONDS is interrupted as Ctrl-C does, so
    it stops the servers it started, and fails the test."""
    process = subprocess.Popen(
        args, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        output, _ = process.communicate(timeout=SMOKE_SECONDS)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)
        try:
            output, _ = process.communicate(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        pytest.fail(f"{args[1]} still ran after {SMOKE_SECONDS} s:\n{output[-3000:]}")
    return subprocess.CompletedProcess(args, process.returncode, output)


@pytest.mark.parametrize("name", BENCHES)
def test_the_bench_runs_in_its_smoke_configuration(name: str, request: pytest.FixtureRequest):
    args = [sys.executable, str(BENCH_DIR / f"{name}.py"), "--smoke"]
    if name in NEEDS_SERVICES:
        require_services()
    if name in SERVES_SITE:
        args += ["--site-build", site_build_argument(request.getfixturevalue("fault_build"))]
    result = run_bench(args)
    assert result.returncode == 0, f"{name} exited {result.returncode}:\n{result.stdout[-3000:]}"
    assert SMOKE_BANNER in result.stdout, f"{name} ignored --smoke:\n{result.stdout[-3000:]}"
    assert result.stdout.strip() != SMOKE_BANNER, f"{name} printed no figures"


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
