"""The server-side click (docs/acquisition.md, "Traffic sources"): recorded once per landing
with tracking parameters, flagged when a crawler sent it, bounded per address, named by a signed
cookie nobody can forge, kept with the account and purged after 13 months without one."""

import hashlib
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import update
from sqlmodel import Session, select
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from app import traffic_clicks
from app.traffic_clicks import TrafficClicks, niche_of
from models.deletion import GRACE_PERIOD, erase_expired_accounts
from models.member import Member, MemberStatus, utcnow
from models.routes import ROUTES
from models.site_settings import SiteSettings
from models.traffic import (
    Landing,
    TrafficClick,
    claim_click,
    click_of_member,
    lander_of,
    purge_unclaimed_clicks,
    record_click,
    tracking_from_query,
)
from services.account_purge import purge_expired_accounts
from services.click_cookie import CLICK_COOKIE, address_hash, signed, verified_click
from services.crawlers import is_bot
from state.search import visitor_may_search
from tests.clicks import click_cookie, recorded_click
from tests.factories import committed, make_member, row_count

CHROME = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36"
)
GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
LANDER = "/landers/gallery/milf-amsterdam?network=n1&ref=r1&sub1=s1&clickid=c1"
TRACKING = {"network": "n1", "ref": "r1", "sub1": "s1", "sub2": "", "sub3": "", "click_id": "c1"}
CLICKS_PER_HOUR = 20  # the bound per address asked for (a bot cannot fill the table)


def landing(address: str = "a" * 64, **tracking: str) -> Landing:
    return Landing(
        tracking={**TRACKING, **tracking},
        path="/landers/gallery/milf-amsterdam",
        lander="gallery",
        variant="b",
        niche="milf",
        language="de",
        address_hash=address,
        user_agent=CHROME,
        is_bot=False,
    )


def record(db: Session, at: Landing, known: int | None = None, ago: timedelta = timedelta(0)):
    return committed(db, record_click, at, known, utcnow() - ago)


# --- what a query carries ---------------------------------------------------------------------


def test_the_tracking_of_a_query_is_bounded_and_takes_the_networks_click_id() -> None:
    query = {"network": " n1 ", "ref": "r" * 150, "sub3": "a\x00b", "cid": "c9", "x": "dropped"}
    assert tracking_from_query(query) == {
        "network": "n1", "ref": "r" * 100, "sub1": "", "sub2": "", "sub3": "ab", "click_id": "c9",
    }  # fmt: skip
    assert tracking_from_query({"clickid": "a", "click_id": "b"})["click_id"] == "a"
    assert tracking_from_query({"click_id": "b"})["click_id"] == "b"
    assert not any(tracking_from_query({"lang": "de"}).values())


@pytest.mark.parametrize(
    ("route", "lander"),
    [
        ("landers-gallery", "gallery"),
        ("landers-tinderswipe", "tinderswipe"),
        ("members-id-landing", "member-landing"),
        ("members-id-landing2", "member-landing2"),
        ("members-id-signup", "member-signup"),
        ("index", "index"),
        ("signup", "signup"),
    ],
)
def test_the_lander_is_named_by_its_route(route: str, lander: str) -> None:
    assert lander_of(route) == lander


@pytest.mark.parametrize(
    ("path", "niche"),
    [
        ("/landers/gallery/milf-amsterdam", "milf"),
        ("/landers/video/gay", "gay"),
        ("/landers/video/berlin", "none"),
        ("/landers/video", "none"),
        ("/members/7/landing2/bbw-koeln", "bbw"),
        ("/signup", ""),
    ],
)
def test_the_niche_comes_from_the_slug_prefix(path: str, niche: str) -> None:
    assert niche_of(path) == niche


def test_crawlers_are_flagged_by_the_maintained_list() -> None:
    assert is_bot(GOOGLEBOT) and is_bot("curl/8.5.0") and is_bot("python-requests/2.32")
    assert is_bot("")  # every browser sends one
    assert not is_bot(CHROME)
    assert not is_bot("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15")


# --- recording ----------------------------------------------------------------------------


def test_a_landing_is_recorded_with_its_facts(db: Session) -> None:
    click = db.get(TrafficClick, record(db, landing()))
    assert (click.network, click.ref, click.sub1, click.click_id) == ("n1", "r1", "s1", "c1")
    assert (click.lander, click.niche, click.language) == ("gallery", "milf", "de")
    assert click.user_agent == CHROME and not click.is_bot and click.member_id is None


def test_a_reload_with_the_same_values_reuses_the_click(db: Session) -> None:
    first = record(db, landing())
    assert record(db, landing(), known=first) == first
    assert row_count(db, TrafficClick) == 1
    other = record(db, landing(sub2="new ad"), known=first)
    assert other != first and row_count(db, TrafficClick) == 2
    assert record(db, landing(), known=None) not in (first, other)  # no cookie: a new click


def test_a_click_older_than_its_cookie_is_not_reused(db: Session) -> None:
    old = record(db, landing(), ago=timedelta(days=31))
    assert record(db, landing(), known=old) != old


def test_one_address_records_at_most_the_hourly_bound(db: Session) -> None:
    for _ in range(CLICKS_PER_HOUR):
        assert record(db, landing(sub1="x")) is not None
    assert record(db, landing(sub1="x")) is None
    assert record(db, landing(address="b" * 64)) is not None  # another address
    assert row_count(db, TrafficClick) == CLICKS_PER_HOUR + 1
    hour_later = committed(db, record_click, landing(), None, utcnow() + timedelta(minutes=61))
    assert hour_later is not None


def test_unclaimed_clicks_go_after_13_months_and_claimed_ones_stay(db: Session) -> None:
    member = make_member(db)
    old = recorded_click(db, timedelta(days=400), network="n1")
    young = recorded_click(db, timedelta(days=380), network="n1")
    claimed = recorded_click(db, timedelta(days=400), network="n1")
    claimed.member_id = member.id
    db.add(claimed)
    db.commit()
    assert committed(db, purge_unclaimed_clicks, utcnow()) == 1
    left = {click.id for click in db.exec(select(TrafficClick))}
    assert left == {young.id, claimed.id} and old.id not in left
    assert click_of_member(db, member.id).id == claimed.id
    assert click_of_member(db, member.id + 1) is None


def test_the_hourly_purge_deletes_old_unclaimed_clicks(db: Session, outbox) -> None:
    old = recorded_click(db, timedelta(days=13 * 31), network="n1")
    young = recorded_click(db, timedelta(days=12 * 30), network="n1")
    purge_expired_accounts()
    assert {click.id for click in db.exec(select(TrafficClick))} == {young.id}
    assert old.id != young.id


def test_erasure_keeps_the_tracking_but_not_the_address_or_browser(db: Session) -> None:
    member = make_member(db, status=MemberStatus.DELETED_PENDING)
    member.deleted_at = utcnow() - GRACE_PERIOD - timedelta(minutes=1)
    db.add(member)
    click = db.get(TrafficClick, record(db, landing()))
    click.member_id = member.id
    db.add(click)
    db.commit()
    committed(db, erase_expired_accounts, utcnow())
    db.refresh(click)
    assert (click.network, click.member_id) == ("n1", member.id)
    assert (click.address_hash, click.user_agent) == ("", "")
    assert db.get(Member, member.id).status == MemberStatus.DELETED


# --- the cookie ---------------------------------------------------------------------------


def test_the_cookie_names_the_click_it_was_signed_for() -> None:
    now = utcnow()
    value = signed(41, now)
    assert verified_click(f"{CLICK_COOKIE}={value}", now) == 41
    assert verified_click(f"other=1; {CLICK_COOKIE}={value}; x=y", now) == 41
    assert verified_click(f"{CLICK_COOKIE}={value}", now + timedelta(days=31)) is None


@pytest.mark.parametrize(
    "forge",
    [
        lambda value: "42" + value[2:],  # another click, the same MAC
        lambda value: value[:-1] + ("0" if value[-1] != "0" else "1"),
        lambda value: value.rsplit(".", 1)[0],
        lambda value: value + ".1",
        lambda value: "x" * 200,
        lambda value: "",
    ],
)
def test_a_forged_cookie_names_nothing(forge) -> None:
    now = utcnow()
    assert verified_click(f"{CLICK_COOKIE}={forge(signed(41, now))}", now) is None


# --- the middleware -----------------------------------------------------------------------


@pytest.fixture
def client(engine) -> Iterator[TestClient]:
    page = HTMLResponse("<html><head></head><body>page</body></html>")
    inner = Starlette(routes=[Route("/{path:path}", lambda _request: page)])
    with TestClient(TrafficClicks(inner), headers={"user-agent": CHROME}) as test_client:
        yield test_client


def _cookie_of(answer) -> str | None:
    lines = [v for k, v in answer.headers.multi_items() if k == "set-cookie"]
    return lines[0] if lines else None


def test_a_landing_records_a_click_and_sets_its_cookie(client: TestClient, db: Session) -> None:
    answer = client.get(LANDER, headers={"accept-language": "de-DE,de;q=0.9"})
    assert answer.status_code == 200 and answer.text.endswith("page</body></html>")
    click = db.exec(select(TrafficClick)).one()
    assert (click.network, click.ref, click.sub1, click.click_id) == ("n1", "r1", "s1", "c1")
    assert (click.lander, click.niche, click.language) == ("gallery", "milf", "de")
    assert click.path == "/landers/gallery/milf-amsterdam" and len(click.address_hash) == 64
    cookie = _cookie_of(answer)
    assert cookie.startswith(f"{CLICK_COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert f"Max-Age={30 * 24 * 3600}" in cookie
    value = cookie.split(";")[0].split("=", 1)[1]
    assert verified_click(f"{CLICK_COOKIE}={value}", utcnow()) == click.id


def test_a_reload_records_nothing_new(client: TestClient, db: Session) -> None:
    first = client.get(LANDER)
    value = _cookie_of(first).split(";")[0]
    for _ in range(3):
        again = client.get(LANDER, headers={"cookie": value})
        assert _cookie_of(again) is not None
    assert row_count(db, TrafficClick) == 1
    client.get(LANDER.replace("sub1=s1", "sub1=s2"), headers={"cookie": value})
    assert row_count(db, TrafficClick) == 2


def test_a_forged_cookie_does_not_pass_for_a_click(client: TestClient, db: Session) -> None:
    mine = recorded_click(db, **TRACKING)
    client.get(LANDER, headers={"cookie": click_cookie(mine.id, f"{mine.id}.1.{'0' * 64}")})
    assert row_count(db, TrafficClick) == 2


def test_a_crawlers_click_is_flagged(client: TestClient, db: Session) -> None:
    client.get("/members/3/landing?network=n1", headers={"user-agent": GOOGLEBOT})
    click = db.exec(select(TrafficClick)).one()
    assert click.is_bot and click.lander == "member-landing" and click.niche == ""


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/landers/gallery"),  # no tracking parameters
        ("GET", "/landers/gallery?lang=de&utm_source=x"),
        ("GET", "/likes?network=n1"),  # a page only members open
        ("GET", "/staff?network=n1"),
        ("GET", "/api/photo.php?network=n1"),
        ("GET", "/assets/app.js?network=n1"),
        ("POST", "/landers/gallery?network=n1"),
        ("GET", f"/landers/gallery?network=n1&sub2={'x' * 2100}"),  # no network's link
    ],
)
def test_other_requests_record_nothing(
    client: TestClient, db: Session, method: str, path: str
) -> None:
    answer = client.request(method, path)
    assert _cookie_of(answer) is None
    assert row_count(db, TrafficClick) == 0


def test_every_page_a_visitor_opens_can_record_a_click(client: TestClient, db: Session) -> None:
    """One click, reused on each page the cookie comes back to with the same values."""
    visitable = [r for r in ROUTES if not r.login_required and not r.staff]
    assert len(visitable) > 20
    cookie = ""
    for route in visitable:
        answer = client.get(f"{route.example or route.path}?ref=r1", headers={"cookie": cookie})
        assert _cookie_of(answer) is not None, route.name
        cookie = _cookie_of(answer).split(";")[0]
    assert row_count(db, TrafficClick) == 1


def test_the_address_is_kept_as_a_keyed_hash(client: TestClient, db: Session) -> None:
    client.get(LANDER)
    kept = db.exec(select(TrafficClick)).one().address_hash
    assert len(kept) == 64 and kept == address_hash("testclient")
    assert kept != hashlib.sha256(b"testclient").hexdigest()  # no plain hash to brute-force


def test_a_reload_does_not_make_the_cookie_last_longer(client: TestClient, db: Session) -> None:
    click = recorded_click(db, timedelta(days=29), network="n1", ref="r1", sub1="s1")
    reload = LANDER.removesuffix("&clickid=c1")
    again = client.get(reload, headers={"cookie": click_cookie(click.id)})
    value = f"{CLICK_COOKIE}={_cookie_of(again).split(';')[0].split('=', 1)[1]}"
    assert verified_click(value, utcnow()) == click.id
    assert verified_click(value, utcnow() + timedelta(days=2)) is None  # 30 days after the click


def test_a_failure_recording_the_click_serves_the_page_without_it(
    client: TestClient, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(*_args: object) -> None:
        raise RuntimeError("a bug, not the database")

    monkeypatch.setattr(traffic_clicks, "record_landing", failing)
    answer = client.get(LANDER)
    assert answer.status_code == 200 and answer.text.endswith("page</body></html>")
    assert _cookie_of(answer) is None and row_count(db, TrafficClick) == 0


def test_a_click_is_claimed_once_whatever_the_session_saw(db: Session) -> None:
    first, second = make_member(db), make_member(db, email="second@example.com")
    click = recorded_click(db, network="n1")
    meanwhile = update(TrafficClick).values(member_id=first.id)  # another signup's claim
    db.exec(meanwhile.execution_options(synchronize_session=False))
    assert click.member_id is None  # what this session read before
    assert claim_click(db, click, second.id) == {}
    db.commit()
    db.refresh(click)
    assert click.member_id == first.id


def test_crawlers_unclaimed_clicks_go_after_7_days(db: Session) -> None:
    member = make_member(db)
    clicks = [recorded_click(db, timedelta(days=days), network="n1") for days in (8, 6, 8, 8)]
    clicks[0].is_bot = clicks[1].is_bot = clicks[3].is_bot = True
    clicks[3].member_id = member.id
    db.add_all(clicks)
    db.commit()
    assert committed(db, purge_unclaimed_clicks, utcnow()) == 1
    left = {click.id for click in db.exec(select(TrafficClick))}
    assert left == {clicks[1].id, clicks[2].id, clicks[3].id}


async def test_logged_out_search_by_click_needs_the_click_itself(db: Session) -> None:
    settings = SiteSettings(logged_out_search=False, logged_out_search_trafficsource=True)
    click = recorded_click(db, network="n1")
    assert await visitor_may_search(settings, click_cookie(click.id))
    db.delete(click)
    db.commit()
    assert not await visitor_may_search(settings, click_cookie(click.id))


def test_two_signups_at_once_one_takes_the_click(db: Session, engine) -> None:
    first, second = make_member(db), make_member(db, email="second@example.com")
    click_id = recorded_click(db, network="n1").id
    with Session(engine) as one, Session(engine) as other:
        mine, theirs = one.get(TrafficClick, click_id), other.get(TrafficClick, click_id)
        assert mine.member_id is None and theirs.member_id is None  # both read it free
        assert claim_click(one, mine, first.id)["network"] == "n1"
        one.commit()
        assert claim_click(other, theirs, second.id) == {}
        other.commit()
    db.expire_all()
    assert db.get(TrafficClick, click_id).member_id == first.id
