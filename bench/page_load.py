"""`python bench/page_load.py [--smoke] [--site-build PORT:WEB_DIR]`: JavaScript weight, first
paint and per-visitor state size.

Builds and serves this site and a blank Reflex app (one page with a heading) in production
mode, loads pages in headless Chromium and prints a table with the budget verdict. It reports
the budget but never fails on it. `--smoke`: one load of each of this site's pages and its
visitor state, no blank app, no verdict; `--site-build` serves that build instead of building.
"""

import gzip
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from hashlib import md5
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Response, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))
from server import (
    Server,
    base_env,
    free_port,
    launch_chromium,
    running_server,
    running_site,
)

from bench.options import add_site_build, bench_parser, parse

LOADS = 15
# the landing page, the search, and a lander (every lander loads the same scripts but its own
# design's small chunk: docs/acquisition.md)
APP_PAGES = ("/", "/members", "/landers/gallery/milf-amsterdam")
PAGE_READY = '[data-testid="page-ready"]'
JS_BUDGET_RATIO = 1.2
FCP_BUDGET_RATIO = 1.5
STATE_BUDGET_BYTES = 8 * 1024
STATE_NAME = re.compile(r"reflex___state____state(?:\.\w+)*")
STATE_SETTLE_SECONDS = 3.0  # longer than the disk state manager's 2 s write debounce
STATE_TIMEOUT_SECONDS = 30.0

BLANK_RXCONFIG = """import reflex as rx

config = rx.Config(
    app_name="blank",
    telemetry_enabled=False,
    show_built_with_reflex=False,
    plugins=[rx.plugins.RadixThemesPlugin(), rx.plugins.SitemapPlugin()],
)
"""
BLANK_APP = """import reflex as rx


def index() -> rx.Component:
    return rx.heading("Blank")


app = rx.App()
app.add_page(index)
"""


@dataclass(frozen=True)
class PageFigures:
    label: str
    js_files: int
    js_gzip_bytes: int
    compression: str
    fcp_ms: float
    ttfb_ms: float


@dataclass(frozen=True)
class Load:
    scripts: list[str]
    fcp_ms: float
    ttfb_ms: float


@contextmanager
def blank_server(work_dir: Path) -> Iterator[Server]:
    """A blank Reflex app written into work_dir and served in production mode."""
    app_dir = work_dir / "src"
    (app_dir / "blank").mkdir(parents=True)
    (app_dir / "rxconfig.py").write_text(BLANK_RXCONFIG)
    (app_dir / "blank" / "__init__.py").write_text("")
    (app_dir / "blank" / "blank.py").write_text(BLANK_APP)
    port = free_port()
    env = base_env(port, work_dir, external=False)
    with running_server(app_dir, port, env, work_dir / "server.log") as server:
        yield server


def is_javascript(response: Response) -> bool:
    return "javascript" in response.headers.get("content-type", "")


def load_once(browser: Browser, url: str) -> Load:
    """Load url in a fresh context: the JavaScript URLs it fetched, its FCP and TTFB in ms."""
    context = browser.new_context()
    try:
        page = context.new_page()
        scripts: list[str] = []
        page.on("response", lambda r: scripts.append(r.url) if is_javascript(r) else None)
        page.goto(url, wait_until="networkidle")
        page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length")
        fcp, ttfb = page.evaluate(
            "[performance.getEntriesByName('first-contentful-paint')[0].startTime,"
            " performance.getEntriesByType('navigation')[0].responseStart]"
        )
        return Load(sorted(set(scripts)), float(fcp), float(ttfb))
    finally:
        context.close()


def gzip_size(client: httpx.Client, url: str) -> tuple[int, bool]:
    """The bytes of url sent with Accept-Encoding gzip; gzipped here if the server did not."""
    with client.stream("GET", url, headers={"Accept-Encoding": "gzip"}) as response:
        body = b"".join(response.iter_raw())
    if response.headers.get("content-encoding") == "gzip":
        return len(body), True
    return len(gzip.compress(body, compresslevel=6)), False


def compression_note(server_gzipped: list[bool]) -> str:
    if all(server_gzipped):
        return "server gzip"
    if not any(server_gzipped):
        return "gzipped here (level 6)"
    return f"server gzip for {sum(server_gzipped)}/{len(server_gzipped)}, rest gzipped here"


def measure_pages(browser: Browser, pages: dict[str, str], count: int) -> list[PageFigures]:
    """Each page's figures from `count` loads, taken in turns with the other pages' so that a
    busy moment of the machine weighs on every page alike."""
    loads: dict[str, list[Load]] = {label: [] for label in pages}
    for _ in range(count):
        for label, url in pages.items():
            loads[label].append(load_once(browser, url))
    return [page_figures(label, page_loads) for label, page_loads in loads.items()]


def page_figures(label: str, loads: list[Load]) -> PageFigures:
    scripts = loads[0].scripts
    with httpx.Client(timeout=30) as client:
        sizes = [gzip_size(client, script) for script in scripts]
    return PageFigures(
        label=label,
        js_files=len(scripts),
        js_gzip_bytes=sum(size for size, _ in sizes),
        compression=compression_note([gzipped for _, gzipped in sizes]),
        fcp_ms=statistics.median(load.fcp_ms for load in loads),
        ttfb_ms=statistics.median(load.ttfb_ms for load in loads),
    )


def state_names(web_dir: Path) -> set[str]:
    """Full names of the app's states (and a few event names), as compiled into the frontend."""
    return set(STATE_NAME.findall((web_dir / "utils" / "context.jsx").read_text()))


def token_state_files(server: Server, token: str) -> list[Path]:
    """The disk state manager names each file md5("<token>_<full state name>").pkl."""
    names = {md5(f"{token}_{name}".encode()).hexdigest() for name in state_names(server.web_dir)}
    return [path for path in server.states_dir.glob("*.pkl") if path.stem in names]


def settled_state_files(server: Server, token: str) -> list[Path]:
    """The token's state files once the debounced writes have stopped changing them."""
    deadline = time.monotonic() + STATE_TIMEOUT_SECONDS
    previous: list[tuple[str, int]] = []
    while time.monotonic() < deadline:
        time.sleep(STATE_SETTLE_SECONDS)
        files = token_state_files(server, token)
        current = sorted((path.name, path.stat().st_size) for path in files)
        if current and current == previous:
            return files
        previous = current
    raise RuntimeError(f"no settled state files for token {token} in {server.states_dir}")


def visitor_state(browser: Browser, server: Server) -> tuple[int, int]:
    """Bytes and file count of the pickled state of a logged-out visitor of the landing page."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url + "/", wait_until="networkidle")
        page.wait_for_selector(PAGE_READY, state="attached")
        token = page.evaluate("sessionStorage.getItem('token')")
        files = settled_state_files(server, token)
        return sum(path.stat().st_size for path in files), len(files)
    finally:
        context.close()


def kib(size: int) -> str:
    return f"{size / 1024:.1f} KB"


def print_table(figures: list[PageFigures], count: int) -> None:
    print(
        f"\nPage loads (JS: every script the page fetched; FCP and TTFB: median of {count} "
        "fresh loads, the pages' loads taken in turns)"
    )
    print(f"{'page':<14}{'JS files':>9}{'JS gzip':>12}{'FCP':>10}{'TTFB':>10}  compression")
    for row in figures:
        print(
            f"{row.label:<14}{row.js_files:>9}{kib(row.js_gzip_bytes):>12}"
            f"{row.fcp_ms:>8.0f}ms{row.ttfb_ms:>8.0f}ms  {row.compression}"
        )


def print_state(state: tuple[int, int]) -> None:
    state_bytes, state_files = state
    print(f"\nLogged-out visitor state on /: {kib(state_bytes)} in {state_files} pickled states")


def print_verdict(
    landing: PageFigures, lander: PageFigures, blank: PageFigures, state: tuple[int, int]
) -> None:
    state_bytes, _ = state
    fcp_ratio = landing.fcp_ms / blank.fcp_ms
    fcp_ok = fcp_ratio <= FCP_BUDGET_RATIO
    state_ok = state_bytes <= STATE_BUDGET_BYTES
    print("\nBudget")
    for name, page in (("landing", landing), ("lander", lander)):
        ratio = page.js_gzip_bytes / blank.js_gzip_bytes
        print(
            f"  {name} JS {kib(page.js_gzip_bytes)} = {ratio:.2f}x blank "
            f"(budget <= {JS_BUDGET_RATIO}x): {'within' if ratio <= JS_BUDGET_RATIO else 'OVER'}"
        )
    print(
        f"  landing FCP {landing.fcp_ms:.0f} ms = {fcp_ratio:.2f}x blank "
        f"(budget <= {FCP_BUDGET_RATIO}x): {'within' if fcp_ok else 'OVER'}"
    )
    print(
        f"  visitor state {kib(state_bytes)} (budget <= {kib(STATE_BUDGET_BYTES)}): "
        f"{'within' if state_ok else 'OVER'}"
    )


def main() -> None:
    parser = bench_parser(__doc__)
    add_site_build(parser)
    args = parse(parser)
    loads = 1 if args.smoke else LOADS
    with ExitStack() as stack:
        temp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-")))
        site = stack.enter_context(
            running_site(temp / "site", external=False, build=args.site_build)
        )
        pages = {f"app {path}": site.url + path for path in APP_PAGES}
        if not args.smoke:
            blank = stack.enter_context(blank_server(temp / "blank"))
            pages["blank /"] = blank.url + "/"
        browser = launch_chromium(stack.enter_context(sync_playwright()))
        figures = measure_pages(browser, pages, loads)
        state = visitor_state(browser, site)
        browser.close()
    print_table(figures, loads)
    print_state(state)
    if not args.smoke:
        print_verdict(figures[0], figures[2], figures[-1], state)


if __name__ == "__main__":
    main()
