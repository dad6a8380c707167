"""Member journeys through the account screens, in Chromium against the production build.

Signing up through activation, logging in and out (and staying logged in across a browser
restart), the session cookie's flags, the log-in lock-out and the password reset, deleting and
reactivating an account, and the log-in gate of a members' page.

Visible texts are looked up in the catalogues, so the Dutch runs prove that the screens and
mails are translated (an untranslated text falls back the same way in the app and here).
Members for the later journeys are written straight into the server's database; the mails the
server sends are read from its outbox (the tests set no SMTP_URL).
"""

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from journeys import (
    PASSWORD,
    TIMEOUT_MS,
    Account,
    arrive,
    eventually,
    expect,
    expect_logged_in,
    expect_logged_out,
    finish_login,
    heading,
    log_in,
    mails_to,
    member_row,
    open_page,
    photo_file,
    submit_login,
    unique_email,
    wait_ready,
)
from playwright.sync_api import Browser, BrowserContext, Page
from server import CHROMIUM, CHROMIUM_ARGS, Server
from sqlalchemy import Engine

from models.login import FREE_ATTEMPTS
from models.signup import ACCOUNT_AWAITS_DELETION
from services.account_mail import (
    ACTIVATE_PATH,
    ACTIVATION,
    PASSWORD_RESET,
    REACTIVATE_PATH,
    REACTIVATION,
    RESET_PATH,
    MailText,
)
from services.mail import links_in
from translations.catalog import gettext
from translations.errors import (
    LOGIN_FAILED,
    PASSWORDS_DIFFER,
    RESET_LINK_INVALID,
    TOO_MANY_LOGIN_ATTEMPTS,
)

NewPage = Callable[..., Page]

LOCALES = ("en", "nl")
NEW_PASSWORD = "Harbour-violet-8314"
SESSION_COOKIE = "auth.session"  # state/session.py, which imports Reflex
DEVICE_COOKIE = "auth.device"  # services/device_cookie.py
PASSWORD_SAVED = "Your new password is saved."
SESSION_LIFETIME_SECONDS = 30 * 24 * 3600
LOCK_MINUTES = 1  # the first lock, right after FREE_ATTEMPTS wrong passwords

# Interface texts (msgids) of screens whose modules import Reflex, so are not imported here.
SIGNUP_FREE = "Sign up free"
SIGNUP_STEPS = (  # the modal's title after each Next (or Not now) from the photo step on
    "Where do you live?",
    "What do you look like?",
    "Tell something about yourself",
    "Never miss a message",
    "Almost done!",
)
ADD_A_PHOTO = "Add a photo"
CHECK_YOUR_EMAIL = "Check your e-mail"
YOUR_MATCHES = "Your matches"
REMINDER = "Confirm your e-mail address: we sent a link to {email}."
RESEND_SENT = "Sent! Check your inbox."
RESEND_STEPS = 4
ACTIVATED = "Your e-mail address is confirmed. Your profile is now visible to other members."
LOG_IN = "Log in"
LOG_IN_TO_CONTINUE = "Log in to continue"
RESET_SENT = (
    "If {email} belongs to an account, we have sent a link to it. "
    "Check your inbox and your spam folder."
)
ACCOUNT_DELETED = "Your account has been deleted"
REACTIVATION_SENT = "Check your inbox: we sent you a link to reactivate your account."
REACTIVATED = "Welcome back! Your account is active again. Log in to continue."

# ----- the server's outbox -----


def mails(site: Server, account: Account, text: MailText) -> list[EmailMessage]:
    """The account's mails of one kind (by their subject in its language), oldest first."""
    subject = gettext(account.locale, text.subject)
    return [
        message
        for message in mails_to(site, account.email)
        if str(message["Subject"]).startswith(subject)
    ]


def wait_for_mail(site: Server, account: Account, text: MailText, count: int = 1) -> EmailMessage:
    """The newest mail of this kind to the account, once it has received `count` of them."""

    def newest() -> EmailMessage | None:
        found = mails(site, account, text)
        return found[-1] if len(found) >= count else None

    return eventually(newest, f"mail {count} of {text.subject!r} to {account.email}")


def link_in(site: Server, message: EmailMessage, path: str) -> str:
    wanted = site.url + path
    link = next((link for link in links_in(message) if link.startswith(wanted)), None)
    assert link, f"no {wanted}… link in {message['Subject']!r}: {links_in(message)}"
    return link


# ----- pages -----


def login_prompt_next(url: str) -> str | None:
    """Where the log-in prompt at `url` continues to (the served path may end in a slash)."""
    parts = urlsplit(url)
    if parts.path.rstrip("/") != "/login":
        return None
    return parse_qs(parts.query).get("next", [""])[0].rstrip("/") or None


def log_out(page: Page, site: Server) -> None:
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("logout").click()
    arrive(page, site, "/")
    expect_logged_out(page)


def session_cookie(context: BrowserContext) -> dict | None:
    return next((c for c in context.cookies() if c["name"] == SESSION_COOKIE), None)


def page_with_session(new_page: NewPage, site: Server, locale: str, token: str) -> Page:
    """A fresh browser that was handed the session cookie value `token`, on /members."""
    page = new_page(locale=locale)
    page.context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": site.url}])
    open_page(page, site, "/members")
    return page


@contextmanager
def chromium_with_profile(browser: Browser, profile: Path, locale: str) -> Iterator[Page]:
    """Chromium keeping its profile (cookies included) in `profile`, closed on exit."""
    context = browser.browser_type.launch_persistent_context(
        profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, locale=locale
    )
    try:
        context.set_default_timeout(TIMEOUT_MS)
        yield context.pages[0] if context.pages else context.new_page()
    finally:
        context.close()


# ----- signing up -----


def fill_account_step(page: Page, account: Account) -> None:
    """Step 0: a woman looking for men, then name, address, password and date of birth."""
    for choice in ("gender-female", "seeking-male"):
        page.get_by_test_id(choice).click()
        expect(page.get_by_test_id(choice)).to_have_attribute("data-selected", "true")
    page.locator("#field-name").fill("Fenna Tester")
    page.locator("#field-email").fill(account.email)
    page.locator("#field-password").fill(account.password)
    page.locator("#field-date_of_birth").fill("1990-05-17")
    page.get_by_test_id("signup-submit").click()


def upload_photo(page: Page, photo: Path) -> None:
    """The photo step: drop a photo in and see its preview, served to its owner."""
    upload = page.get_by_test_id("signup-photo-upload").locator("input[type=file]")
    upload.set_input_files(photo)
    preview = page.get_by_test_id("signup-photo-preview")
    expect(preview).to_be_visible()
    assert preview.evaluate("img => img.decode().then(() => img.naturalWidth)") > 0


def walk_remaining_steps(page: Page, locale: str) -> None:
    """Next through photo, place, looks and about-me; Not now for notifications."""
    modal = page.get_by_test_id("signup-modal")
    *with_next, after_push = SIGNUP_STEPS
    for title in with_next:
        page.get_by_test_id("signup-next").click()
        expect(modal).to_contain_text(gettext(locale, title))
    page.get_by_test_id("signup-skip").click()
    expect(modal).to_contain_text(gettext(locale, after_push))


def resend_activation(page: Page, locale: str) -> None:
    """The reminder's re-send runs through its steps to Sent."""
    reminder = page.get_by_test_id("activation-reminder")
    reminder.get_by_test_id("resend-activation").click()
    done = reminder.get_by_test_id("resend-progress").locator('li[data-state="done"]')
    expect(done).to_have_count(RESEND_STEPS)
    expect(reminder).to_contain_text(gettext(locale, RESEND_SENT))


# ----- the journeys -----


@pytest.mark.parametrize("locale", LOCALES)
def test_signup_through_activation(
    site: Server, new_page: NewPage, tmp_path: Path, locale: str
) -> None:
    account = Account(unique_email("signup"), PASSWORD, locale)
    page = new_page(locale=locale)
    open_page(page, site, "/signup")
    modal = page.get_by_test_id("signup-modal")
    expect(modal).to_contain_text(gettext(locale, SIGNUP_FREE))

    fill_account_step(page, account)
    expect(modal).to_contain_text(gettext(locale, ADD_A_PHOTO))
    eventually(lambda: session_cookie(page.context), "the session cookie after signing up")
    upload_photo(page, photo_file(tmp_path))
    walk_remaining_steps(page, locale)
    expect(modal).to_contain_text(gettext(locale, CHECK_YOUR_EMAIL))
    expect(page.get_by_test_id("signup-check-mail")).to_contain_text(account.email)
    page.get_by_test_id("signup-finish").click()

    arrive(page, site, "/signup-matches?signup_complete=1")  # the best matches come first
    expect(page.get_by_test_id("page-signup-matches")).to_contain_text(
        gettext(locale, YOUR_MATCHES)
    )
    page.get_by_test_id("signup-matches-all").click()
    arrive(page, site, "/members?signup_complete=1")
    reminder = page.get_by_test_id("activation-reminder")
    expect(reminder).to_contain_text(gettext(locale, REMINDER, email=account.email))
    wait_for_mail(site, account, ACTIVATION)
    resend_activation(page, locale)
    newest = wait_for_mail(site, account, ACTIVATION, count=2)

    page.goto(link_in(site, newest, ACTIVATE_PATH))
    arrive(page, site, "/activate/done")
    expect(page.get_by_test_id("activation-done")).to_have_text(gettext(locale, ACTIVATED))
    expect(reminder).to_have_count(0)
    expect_logged_in(page)
    expect(page.locator("html")).to_have_attribute("lang", locale)


@pytest.mark.parametrize("locale", LOCALES)
def test_login_survives_browser_restart_and_logout_ends_the_session(
    site: Server,
    browser: Browser,
    new_page: NewPage,
    new_member: Callable[[str], Account],
    tmp_path: Path,
    locale: str,
) -> None:
    account = new_member(locale)
    profile = tmp_path / "chromium-profile"
    with chromium_with_profile(browser, profile, locale) as page:
        open_page(page, site, "/login")
        expect(heading(page)).to_have_text(gettext(locale, LOG_IN))
        finish_login(page, site, account)

    with chromium_with_profile(browser, profile, locale) as page:
        open_page(page, site, "/members")
        expect_logged_in(page)
        cookie = session_cookie(page.context)
        assert cookie is not None
        expect_logged_in(page_with_session(new_page, site, locale, cookie["value"]))

        log_out(page, site)
        assert session_cookie(page.context) is None

    expect_logged_out(page_with_session(new_page, site, locale, cookie["value"]))


def test_session_cookie_is_out_of_reach_of_scripts(
    site: Server, new_page: NewPage, new_member: Callable[[str], Account]
) -> None:
    page = new_page(locale="en")
    log_in(page, site, new_member("en"))

    assert SESSION_COOKIE not in page.evaluate("document.cookie")
    cookie = session_cookie(page.context)
    assert cookie is not None
    assert cookie["httpOnly"] is True
    assert cookie["sameSite"] == "Lax"
    assert cookie["path"] == "/"
    lifetime = cookie["expires"] - time.time()
    assert SESSION_LIFETIME_SECONDS - 3600 < lifetime <= SESSION_LIFETIME_SECONDS + 60


def wait_for_failed_logins(engine: Engine, email: str, count: int) -> None:
    eventually(
        lambda: member_row(engine, email).failed_logins >= count,
        f"{count} failed log-ins of {email} in the database",
    )


def test_wrong_passwords_lock_the_account_and_a_password_reset_opens_it(
    site: Server, new_page: NewPage, new_member: Callable[[str], Account], site_db: Engine
) -> None:
    locale = "nl"
    account = new_member(locale)
    locked = gettext(locale, TOO_MANY_LOGIN_ATTEMPTS, minutes=LOCK_MINUTES)
    page = new_page(locale=locale)
    open_page(page, site, "/login")
    for attempt in range(1, FREE_ATTEMPTS + 1):
        submit_login(page, account.email, f"Wrong-password-{attempt}")
        wait_for_failed_logins(site_db, account.email, attempt)
        if attempt == 1:
            expect(page.get_by_test_id("form-error")).to_have_text(gettext(locale, LOGIN_FAILED))
    expect(page.get_by_test_id("form-error")).to_have_text(locked)

    fresh = new_page(locale=locale)  # a new tab: no error left on screen from before
    open_page(fresh, site, "/login")
    submit_login(fresh, account.email, account.password)
    expect(fresh.get_by_test_id("form-error")).to_have_text(locked)
    expect_logged_out(fresh)

    open_page(page, site, "/reset-password")
    page.locator("#field-email").fill(account.email)
    page.get_by_test_id("reset-submit").click()
    sent = gettext(locale, RESET_SENT, email=account.email)
    expect(page.get_by_test_id("reset-sent")).to_have_text(sent)
    reset_link = link_in(site, wait_for_mail(site, account, PASSWORD_RESET), RESET_PATH)

    page.goto(reset_link)
    wait_ready(page, "/reset-password/do")
    page.locator("#field-password").fill(NEW_PASSWORD)
    page.locator("#field-repeat").fill(NEW_PASSWORD + "!")
    page.get_by_test_id("reset-do-submit").click()
    expect(page.get_by_test_id("error-repeat")).to_have_text(gettext(locale, PASSWORDS_DIFFER))
    page.locator("#field-repeat").fill(NEW_PASSWORD)
    page.get_by_test_id("reset-do-submit").click()
    arrive(page, site, "/members")
    expect_logged_in(page)

    page.goto(reset_link)
    wait_ready(page, "/reset-password/do")
    expect(page.get_by_test_id("reset-link-invalid")).to_have_text(
        gettext(locale, RESET_LINK_INVALID)
    )
    log_out(page, site)
    log_in(page, site, replace(account, password=NEW_PASSWORD))


def device_cookie(context: BrowserContext) -> str | None:
    return next((c["value"] for c in context.cookies() if c["name"] == DEVICE_COOKIE), None)


def test_a_password_change_in_settings_renews_the_device_cookie(
    site: Server, new_page: NewPage, new_member: Callable[[str], Account]
) -> None:
    """The new password voids the cookie that lets this browser past a lock of its address:
    the settings page gets it a fresh one at once, and the member stays logged in."""
    account = new_member("en")
    page = new_page(locale="en")
    log_in(page, site, account)
    before = eventually(lambda: device_cookie(page.context), "the log-in's device cookie")
    open_page(page, site, "/settings?tab=account")
    page.locator("#field-current_password").fill(account.password)
    page.locator("#field-new_password").fill(NEW_PASSWORD)
    page.locator("#field-repeat").fill(NEW_PASSWORD)
    page.get_by_test_id("save-password").click()
    expect(page.get_by_text(PASSWORD_SAVED)).to_be_visible()
    eventually(lambda: device_cookie(page.context) not in (None, before), "a fresh device cookie")
    open_page(page, site, "/members")
    expect_logged_in(page)


def test_deleted_account_is_reactivated_from_the_mail(
    site: Server, new_page: NewPage, new_member: Callable[[str], Account]
) -> None:
    locale = "en"
    account = new_member(locale)
    page = new_page(locale=locale)
    log_in(page, site, account)

    open_page(page, site, "/settings?tab=account")
    for step in ("delete-start", "reason-taking_break", "delete-next", "claim-discount"):
        page.get_by_test_id(step).click()
    expect(page.get_by_test_id("discount-code")).to_contain_text("STAY50-")
    code_text = page.get_by_test_id("discount-code").inner_text()
    open_page(page, site, "/settings?tab=account")  # the discount is offered once for good
    for step in ("delete-start", "reason-taking_break", "delete-next"):
        page.get_by_test_id(step).click()
    expect(page.get_by_test_id("discount-code")).to_have_text(code_text)  # still usable: shown
    expect(page.get_by_test_id("claim-discount")).to_have_count(0)
    page.get_by_test_id("delete-continue").click()
    page.locator("#field-password").fill(account.password)
    page.get_by_test_id("delete-confirm").click()
    arrive(page, site, "/account-deleted")
    expect(heading(page)).to_have_text(gettext(locale, ACCOUNT_DELETED))
    expect_logged_out(page)
    assert session_cookie(page.context) is None
    first_link = link_in(site, wait_for_mail(site, account, REACTIVATION), REACTIVATE_PATH)

    open_page(page, site, "/login")
    submit_login(page, account.email, account.password)
    offer = page.get_by_test_id("reactivation-offer")
    expect(offer).to_contain_text(gettext(locale, ACCOUNT_AWAITS_DELETION))
    page.get_by_test_id("send-reactivation").click()
    expect(offer).to_contain_text(gettext(locale, REACTIVATION_SENT))
    newest = wait_for_mail(site, account, REACTIVATION, count=2)

    page.goto(link_in(site, newest, REACTIVATE_PATH))
    arrive(page, site, "/login?reactivated=1")  # mailed links confirm; they never log in
    expect(page.get_by_text(gettext(locale, REACTIVATED))).to_be_visible()
    assert session_cookie(page.context) is None
    finish_login(page, site, account)
    page.goto(first_link)  # the newer mail's link replaced it
    arrive(page, site, "/activate/error?reactivate=1")
    expect(page.get_by_test_id("activation-error")).to_be_visible()


@pytest.mark.parametrize("locale", LOCALES)
def test_members_page_asks_a_visitor_to_log_in_first(
    site: Server, new_page: NewPage, new_member: Callable[[str], Account], locale: str
) -> None:
    account = new_member(locale)
    page = new_page(locale=locale)
    page.goto(site.url + "/likes")
    page.wait_for_url(lambda url: login_prompt_next(url) == "/likes")
    wait_ready(page, "/login")
    assert "next=%2Flikes" in page.url
    expect(heading(page)).to_have_text(gettext(locale, LOG_IN_TO_CONTINUE))

    finish_login(page, site, account, landing="/likes")
