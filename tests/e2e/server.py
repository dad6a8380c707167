"""Start production Reflex servers and headless Chromium for the browser tests and the bench."""

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Coroutine, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

import httpx
from playwright.sync_api import Browser, Playwright

from tests.network import free_port
from tests.site_build import SiteBuild

T = TypeVar("T")
REPO_ROOT = Path(__file__).resolve().parents[2]
SERVE_BUILT = Path(__file__).resolve().with_name("serve_built.py")
BIN_DIR = Path(sys.executable).parent  # the venv's bin: reflex, alembic, node, npm
READY_TIMEOUT = 600.0  # seconds; `reflex run --env prod` builds the frontend first, slowly
# when the unit tests share the machine's two cores with it
EXTERNAL_SERVICE_VARS = ("DATABASE_URL", "REDIS_URL")
CHROMIUM = "/usr/bin/chromium"  # Debian's; `make debian-packages` installs it
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip


@dataclass(frozen=True)
class Server:
    """A site the tests browse: one they started (every field set) or, with E2E_URL, a site
    running elsewhere (only url and port)."""

    url: str
    port: int
    log_path: Path | None = None
    web_dir: Path | None = None  # the compiled frontend (REFLEX_WEB_WORKDIR)
    states_dir: Path | None = None  # where the disk state manager pickles each client's state
    data_dir: Path | None = None  # DATA_DIR: SQLite file, photos, mail outbox (outbox/*.eml)
    database_url: str | None = None  # the server's database, as services/config.py reads it


class ServerError(RuntimeError):
    """A setup step or the server itself failed; the message ends with the log's tail."""


SETTINGS_CACHE_SECONDS = 2  # the servers' site settings cache: an admin's edit shows soon


def base_env(port: int, work_dir: Path, *, external: bool, **extra: str) -> dict[str, str]:
    """The current environment with the venv's tools first and the server's port set.

    The build (.web) and the disk state manager's pickles go under work_dir, so a server
    never shares them with a developer's own `reflex run` in the same checkout.
    external: keep DATABASE_URL and REDIS_URL from the environment (CI's services);
    otherwise drop them so the app uses SQLite and the disk state manager.
    """
    env = {
        **os.environ,
        "PATH": f"{BIN_DIR}{os.pathsep}{os.environ.get('PATH', '')}",
        "REFLEX_USE_NPM": "1",
        "REFLEX_WEB_WORKDIR": str(work_dir / "web"),
        "REFLEX_STATES_WORKDIR": str(work_dir / "states"),
        "PORT": str(port),
        "PUBLIC_URL": f"http://localhost:{port}",
        "PYTHONUNBUFFERED": "1",
        "SETTINGS_CACHE_SECONDS": str(SETTINGS_CACHE_SECONDS),
        **extra,
    }
    for name in EXTERNAL_SERVICE_VARS:
        if not external or not env.get(name, "").strip():
            env.pop(name, None)
    return env


def site_env(
    port: int,
    data_dir: Path,
    *,
    external: bool,
    demo_members: int,
    workers: int | None = None,
    **settings: str,
) -> dict[str, str]:
    """Environment for this site: its own data dir and demo members; `workers` backend
    processes (GRANIAN_WORKERS, which Reflex reads when it runs with Redis); `settings` more
    variables (e.g. PUSH_SERVICE_HOSTS)."""
    extra = {"GRANIAN_WORKERS": str(workers)} if workers is not None else {}
    extra |= settings
    return base_env(
        port,
        data_dir,
        external=external,
        DATA_DIR=str(data_dir),
        DEMO_MEMBERS=str(demo_members),
        DEMO_DATA="1",
        **extra,
    )


def storage_of(env: Mapping[str, str]) -> tuple[Path | None, str | None]:
    """The data dir and database URL a server started with env uses (see services/config.py)."""
    data_dir = Path(env["DATA_DIR"]).resolve() if env.get("DATA_DIR") else None
    database_url = env.get("DATABASE_URL") or (
        f"sqlite:///{data_dir / 'app.db'}" if data_dir is not None else None
    )
    return data_dir, database_url


def log_tail(log_path: Path, lines: int = 80) -> str:
    if not log_path.exists():
        return "(no log written)"
    text = log_path.read_text(errors="replace").splitlines()
    return "\n".join(text[-lines:])


def tracebacks(log: str) -> list[str]:
    """Each traceback in a server's log, with the line logged before it (what failed) and its
    exception's line: what a test that finds one shows."""
    lines, found = log.splitlines(), []
    for start, line in enumerate(lines):
        if line.startswith("Traceback"):
            end = start + 1
            while end < len(lines) and lines[end][:1].isspace():
                end += 1
            found.append("\n".join(lines[max(start - 1, 0) : end + 1]))
    return found


def lock_warnings(log: str) -> list[str]:
    """Reflex's warnings of a tab's state lock held too long, or released by another holder:
    why an event may have failed with LockExpiredError."""
    marks = ("was held too long", "but it belonged to")
    return [line for line in log.splitlines() if any(mark in line for mark in marks)]


def run_step(args: Sequence[str], cwd: Path, env: Mapping[str, str], log_path: Path) -> None:
    """Run one setup command, appending its output to the log; raise with the tail on failure."""
    with log_path.open("a") as log:
        log.write(f"\n$ {' '.join(args)}\n")
        log.flush()
        result = subprocess.run(args, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        raise ServerError(f"{' '.join(args)} exited {result.returncode}:\n{log_tail(log_path)}")


def prepare_site(env: Mapping[str, str], log_path: Path) -> None:
    """Migrate (wiping an external database's schema first) and seed the site's data."""
    alembic = str(BIN_DIR / "alembic")
    if database_url := env.get("DATABASE_URL"):
        from tests.services import wipe_postgres_schema  # the tests' and benches' own databases

        wipe_postgres_schema(database_url)
    run_step([alembic, "upgrade", "head"], REPO_ROOT, env, log_path)
    run_step([str(BIN_DIR / "python"), "-m", "services.seed"], REPO_ROOT, env, log_path)


def build_site(work_dir: Path) -> SiteBuild:
    """This site's production frontend built under work_dir for a free port (`reflex export`,
    the build `reflex run --env prod` makes), for servers that serve it without building."""
    work_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = base_env(port, work_dir, external=False, DATA_DIR=str(work_dir / "data"))
    export = [str(BIN_DIR / "reflex"), "export", "--frontend-only", "--no-zip", "--env", "prod"]
    run_step(export, REPO_ROOT, env, work_dir / "build.log")
    return SiteBuild(port, Path(env["REFLEX_WEB_WORKDIR"]))


def launch(
    app_dir: Path, port: int, env: Mapping[str, str], log_path: Path, *, built: bool = False
) -> subprocess.Popen:
    """`reflex run --env prod --single-port` in its own process group, logging to log_path;
    built: serve the frontend already built in env's REFLEX_WEB_WORKDIR instead (serve_built)."""
    if built:
        args = [sys.executable, str(SERVE_BUILT), "--backend-port", str(port)]
    else:
        args = [
            str(BIN_DIR / "reflex"), "run", "--env", "prod", "--single-port",
            "--frontend-port", str(port), "--backend-port", str(port),
        ]  # fmt: skip
    with log_path.open("a") as log:
        log.write(f"\n$ {' '.join(args)}\n")
        log.flush()
        return subprocess.Popen(
            args, cwd=app_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip


def answers_ok(client: httpx.Client, url: str) -> bool:
    try:
        return client.get(url).status_code == 200
    except httpx.HTTPError:
        return False


def wait_until_ready(
    url: str, process: subprocess.Popen, log_path: Path, *, verify: bool = True
) -> None:
    """Wait for the page (GET /) and the backend (GET /ping) to answer 200; verify: False for
    a test's self-signed certificate."""
    deadline = time.monotonic() + READY_TIMEOUT
    with httpx.Client(timeout=5, verify=verify) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise ServerError(f"server exited {process.returncode}:\n{log_tail(log_path)}")
            if answers_ok(client, f"{url}/") and answers_ok(client, f"{url}/ping"):
                return
            time.sleep(1)
    raise ServerError(f"server not ready after {READY_TIMEOUT:.0f} s:\n{log_tail(log_path)}")


def signal_group(process: subprocess.Popen, sig: signal.Signals) -> None:
    with suppress(ProcessLookupError):
        os.killpg(process.pid, sig)


def stop(process: subprocess.Popen) -> None:
    """Terminate the server's process group, then kill whatever of it is left."""
    signal_group(process, signal.SIGTERM)
    with suppress(subprocess.TimeoutExpired):
        process.wait(timeout=15)
    signal_group(process, signal.SIGKILL)
    process.wait(timeout=5)


@contextmanager
def running_server(
    app_dir: Path,
    port: int,
    env: Mapping[str, str],
    log_path: Path,
    *,
    built_in: Path | None = None,
) -> Iterator[Server]:
    """A ready production server for the app in app_dir, stopped on exit; built_in: serve the
    frontend already built in that folder for this port instead of building one."""
    if built_in is not None:
        env = {**env, "REFLEX_WEB_WORKDIR": str(built_in)}
    process = launch(app_dir, port, env, log_path, built=built_in is not None)
    try:
        url = f"http://localhost:{port}"
        wait_until_ready(url, process, log_path)
        web_dir, states_dir = env["REFLEX_WEB_WORKDIR"], env["REFLEX_STATES_WORKDIR"]
        data_dir, database_url = storage_of(env)
        yield Server(url, port, log_path, Path(web_dir), Path(states_dir), data_dir, database_url)
    finally:
        stop(process)


@contextmanager
def running_site(
    work_dir: Path,
    *,
    external: bool,
    demo_members: int = 40,
    workers: int | None = None,
    build: SiteBuild | None = None,
    **settings: str,
) -> Iterator[Server]:
    """This site, migrated and seeded into work_dir, served in production mode: built by
    `reflex run`, or serving `build` on its port."""
    work_dir.mkdir(parents=True, exist_ok=True)
    port = build.port if build else free_port()
    env = site_env(
        port, work_dir, external=external, demo_members=demo_members, workers=workers, **settings
    )
    log_path = work_dir / "server.log"
    prepare_site(env, log_path)
    built_in = build.web_dir if build else None
    with running_server(REPO_ROOT, port, env, log_path, built_in=built_in) as server:
        yield server


def run_in_own_loop(scenario: Coroutine[None, None, T]) -> T:
    """Run a scenario of simulated tabs in a thread with its own event loop: in a whole test
    session the browser tests' Playwright already runs a loop in this thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, scenario).result()


def remote_site(url: str) -> Server:
    """The site running at url (`make e2e URL=...`), once it answers GET /ping."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        httpx.get(f"{url}/ping", timeout=30).raise_for_status()
    except httpx.HTTPError as error:
        raise ServerError(f"{url} does not answer GET /ping: {error}") from error
    return Server(url, port)


def launch_chromium(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
