"""Browser-test fixtures: one production server and one headless Chromium per session.

With E2E_URL set (`make e2e URL=...`) the journeys marked `any_site` run against that running
site instead, and every other browser test is skipped: it needs the test's own server, its
database, its mail outbox or its build.
"""

import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from journeys import NewPage, member, new_member, site_db  # noqa: F401 - shared fixtures
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Error,
    Page,
    sync_playwright,
)
from server import (
    Server,
    ServerError,
    SiteBuild,
    build_site,
    launch_chromium,
    remote_site,
    running_site,
)

from tests.push_service import LocalPushService, serving

DEFAULT_TIMEOUT_MS = 20_000
E2E_DIR = Path(__file__).resolve().parent
E2E_URL = os.environ.get("E2E_URL", "").strip().rstrip("/")
NEEDS_OWN_SITE = pytest.mark.skip(
    reason="needs the test's own server, database, outbox or build (E2E_URL is set)"
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test under tests/e2e as e2e (this hook sees the whole session's items); with
    E2E_URL, skip those not marked any_site."""
    for item in items:
        if item.path.is_relative_to(E2E_DIR):
            item.add_marker(pytest.mark.e2e)
            if E2E_URL and item.get_closest_marker("any_site") is None:
                item.add_marker(NEEDS_OWN_SITE)


@pytest.fixture(scope="session")
def push_service() -> Iterator[LocalPushService]:
    """A local Web Push service over HTTP, which the site may post to."""
    with serving() as service:
        yield service


@pytest.fixture(scope="session")
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """The site built and served in production mode, with 40 demo members, for the session;
    with E2E_URL, the site running there (no data dir, database or build of ours)."""
    if E2E_URL:
        yield running_elsewhere(E2E_URL)
        return
    push_service: LocalPushService = request.getfixturevalue("push_service")
    push_host = push_service.origin.removeprefix("http://")
    with ExitStack() as stack:
        try:
            server = stack.enter_context(
                running_site(
                    tmp_path_factory.mktemp("site"), external=True, PUSH_SERVICE_HOSTS=push_host
                )
            )
        except ServerError as error:
            pytest.fail(str(error), pytrace=False)
        yield server


def running_elsewhere(url: str) -> Server:
    try:
        return remote_site(url)
    except ServerError as error:
        pytest.fail(str(error), pytrace=False)


@pytest.fixture(scope="session")
def fault_build(tmp_path_factory: pytest.TempPathFactory) -> SiteBuild:
    """One production frontend for the fault tests' own servers, built once for one port:
    they serve it in turn (and again after a restart) instead of each building its own."""
    try:
        return build_site(tmp_path_factory.mktemp("fault-build"))
    except ServerError as error:
        pytest.fail(str(error), pytrace=False)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless Chromium; Playwright starts here, in a sync fixture, outside any event loop."""
    playwright = sync_playwright().start()
    try:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()
    finally:
        playwright.stop()


def collect_console_errors(page: Page) -> list[str]:
    """A list that fills with the page's console errors and uncaught exceptions."""
    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    def on_page_error(error: Error) -> None:
        errors.append(f"pageerror: {error.message}")

    page.on("console", on_console)
    page.on("pageerror", on_page_error)
    return errors


@pytest.fixture
def new_page(browser: Browser) -> Iterator[NewPage]:
    """new_page(locale="en", viewport=(1280, 800)): a page in a fresh context (no cookies).

    The context's locale sets navigator.language and the Accept-Language header; the page's
    console_errors attribute lists its console errors and uncaught exceptions.
    """
    contexts: list[BrowserContext] = []

    def make(locale: str = "en", viewport: tuple[int, int] = (1280, 800)) -> Page:
        width, height = viewport
        context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.console_errors = collect_console_errors(page)  # type: ignore[attr-defined]
        return page

    yield make
    for context in contexts:
        context.close()
