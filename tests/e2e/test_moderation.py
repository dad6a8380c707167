"""Moderation journeys (issue 29) in Chromium against the production build.

Two moderators per module, made staff by the real command line and enrolled with TOTP at
/staff/enrol (the secret read from the page, the codes computed with pyotp). Then: a member
reports a message in the chat, the first moderator finds it first in the queue with its
snapshot and bans the writer, whose open tab lands on /pages/ban with the statement within
10 s; the statement mail is in the writer's language; the writer appeals from that page, the
second moderator (never the one who decided) reverses the ban, and the writer logs in again.
A visitor's notice at /complaints gets its receipt and later the decision mail. Under
pre-moderation a new photo stays invisible to others until a moderator approves it.

The member journeys run once in English and once in German, the moderators' pages in English:
the mails and pages must speak the member's language, not the moderator's.
"""

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import quote

import pyotp
import pytest
from journeys import (
    TIMEOUT_MS,
    Account,
    NewMember,
    NewPage,
    accept_entry_warning,
    arrive,
    create_account,
    eventually,
    expect,
    expect_logged_out,
    log_in,
    logged_in_page,
    mails_to,
    mark_automatic_like_seen,
    open_page,
    photo_file,
    unique_email,
)
from playwright.sync_api import Browser, Page
from server import REPO_ROOT, SETTINGS_CACHE_SECONDS, Server
from sqlalchemy import Engine
from sqlmodel import Session, select
from test_chat import bubbles, send, start_chat, with_credits

from models.auth_session import AuthSession
from models.member import Member, MemberStatus, Photo, Profile, utcnow
from models.moderation import Appeal, CaseStatus, Decision, Measure, Report
from models.site_settings import save_setting
from models.statement_labels import MEASURE_LABELS
from services.mail import links_in
from services.notice_receipt_mail import SUBJECT as RECEIPT_SUBJECT
from services.statement_mail import APPEAL_REVERSED, NOTIFIER_DECISION, STATEMENT
from translations.catalog import gettext

BAN_ARRIVES_MS = 10_000  # the issue: an open tab is logged out within 10 s
MEMBER_LOCALES = [("de", "en"), ("en", "de")]  # (A, who reports; B, who is reported)
NOTICE_LOCALES = ["en", "de"]
RUDE = "Why do you never answer me? I keep waiting for you every evening."
FACTS = "Repeated unwanted messages to another member after being ignored."
APPEAL_TEXT = "That member and I know each other; it was a joke between friends."
ANSWER = "We accept your explanation and have lifted the ban."
HARASSMENT_RULE = "5"  # models/conduct_rules.py: "Respect: no harassment, threats or insults"

# Interface texts (msgids) of screens whose modules import Reflex, so are not imported here.
REPORT_FILED = "Thank you. Our moderators will look at it soon."
APPEAL_OPEN = "We have received your complaint and will review it as soon as possible."
APPEAL_REVERSED_NOTE = "Your complaint has been reviewed: the decision has been reversed."
REVERSE = "Reverse the decision"
WAITING_FOR_APPROVAL = "Waiting for approval"


# ----- staff -----


@dataclass(frozen=True)
class Staff:
    account: Account
    page: Page


def run_support(site: Server, *arguments: str) -> str:
    """`python -m app.support ...` against the site's database; its output."""
    assert site.data_dir is not None and site.database_url is not None
    env = {**os.environ, "DATA_DIR": str(site.data_dir), "DATABASE_URL": site.database_url}
    command = [sys.executable, "-m", "app.support", *arguments]
    result = subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, f"{' '.join(arguments)}: {result.stdout}{result.stderr}"
    return result.stdout


def enrol(page: Page, site: Server, password: str) -> None:
    """Set up the authenticator at /staff/enrol: the password again, the key shown as text, a
    code from it, the ten recovery codes shown once, then the console."""
    open_page(page, site, "/staff/enrol")
    page.locator("input[name=password]").fill(password)
    page.get_by_test_id("staff-password-submit").click()
    key = page.get_by_test_id("staff-totp-secret")
    expect(key).to_have_text(re.compile(r"^[A-Z2-7 ]{16,}$"))
    code = pyotp.TOTP(key.inner_text().replace(" ", "")).now()
    page.locator("#field-code").fill(code)
    page.get_by_test_id("staff-code-submit").click()
    expect(page.get_by_test_id("staff-recovery-codes").locator("li")).to_have_count(10)
    page.get_by_test_id("staff-saved").click()
    arrive(page, site, "/staff")


def moderator(site: Server, site_db: Engine, browser: Browser, locale: str = "en") -> Staff:
    """A member made moderator on the command line, logged in and past the second factor."""
    account = create_account(site_db, locale)
    mark_automatic_like_seen(site_db, account.member_id)
    run_support(site, "grant-role", account.email, "moderator")
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    log_in(page, site, account)
    enrol(page, site, account.password)
    return Staff(account, page)


@pytest.fixture(scope="module")
def moderators(site: Server, site_db: Engine, browser: Browser) -> Iterator[tuple[Staff, Staff]]:
    """Two moderators for the module: one decides, the other takes the appeals."""
    staff = (moderator(site, site_db, browser), moderator(site, site_db, browser))
    yield staff
    for member in staff:
        member.page.context.close()


@pytest.fixture(scope="module", autouse=True)
def pre_moderation(site_db: Engine) -> Iterator[float]:
    """Photo pre-moderation from the module's start (when it was written, by the monotonic
    clock): the server's workers keep the settings SETTINGS_CACHE_SECONDS, which the journeys
    before the photo journey outlast. Post-moderation, the seeded setting, afterwards."""
    with Session(site_db) as db:
        save_setting(db, "photo_moderation", "pre")
        db.commit()
    yield time.monotonic()
    with Session(site_db) as db:
        save_setting(db, "photo_moderation", "post")
        db.commit()


# ----- the database -----


def reports_by(engine: Engine, **where: object) -> list[Report]:
    with Session(engine) as db:
        query = select(Report).filter_by(**where).order_by(Report.id)
        return list(db.exec(query))


def decision_of(engine: Engine, report_id: int) -> Decision:
    with Session(engine) as db:
        report = db.get(Report, report_id)
        assert report.status == CaseStatus.DECIDED and report.decision_id is not None
        return db.get(Decision, report.decision_id)


def status_of(engine: Engine, account: Account) -> str:
    with Session(engine) as db:
        return db.get(Member, account.member_id).status


def live_sessions(engine: Engine, account: Account) -> int:
    with Session(engine) as db:
        query = select(AuthSession).where(
            AuthSession.member_id == account.member_id, AuthSession.expires_at > utcnow()
        )
        return len(db.exec(query).all())


def mail_titled(site: Server, email: str, subject: str) -> EmailMessage | None:
    """The mail whose subject starts with `subject` (the site's name follows)."""
    return next((m for m in mails_to(site, email) if str(m["Subject"]).startswith(subject)), None)


def text_of(mail: EmailMessage) -> str:
    return mail.get_body(preferencelist=("plain",)).get_content()


def measure_label(locale: str, measure: Measure) -> str:
    return gettext(locale, MEASURE_LABELS[measure])


# ----- journey 1: a report, a ban, an appeal, the ban reversed -----


def report_message(page: Page, locale: str, text: str) -> None:
    """Report the partner's message `text` in the open chat, as harassment."""
    bubble = bubbles(page).filter(has_text=text)
    bubble.get_by_test_id("report-message").click()
    dialog = page.get_by_test_id("report-dialog")
    dialog.get_by_test_id("category-harassment").click()
    dialog.locator("textarea[name=text]").fill("Messages every evening although I never answer.")
    dialog.get_by_test_id("report-send").click()
    expect(dialog.get_by_test_id("report-outcome")).to_have_text(gettext(locale, REPORT_FILED))


def decide(page: Page, measure: Measure, facts: str, *, rule: str = "", law: str = "") -> None:
    """Fill the report page's decision form: a rule of our terms, or the law broken."""
    form = page.get_by_test_id("decision-form")
    form.locator("#field-measure").select_option(measure.value)
    form.locator("#field-ground_type").select_option("law" if law else "terms")
    if law:
        form.locator("input[name=law]").fill(law)
    else:
        form.locator("#field-rule").select_option(rule)
    form.locator("textarea[name=facts]").fill(facts)
    form.get_by_test_id("decide").click()


@pytest.mark.parametrize(("locale_a", "locale_b"), MEMBER_LOCALES)
def test_a_reported_message_leads_to_a_ban_that_an_appeal_reverses(
    site: Server,
    new_page: NewPage,
    member: NewMember,
    site_db: Engine,
    moderators: tuple[Staff, Staff],
    locale_a: str,
    locale_b: str,
) -> None:
    deciding, reviewing = moderators
    a, b = member(locale_a), with_credits(site_db, member(locale_b), 50)
    page_b = logged_in_page(new_page, site, b)
    start_chat(page_b, site, locale_b, a)
    send(page_b, RUDE)
    expect(bubbles(page_b)).to_have_count(1)

    page_a = logged_in_page(new_page, site, a)
    open_page(page_a, site, f"/members/{b.member_id}/chat")
    report_message(page_a, locale_a, RUDE)
    [report] = reports_by(site_db, reporter_id=a.member_id)
    assert (report.reported_id, report.content_type) == (b.member_id, "message")

    # the moderator finds it first in the queue, with the conversation as it was
    mod = deciding.page
    open_page(mod, site, "/staff/reports")
    first = mod.get_by_test_id("report-queue").locator("tbody tr").first
    expect(first).to_contain_text(report.reference)
    first.get_by_role("link", name=report.reference).click()
    arrive(mod, site, f"/staff/reports/{report.id}")
    expect(mod.get_by_test_id("snapshot").locator('li[data-reported="true"]')).to_contain_text(RUDE)
    decide(mod, Measure.BAN, FACTS, rule=HARASSMENT_RULE)

    # B's open chat is logged out within 10 s and shows B's own statement
    page_b.wait_for_url(re.compile(r"/pages/ban/?\?statement=\w"), timeout=BAN_ARRIVES_MS)
    statement = page_b.get_by_test_id("statement")
    expect(statement.get_by_test_id("statement-measure")).to_have_text(
        measure_label(locale_b, Measure.BAN)
    )
    expect(statement.get_by_test_id("statement-facts")).to_have_text(FACTS)
    expect(statement.get_by_test_id("statement-ground")).to_contain_text(HARASSMENT_RULE)
    expect_logged_out(page_b)
    arrive(mod, site, "/staff/reports")
    decision = decision_of(site_db, report.id)
    assert (decision.measure, decision.decided_by) == (Measure.BAN, deciding.account.member_id)
    assert status_of(site_db, b) == MemberStatus.BANNED
    assert live_sessions(site_db, b) == 0

    # the statement of reasons by mail, in B's language, not the moderator's
    subject = gettext(locale_b, STATEMENT.subject)
    mail = eventually(lambda: mail_titled(site, b.email, subject), "the statement mail to B")
    assert measure_label(locale_b, Measure.BAN) in text_of(mail) and FACTS in text_of(mail)
    assert any("/appeal/" in link for link in links_in(mail))

    # B appeals from the statement page
    page_b.get_by_test_id("appeal-text").fill(APPEAL_TEXT)
    page_b.get_by_test_id("appeal-send").click()
    expect(page_b.get_by_test_id("appeal-status")).to_have_text(gettext(locale_b, APPEAL_OPEN))
    with Session(site_db) as db:
        appeal = db.exec(select(Appeal).where(Appeal.decision_id == decision.id)).one()
    assert (appeal.by_member_id, appeal.text) == (b.member_id, APPEAL_TEXT)

    # the moderator who decided may not judge the appeal; the other one reverses the ban
    open_page(mod, site, f"/staff/appeals/{appeal.id}")
    expect(mod.get_by_test_id("own-decision")).to_be_visible()
    expect(mod.get_by_test_id("appeal-form")).to_have_count(0)
    review = reviewing.page
    open_page(review, site, "/staff/appeals")
    review.get_by_test_id("appeal-queue").locator(f'a[href="/staff/appeals/{appeal.id}"]').click()
    arrive(review, site, f"/staff/appeals/{appeal.id}")
    review.get_by_role("radio", name=REVERSE).click()
    review.locator("textarea[name=answer]").fill(ANSWER)
    review.get_by_test_id("decide-appeal").click()
    arrive(review, site, "/staff/appeals")
    assert status_of(site_db, b) == MemberStatus.ACTIVE
    outcome = gettext(locale_b, APPEAL_REVERSED.subject)
    mail = eventually(lambda: mail_titled(site, b.email, outcome), "the appeal outcome mail")
    assert ANSWER in text_of(mail)

    # B's statement page says so, and B logs in again
    page_b.reload()
    expect(page_b.get_by_test_id("statement-reversed")).to_be_visible()
    expect(page_b.get_by_test_id("appeal-status")).to_have_text(
        gettext(locale_b, APPEAL_REVERSED_NOTE)
    )
    log_in(page_b, site, b)
    assert page_a.console_errors == []


# ----- journey 2: a visitor's notice, its receipt and the decision -----


@pytest.mark.parametrize("locale", NOTICE_LOCALES)
def test_a_visitors_notice_gets_a_receipt_then_the_decision(
    site: Server,
    new_page: NewPage,
    new_member: NewMember,
    site_db: Engine,
    moderators: tuple[Staff, Staff],
    locale: str,
) -> None:
    owner = new_member("en" if locale != "en" else "de", about_me="Call 0900-1234 for photos.")
    profile_path = f"/members/{owner.member_id}"
    page = new_page(locale=locale)
    open_page(page, site, f"/complaints?url={quote(profile_path)}")
    accept_entry_warning(page)
    expect(page.locator("#field-url")).to_have_value(site.url + profile_path)
    email = unique_email("notifier")
    page.get_by_test_id("notice-category").select_option("illegal")
    page.locator("textarea[name=text]").fill("The profile text advertises a paid phone service.")
    page.locator("#field-name").fill("Noa Notifier")
    page.locator("#field-email").fill(email)
    page.get_by_test_id("notice-good-faith").locator("input").check()
    page.get_by_test_id("notice-send").click()
    expect(page.get_by_test_id("notice-sent")).to_be_visible()
    [notice] = reports_by(site_db, notifier_email=email)
    assert (notice.source, notice.reported_id, notice.language) == (
        "notice",
        owner.member_id,
        locale,
    )
    expect(page.get_by_test_id("notice-sent")).to_contain_text(notice.reference)
    receipt = gettext(locale, RECEIPT_SUBJECT, reference=notice.reference)
    eventually(lambda: mail_titled(site, email, receipt), "the notice's receipt")

    mod = moderators[0].page
    open_page(mod, site, f"/staff/reports/{notice.id}")
    decide(mod, Measure.REMOVE_CONTENT, "Advertising for a paid service.", law="§ 16 UWG")
    arrive(mod, site, "/staff/reports")
    decision = decision_of(site_db, notice.id)
    assert (decision.measure, decision.ground_type, decision.source) == (
        Measure.REMOVE_CONTENT,
        "law",
        "notice",
    )
    with Session(site_db) as db:
        assert db.get(Profile, owner.member_id).about_me == ""

    subject = gettext(locale, NOTIFIER_DECISION.subject, reference=notice.reference)
    mail = eventually(lambda: mail_titled(site, email, subject), "the decision mail")
    assert measure_label(locale, Measure.REMOVE_CONTENT) in text_of(mail)
    assert any("/appeal/" in link for link in links_in(mail))
    statement = gettext(owner.locale, STATEMENT.subject)
    eventually(lambda: mail_titled(site, owner.email, statement), "the owner's statement")
    assert page.console_errors == []


# ----- journey 3: pre-moderation -----


def photo_of(engine: Engine, account: Account) -> Photo:
    with Session(engine) as db:
        return db.exec(select(Photo).where(Photo.member_id == account.member_id)).one()


def test_under_pre_moderation_a_new_photo_waits_for_a_moderator(
    site: Server,
    new_page: NewPage,
    member: NewMember,
    site_db: Engine,
    moderators: tuple[Staff, Staff],
    pre_moderation: float,
    tmp_path: Path,
) -> None:
    eventually(
        lambda: time.monotonic() - pre_moderation > SETTINGS_CACHE_SECONDS,
        "the site's cached settings to expire",
        seconds=SETTINGS_CACHE_SECONDS + 1,
    )  # immediate in a module run: the journeys before take longer
    owner, viewer = member("de"), member("en")
    page = logged_in_page(new_page, site, owner)
    open_page(page, site, "/settings?tab=photos")
    upload = page.get_by_test_id("photo-upload").locator("input[type=file]")
    upload.set_input_files(photo_file(tmp_path))
    tile = page.get_by_test_id("photo-tile")
    expect(tile).to_have_attribute("data-status", "pending")
    expect(tile).to_contain_text(gettext("de", WAITING_FOR_APPROVAL))
    photo = photo_of(site_db, owner)
    assert photo.status == "pending"

    others = logged_in_page(new_page, site, viewer)
    open_page(others, site, f"/members/{owner.member_id}")
    gallery = others.get_by_test_id("gallery-main")
    expect(gallery.locator(".gallery-empty")).to_be_visible()
    expect(gallery.locator("img")).to_have_count(0)
    assert others.request.get(f"{site.url}/media/photos/{photo.filename}").status != 200

    mod = moderators[0].page
    open_page(mod, site, "/staff/photos")
    card = mod.get_by_test_id("review-photo").filter(
        has=mod.locator(f'img[src*="{photo.filename}"]')
    )
    card.get_by_test_id("approve").click()
    expect(card).to_have_count(0)
    assert photo_of(site_db, owner).status == "approved"

    open_page(others, site, f"/members/{owner.member_id}")
    expect(gallery.locator("img.gallery-main-image")).to_have_attribute(
        "src", re.compile(re.escape(photo.filename))
    )
    assert others.request.get(f"{site.url}/media/photos/{photo.filename}").status == 200
    assert page.console_errors == [] and others.console_errors == []
