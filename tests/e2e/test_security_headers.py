"""The production build under its security headers: pages load without a Content-Security-Policy
error, another site's page can neither read our API, open our websocket nor log a member out,
and our own Logout still works."""

from urllib.parse import urlsplit

import httpx
import pytest
from journeys import Account, expect, expect_logged_in, log_in, open_page, wait_ready
from playwright.sync_api import Page
from server import Server, free_port

PAGES = ["/", "/login", "/signup", "/pages/about"]
MEMBER_PAGES = ["/members", "/likes", "/chats", "/settings", "/profile"]
OPEN_SOCKET = """url => new Promise(resolve => {
  const socket = new WebSocket(url);
  socket.onopen = () => { socket.close(); resolve("open"); };
  socket.onerror = () => resolve("refused");
})"""


def _foreign_page(page: Page, html: str = "") -> str:
    """Show `html` as a page of another site on our host (another port): the same site for
    the browser, so it sends our cookies along. Returns its origin."""
    origin = f"http://localhost:{free_port()}"
    page.route(f"{origin}/", lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(f"{origin}/")
    return origin


def _socket_url(site: Server) -> str:
    return f"ws://{urlsplit(site.url).netloc}/_event/?EIO=4&transport=websocket"


def _csp_errors(page: Page) -> list[str]:
    return [e for e in page.console_errors if "Content Security Policy" in e]  # type: ignore[attr-defined]


@pytest.mark.any_site
@pytest.mark.parametrize("path", PAGES)
def test_pages_load_under_the_policy(site: Server, new_page, path: str) -> None:
    page = new_page()
    response = page.goto(site.url + path)
    assert response is not None
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
    wait_ready(page, path)
    assert _csp_errors(page) == []


def test_member_pages_load_under_the_policy_and_logout_works(
    site: Server, new_page, member
) -> None:
    account: Account = member("en")
    page = new_page()
    log_in(page, site, account)
    for path in MEMBER_PAGES:
        open_page(page, site, path)
    assert _csp_errors(page) == []
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("logout").click()
    expect(page.get_by_test_id("login-button")).to_be_visible()
    assert [c for c in page.context.cookies() if c["name"] == "auth.session"] == []


def test_another_site_cannot_log_out_read_or_listen(site: Server, new_page, member) -> None:
    page = new_page()
    log_in(page, site, member("en"))
    page.goto(site.url + "/api/logout.php")  # a link on any site is a GET
    open_page(page, site, "/members")
    expect_logged_in(page)

    forged = f'<form method="post" action="{site.url}/api/logout.php"></form>'
    _foreign_page(page, forged + "<script>document.forms[0].submit()</script>")
    page.wait_for_url(f"{site.url}/api/logout.php")
    open_page(page, site, "/members")
    expect_logged_in(page)
    assert page.evaluate(OPEN_SOCKET, _socket_url(site)) == "open"

    origin = _foreign_page(page)
    assert page.evaluate(OPEN_SOCKET, _socket_url(site)) == "refused"
    answer = httpx.get(f"{site.url}/api/chats.php", headers={"origin": origin})
    assert "access-control-allow-origin" not in answer.headers


@pytest.mark.any_site
def test_a_form_sent_before_the_app_runs_keeps_its_fields_out_of_the_address(
    site: Server, new_page
) -> None:
    """The prerendered log-in form shows before the app runs: it posts, its button waits for the
    app, and a post that comes anyway gets the page back (app/early_form_posts.py)."""
    page = new_page()
    page.route("**/assets/**/*.js", lambda route: route.abort())  # the app never runs
    page.goto(f"{site.url}/login")
    submit = page.get_by_test_id("login-submit")
    expect(submit).to_be_disabled()
    expect(page.locator("form", has=submit)).to_have_attribute("method", "post")
    fields = {"email": "ann@example.com", "password": "not-in-the-address"}
    answer = page.request.post(f"{site.url}/login?next=/likes", form=fields, max_redirects=0)
    assert answer.status == 303 and answer.headers["location"] == "/login?next=/likes"
