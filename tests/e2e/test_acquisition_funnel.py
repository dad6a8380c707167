"""The acquisition funnel end to end (issue 31; docs/acquisition.md, "Traffic sources" and
"Conversions") in Chromium against the production build: a visitor comes from network n1's
paid click to the gallery lander, signs up on it, confirms the address, buys credits with the
built-in test provider and withdraws the order; a local postback endpoint hears lead, confirmed,
sale and reversal once each with every macro filled in, and the payment's replayed webhooks
note nothing more. With `signups` = 'with_trafficsource' that visitor may sign up, and one who
came without a source is refused with the translated text.

Headless Chromium's own User-Agent is a crawler's to services/crawlers.py, whose click is never
reported, so the visitor's browser says it is a desktop Chrome. The postbacks are sent by the
server's round every few seconds: the test polls the endpoint, bounded."""

import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import httpx
import pytest
from journeys import (
    PASSWORD,
    TIMEOUT_MS,
    Account,
    accept_entry_warning,
    arrive,
    eventually,
    expect,
    mark_automatic_like_seen,
    member_row,
    open_page,
    past_the_welcome_window,
    photo_file,
    unique_email,
)
from playwright.sync_api import Browser, Page
from purchases import buy, refund_of, refunded, result_phase
from server import SETTINGS_CACHE_SECONDS, Server
from sqlalchemy import Engine
from sqlmodel import Session, select
from test_accounts import (
    CHECK_YOUR_EMAIL,
    fill_account_step,
    link_in,
    upload_photo,
    wait_for_mail,
    walk_remaining_steps,
)

from models.orders import Order
from models.postback import Postback, PostbackStatus
from models.signup import NEEDS_TRAFFIC_SOURCE
from models.site_settings import load_settings, save_setting
from models.traffic import TrafficClick, click_of_member
from services.account_mail import ACTIVATE_PATH, ACTIVATION
from services.payments.provider import WEBHOOK_PATH
from translations.catalog import gettext

LANDER = "/landers/gallery/milf-amsterdam"
TRACKING = {"network": "n1", "ref": "r1", "sub1": "s1", "clickid": "c1"}
MACROS = ("clickid", "sub1", "sub2", "sub3", "ref", "event", "amount", "currency", "tid")
DESKTOP_CHROME = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36"
)
EVENTS = ("lead", "confirmed", "sale", "reversal")
# A round every 5 s (services/postbacks), on a machine the build keeps busy.
POSTBACK_SECONDS = 30.0


@dataclass
class PostbackEndpoint:
    """A network's postback endpoint on 127.0.0.1: answers 200 and keeps each query."""

    url: str
    received: list[dict[str, str]] = field(default_factory=list)

    @property
    def template(self) -> str:
        return self.url + "/postback?" + "&".join(f"{name}={{{name}}}" for name in MACROS)

    def heard(self, event: str) -> list[dict[str, str]]:
        return [query for query in self.received if query["event"] == event]

    def wait_for(self, event: str) -> dict[str, str]:
        return eventually(lambda: self.heard(event), f"the {event} postback", POSTBACK_SECONDS)[0]


@pytest.fixture(scope="module")
def endpoint() -> Iterator[PostbackEndpoint]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            query = dict(parse_qsl(urlsplit(self.path).query, keep_blank_values=True))
            heard.received.append(query)
            self.send_response(200)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    heard = PostbackEndpoint(f"http://127.0.0.1:{server.server_port}")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield heard
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def funnel_settings(site_db: Engine, endpoint: PostbackEndpoint) -> Iterator[float]:
    """n1's postback template and signups only from a partner's link for the module (when they
    were written, by the monotonic clock); the seeded values afterwards, which the servers'
    settings cache takes SETTINGS_CACHE_SECONDS to see."""
    with Session(site_db) as db:
        seeded = load_settings(db)
        save_setting(db, "postback_urls", {"n1": endpoint.template})
        save_setting(db, "signups", "with_trafficsource")
        db.commit()
    yield time.monotonic()
    with Session(site_db) as db:
        save_setting(db, "postback_urls", seeded.postback_urls)
        save_setting(db, "signups", seeded.signups)
        db.commit()
    time.sleep(SETTINGS_CACHE_SECONDS)  # the tests after see the seeded settings


def visitor(browser: Browser, locale: str = "en") -> Page:
    context = browser.new_context(
        locale=locale, user_agent=DESKTOP_CHROME, viewport={"width": 1280, "height": 800}
    )
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


def click_of(engine: Engine, member_id: int) -> TrafficClick:
    with Session(engine) as db:
        click = click_of_member(db, member_id)
    assert click is not None, "the paid click was not kept with the account"
    return click


def postbacks_of(engine: Engine, click: TrafficClick) -> list[Postback]:
    with Session(engine) as db:
        query = select(Postback).where(Postback.click_id == click.id).order_by(Postback.id)
        return list(db.exec(query))


def replay_webhook(site: Server, order: Order) -> None:
    """The provider's webhook for the order's payment once more, as a provider retries it."""
    answer = httpx.post(site.url + WEBHOOK_PATH, data={"id": order.provider_payment_id})
    assert answer.status_code == 200


def expect_macros(heard: dict[str, str], event: str, amount: str = "", currency: str = "") -> None:
    """Every macro filled in with the click's values and the event's own."""
    assert re.fullmatch(r"[0-9a-f]{16}", heard["tid"]), heard
    assert {name: value for name, value in heard.items() if name != "tid"} == {
        "clickid": "c1",
        "sub1": "s1",
        "sub2": "",
        "sub3": "",
        "ref": "r1",
        "event": event,
        "amount": amount,
        "currency": currency,
    }


def start_on_the_lander(page: Page, site: Server, account: Account) -> None:
    """From the paid click to the account (the signup's first step)."""
    open_page(page, site, f"{LANDER}?{urlencode(TRACKING)}")
    accept_entry_warning(page)
    page.get_by_test_id("lander-signup").first.click()
    expect(page.get_by_test_id("signup-modal")).to_be_visible()
    fill_account_step(page, account)
    expect(page.get_by_test_id("signup-photo-upload")).to_be_visible()  # the account exists


def finish_the_signup(page: Page, site: Server, photos: Path) -> None:
    """The signup's other steps, to its end (the site asks for them on every page until then)."""
    upload_photo(page, photo_file(photos))
    walk_remaining_steps(page, "en")
    expect(page.get_by_test_id("signup-modal")).to_contain_text(CHECK_YOUR_EMAIL)
    page.get_by_test_id("signup-finish").click()
    arrive(page, site, "/signup-matches?signup_complete=1")


def test_a_paid_click_reports_each_conversion_once(
    site: Server,
    site_db: Engine,
    browser: Browser,
    endpoint: PostbackEndpoint,
    funnel_settings: float,
    tmp_path: Path,
) -> None:
    page = visitor(browser)
    account = Account(unique_email("funnel"), PASSWORD, "en")
    start_on_the_lander(page, site, account)
    buyer = Account(account.email, PASSWORD, "en", member_row(site_db, account.email).id)
    past_the_welcome_window(site_db, buyer)  # no countdown nor like over the journey
    mark_automatic_like_seen(site_db, buyer.member_id)
    click = click_of(site_db, buyer.member_id)
    assert (click.network, click.ref, click.sub1, click.click_id) == ("n1", "r1", "s1", "c1")
    assert (click.lander, click.niche, click.is_bot) == ("gallery", "milf", False)
    expect_macros(endpoint.wait_for("lead"), "lead")
    finish_the_signup(page, site, tmp_path)

    activation = link_in(site, wait_for_mail(site, account, ACTIVATION), ACTIVATE_PATH)
    page.goto(activation)
    arrive(page, site, "/activate/done")
    expect_macros(endpoint.wait_for("confirmed"), "confirmed")

    order = buy(page, site, site_db, buyer, "p1", "ideal")
    result_phase(page, "completed")
    assert order.amount_cents == order.list_cents  # the bundle's price, no discount
    amount = f"{order.amount_cents // 100}.{order.amount_cents % 100:02d}"
    expect_macros(endpoint.wait_for("sale"), "sale", amount, order.currency)
    replay_webhook(site, order)

    open_page(page, site, "/transactions")
    page.get_by_test_id(f"withdraw-{order.id}").click()
    page.get_by_test_id("withdraw-confirm").click()
    eventually(lambda: refund_of(site_db, order), "the refund")
    refunded(site_db, buyer, order)
    expect_macros(endpoint.wait_for("reversal"), "reversal", amount, order.currency)
    replay_webhook(site, order)

    # The replays committed before they answered: no postback was noted since, none will be.
    rows = postbacks_of(site_db, click)
    assert [row.event for row in rows] == list(EVENTS)
    eventually(
        lambda: all(row.status == PostbackStatus.SENT for row in postbacks_of(site_db, click)),
        "every postback marked sent",
    )
    assert [query["event"] for query in endpoint.received] == list(EVENTS)
    assert [query["tid"] for query in endpoint.received] == [row.tid for row in rows]
    page.context.close()


def test_without_a_source_signing_up_is_refused(
    site: Server, browser: Browser, funnel_settings: float
) -> None:
    time.sleep(max(0.0, funnel_settings + SETTINGS_CACHE_SECONDS - time.monotonic()))
    page = visitor(browser, "de-DE")
    open_page(page, site, LANDER)
    accept_entry_warning(page)
    page.get_by_test_id("lander-signup").first.click()
    modal = page.get_by_test_id("signup-modal")
    expect(modal).to_contain_text(gettext("de", NEEDS_TRAFFIC_SOURCE))
    expect(modal.locator("#field-email")).to_have_count(0)
    page.context.close()
