"""`make test`'s pytest: the browser tests and the other tests at the same time.

The browser tests mostly wait on their production server and on Chromium, so the unit and state
tests run beside them, on every CPU (pytest-xdist, at most 4 workers, each on databases of its
own: tests/conftest.py). Two pytest processes, not one: the browser tests' Playwright loop and
pytest-asyncio's loops never share a process, and the browser tests keep the machine's
DATABASE_URL and REDIS_URL to themselves. The browser tests' report is printed once the other
tests are done; the run fails when either does.
"""

import subprocess
import sys
import tempfile

PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
BROWSER_TESTS = [*PYTEST, "--durations=15", "tests/e2e"]  # the slowest, to keep CI short
OTHER_TESTS = [*PYTEST, "-n", "auto", "--maxprocesses", "4", "tests/unit", "tests/state"]


def main() -> int:
    with tempfile.TemporaryFile() as browser_report:
        browser = subprocess.Popen(BROWSER_TESTS, stdout=browser_report, stderr=subprocess.STDOUT)
        others = subprocess.run(OTHER_TESTS).returncode
        browsers = browser.wait()
        browser_report.seek(0)
        print("\nBrowser tests (tests/e2e):", flush=True)
        sys.stdout.buffer.write(browser_report.read())
    return others or browsers


if __name__ == "__main__":
    sys.exit(main())
