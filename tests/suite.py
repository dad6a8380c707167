"""`make test`'s pytest: the browser tests and the other tests at the same time.

The browser tests mostly wait on their production servers and on Chromium, so the unit and state
tests run beside them, on every CPU (pytest-xdist, at most 4 workers, each on databases of its
own: tests/conftest.py). The browser tests that start servers of their own (the fault tests and
the benches' smoke runs, on a second production build, with databases of their own) run in a
second process once the unit and state tests are done, beside the other browser tests, which
share one site for the whole run. Separate pytest processes: the browser tests' Playwright loop
and pytest-asyncio's loops never share a process, and the browser tests keep the machine's
DATABASE_URL and REDIS_URL to themselves. Each browser report is printed once the other tests
are done; the run fails when any part does.
"""

import subprocess
import sys
import tempfile
from typing import IO

PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=15"]
OWN_SERVERS = ["tests/e2e/test_benches.py", "tests/e2e/test_chat_faults.py",
               "tests/e2e/test_service_faults.py", "tests/e2e/test_two_instances.py"]  # fmt: skip
SHARED_SITE = [*PYTEST, "tests/e2e", *(f"--ignore={path}" for path in OWN_SERVERS)]
OTHER_TESTS = [*PYTEST, "-n", "auto", "--maxprocesses", "4", "tests/unit", "tests/state"]


def _start(args: list[str], report: IO[bytes]) -> subprocess.Popen:
    return subprocess.Popen(args, stdout=report, stderr=subprocess.STDOUT)


def _print(title: str, report: IO[bytes]) -> None:
    report.seek(0)
    print(f"\n{title}:", flush=True)
    sys.stdout.buffer.write(report.read())
    sys.stdout.buffer.flush()


def main() -> int:
    with tempfile.TemporaryFile() as shared_report, tempfile.TemporaryFile() as own_report:
        shared = _start(SHARED_SITE, shared_report)
        others = subprocess.run(OTHER_TESTS).returncode
        own = _start([*PYTEST, *OWN_SERVERS], own_report)
        results = (others, shared.wait(), own.wait())
        _print("Browser tests on the shared site (tests/e2e)", shared_report)
        _print("Browser tests with servers of their own (faults, bench smoke runs)", own_report)
    return next((code for code in results if code), 0)


if __name__ == "__main__":
    sys.exit(main())
