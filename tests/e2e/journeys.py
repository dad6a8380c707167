"""Shared steps of the browser journeys: members written into the server's database, pages
that wait until they are ready, logging in, photos, and waiting on the server's writes.

The fixtures here (`site_db`, `new_member`) reach the tests through tests/e2e/conftest.py.
"""

import re
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

import pytest
from PIL import Image
from playwright.sync_api import Expect, Locator, Page
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session, select

from models.db import make_engine
from models.likes import Like
from models.member import Member, Photo, utcnow
from models.profile_steps import add_photo
from services.config import _sqlalchemy_url
from services.mail import outbox_messages
from services.photo_pipeline import store_photo
from services.photo_store_local import LocalFolder
from tests.factories import edit_profile, make_member, password_hash

T = TypeVar("T")

TIMEOUT_MS = 20_000  # as the fixtures' pages; argon2id and the cookie hand-off take a moment
WAIT_SECONDS = 20.0  # for mails and database rows the server writes
PASSWORD = "Lantern-quartz-5527"

expect = Expect()  # the journeys' own expect(), as patient as the pages instead of 5 s
expect.set_options(timeout=TIMEOUT_MS)


@dataclass(frozen=True)
class Account:
    email: str
    password: str
    locale: str
    member_id: int = 0


def unique_email(kind: str) -> str:
    return f"{kind}-{uuid.uuid4().hex[:12]}@example.com"


# ----- the server's database -----


@pytest.fixture(scope="module")
def site_db(site: Server) -> Iterator[Engine]:
    """The server's own database: SQLite in its data dir, or CI's PostgreSQL."""
    assert site.database_url, "the site fixture's server has no database URL"
    engine = make_engine(_sqlalchemy_url(site.database_url))
    yield engine
    engine.dispose()


NewMember = Callable[..., Account]
NewPage = Callable[..., Page]


@pytest.fixture
def new_member(site_db: Engine) -> NewMember:
    """new_member(locale, **profile): an active member with PASSWORD whose account speaks
    locale; `profile` overrides fields of the factory's profile (name, gender, country...)."""

    def make(locale: str = "en", **profile: object) -> Account:
        return create_account(site_db, locale, **profile)

    return make


def create_account(engine: Engine, locale: str = "en", **profile: object) -> Account:
    """An active member as `new_member` makes one, for fixtures of a wider scope."""
    email = unique_email("member")
    with Session(engine, expire_on_commit=False) as db:
        member = make_member(db, email, language=locale, password_hash=password_hash(PASSWORD))
        # a name the profile rules accept (not the address's local part, as the factory's)
        edit_profile(db, member, **{"name": f"Tester {member.id}", **profile})
    return Account(email, PASSWORD, locale, member.id)


def mark_automatic_like_seen(engine: Engine, member_id: int) -> None:
    """Today's automatic like (at most one a day), already seen: no new-like modal of the
    site's own pops up over a journey, and no like but the journey's own is new."""
    with Session(engine) as db:
        demo_id = db.exec(select(Member.id).where(Member.is_demo.is_(True))).first()
        assert demo_id is not None, "the site has no demo members"
        db.add(
            Like(liker_id=demo_id, liked_id=member_id, automatic=True, announced=True, is_new=False)
        )
        db.commit()


@pytest.fixture
def member(new_member: NewMember, site_db: Engine) -> NewMember:
    """member(locale, **profile): a member who logs in for a journey."""

    def make(locale: str, **profile: object) -> Account:
        account = new_member(locale, **profile)
        mark_automatic_like_seen(site_db, account.member_id)
        return account

    return make


def past_the_welcome_window(engine: Engine, account: Account) -> Account:
    """Signed up two days ago: no countdown, no modal over the journey."""
    with Session(engine) as db:
        row = db.get(Member, account.member_id)
        row.signup_date = utcnow() - timedelta(days=2)
        db.add(row)
        db.commit()
    return account


def member_row(engine: Engine, email: str) -> Member:
    with Session(engine, expire_on_commit=False) as db:
        return db.exec(select(Member).where(Member.email == email)).one()


def mails_to(site: Server, email: str) -> list[EmailMessage]:
    """The mails the site has sent to `email` so far, oldest first."""
    assert site.data_dir is not None, "the site fixture's server has no data dir"
    outbox = outbox_messages(site.data_dir / "outbox")
    return [message for message in outbox if str(message["To"]) == email]


def eventually(probe: Callable[[], T], what: str, seconds: float = WAIT_SECONDS) -> T:
    """probe()'s first truthy answer; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while not (answer := probe()):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:.0f} s for {what}")
        time.sleep(0.2)
    return answer


# ----- photos -----


def photo_file(folder: Path, name: str = "me.jpg") -> Path:
    path = folder / name
    Image.linear_gradient("L").resize((400, 400)).convert("RGB").save(path, "JPEG")
    return path


def stored_photo(site: Server, engine: Engine, member_id: int, folder: Path) -> Photo:
    """A photo stored for the member as an upload would be (files, then the row); the
    member's first photo becomes the main photo."""
    assert site.data_dir is not None, "the site fixture's server has no data dir"
    photos = LocalFolder(site.data_dir / "media" / "photos")
    stored = store_photo(photo_file(folder).read_bytes(), photos)
    with Session(engine, expire_on_commit=False) as db:
        photo = add_photo(db, member_id, stored.filename, stored.thumb_filename)
        db.commit()
        return photo


# ----- pages -----


def wait_ready(page: Page, path: str) -> None:
    """Wait until the page at `path` (or `path/`: a link may add the slash) has hydrated and
    resolved its language."""
    markers = ", ".join(
        f'[data-testid="page-ready"][data-path="{variant}"]' for variant in {path, f"{path}/"}
    )
    page.wait_for_selector(markers, state="attached")


def open_page(page: Page, site: Server, target: str) -> None:
    page.goto(site.url + target)
    wait_ready(page, urlsplit(target).path)


def url_of(site: Server, target: str) -> re.Pattern[str]:
    """The address of `target` (path and optional query), with or without a trailing slash."""
    path, _, query = target.partition("?")
    tail = f"\\?{re.escape(query)}" if query else ""
    return re.compile(f"^{re.escape(site.url + path.rstrip('/'))}/?{tail}$")


def arrive(page: Page, site: Server, target: str) -> None:
    """Wait for the browser to reach `target` (path and query) and that page to be ready."""
    page.wait_for_url(url_of(site, target))
    wait_ready(page, urlsplit(target).path)


def heading(page: Page) -> Locator:
    return page.locator("main h1")


def accept_entry_warning(page: Page) -> None:
    """Confirm the adults-only warning where it shows (logged-out visitors from NL, DE...);
    the page must be ready, which it is only once the warning's state has arrived."""
    accept = page.get_by_test_id("entry-warning-accept")
    if accept.is_visible():
        accept.click()
        expect(accept).to_have_count(0)


# ----- logging in -----


def expect_logged_in(page: Page) -> None:
    expect(page.get_by_test_id("account-menu")).to_be_visible()
    expect(page.get_by_test_id("login-button")).to_have_count(0)


def expect_logged_out(page: Page) -> None:
    expect(page.get_by_test_id("login-button")).to_be_visible()
    expect(page.get_by_test_id("account-menu")).to_have_count(0)


def submit_login(page: Page, email: str, password: str) -> None:
    page.locator("#field-email").fill(email)
    page.locator("#field-password").fill(password)
    page.get_by_test_id("login-submit").click()


def finish_login(page: Page, site: Server, account: Account, landing: str = "/members") -> None:
    """Submit the log-in form shown; the hand-off ends with a full page load of `landing`."""
    submit_login(page, account.email, account.password)
    arrive(page, site, landing)
    expect_logged_in(page)


def log_in(page: Page, site: Server, account: Account) -> None:
    open_page(page, site, "/login")
    accept_entry_warning(page)
    finish_login(page, site, account)


def logged_in_page(new_page: NewPage, site: Server, account: Account) -> Page:
    """A fresh browser in the account's language, logged in; it ends on /members."""
    page = new_page(locale=account.locale)
    log_in(page, site, account)
    return page
