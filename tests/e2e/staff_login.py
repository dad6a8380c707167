"""A staff member's browser for the console's journeys: a new account made staff by the real
command line (`app.support grant-role`), logged in, and past the second factor (enrolled with
TOTP at /staff/enrol)."""

from journeys import TIMEOUT_MS, create_account, log_in, mark_automatic_like_seen
from playwright.sync_api import Browser, Page
from server import Server
from sqlalchemy import Engine
from test_moderation import enrol, run_support


def staff_page(
    site: Server, site_db: Engine, browser: Browser, role: str, height: int = 800
) -> Page:
    """A page in a context of its own, at /staff as a new member with `role`; the caller
    closes `page.context` when done."""
    account = create_account(site_db, "en")
    mark_automatic_like_seen(site_db, account.member_id)
    run_support(site, "grant-role", account.email, role)
    context = browser.new_context(locale="en", viewport={"width": 1280, "height": height})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    log_in(page, site, account)
    enrol(page, site, account.password)
    return page
