"""Conversions reported to the traffic networks (issue 31): the templates' rules and the
address each resolves to (URL-encoded, only the known placeholders); a postback noted once per
click and event, by the actions that convert (signup's click, the confirmed address, the first
paid order, its chargeback, replayed webhooks included), never without a click, for a bot or
without a template, and a failure in noting it never failing the signup or the payment; and
the sender: sent on a 2xx, tried again after 1 and 5 minutes on a 500, failed after the sixth
attempt, no redirect to another host followed, a send cut off at its deadline, an answer
recorded only while the claim holds, and two workers never sending the same postback
(PostgreSQL)."""

import asyncio
import logging
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from sqlmodel import Session, select

from actions import conversions
from actions.account_links import confirm_address
from actions.conversions import note_conversion
from actions.payments import apply_payment
from actions.signup import Arrival, sign_up
from actions.site_settings_admin import change_setting
from actions.staff_viewer import StaffViewer
from models.activation import issue_activation
from models.member import Member, utcnow
from models.orders import Order
from models.postback import ConversionEvent, Postback, PostbackStatus
from models.setting_catalogue import EDITABLE
from models.setting_fields import SettingRefused
from models.setting_postbacks import (
    HTTPS_ONLY,
    TEMPLATE_MAX,
    URL_MAX,
    USES_MAX,
    VALUE_MAX,
    allowed_address,
    resolve,
    runs_locally,
    template_problem,
)
from models.signup import SignupForm
from models.site_settings import SiteSettings, load_settings, save_setting
from models.staff import Role
from models.traffic import TrafficClick
from services import postbacks
from services.config import get_config
from services.database import transaction
from services.payments.types import Money, PaymentStatus, ProviderPayment
from services.site_settings import forget_cached_settings
from tests.concurrency import at_once, postgres_only
from tests.factories import PASSWORD, make_member

TEMPLATE = (
    "https://n1.example.com/pb?cid={clickid}&s1={sub1}&s2={sub2}&s3={sub3}&ref={ref}"
    "&e={event}&a={amount}&c={currency}&t={tid}"
)
NOW = utcnow()


@pytest.fixture(autouse=True)
def _no_settings_of_another_test():
    forget_cached_settings()


def parse(form: dict) -> dict[str, str]:
    return EDITABLE["postback_urls"].kind.parse(form, SiteSettings())


@pytest.mark.parametrize(
    "template", [TEMPLATE, "https://n1.example.com:8443/{tid}", "https://n1.example.com./"]
)
def test_https_templates_with_known_placeholders_are_taken(template):
    assert template_problem(template, local=False) is None
    assert template_problem(template, local=True) is None


LOCAL = [
    "http://127.0.0.1:8080/pb?c={clickid}",
    "http://localhost/pb?c={clickid}",
    "https://localhost./pb",
    "http://[::1]:8080/pb",
]


@pytest.mark.parametrize("template", LOCAL)
def test_this_machine_only_on_a_development_or_test_site(template):
    assert template_problem(template, local=True) is None
    assert template_problem(template, local=False) is not None


@pytest.mark.parametrize(
    "template",
    [
        "https://203.0.113.9/pb",
        "https://[2001:db8::1]/pb",
        "https://3405803785/pb",  # 203.0.113.9 as one number
        "https://0xcb.113.9/pb",
        "https://10.1/pb",
        "https://printer.localhost/pb",
        "http://192.168.1.1/pb",
        "https://127.0.0.2/pb",
        "ftp://localhost/pb",
    ],
)
def test_ip_addresses_are_refused_everywhere(template):
    assert not allowed_address(template, local=True)
    assert not allowed_address(template, local=False)


def test_the_site_runs_locally_only_on_this_machine():
    assert runs_locally("http://localhost:3000") and runs_locally("http://[::1]:3000")
    assert not runs_locally("https://amorly.example")


@pytest.mark.parametrize(
    "template",
    [
        "http://n1.example.com/pb?c={clickid}",  # http to another machine
        "ftp://n1.example.com/{clickid}",
        "https://n1.example.com/pb?c={click}",  # an unknown placeholder
        "https://n1.example.com/pb?c={clickid",  # a brace left open
        "https://n1.example.com/pb?c={{clickid}}",
        "https://{sub1}.example.com/pb",  # a placeholder choosing the host
        "https://user@n1.example.com/pb",
        "https://n1.example.com/pb?c= {clickid}",
        "https://n1.example.com/pb\n",
        "https://n1.example.com:x/pb",
        "https:///pb",
        "https://n1.example.com/" + "a" * 1000,
        "https://n1.example.com/" + "{tid}" * 13,
        "",
    ],
)
def test_other_templates_are_refused(template):
    assert template_problem(template, local=True) is not None


def test_each_value_is_cut_to_its_bound_between_two_characters():
    cut = resolve("https://x.io/?a={sub1}&b={ref}", {"sub1": "é" * 200, "ref": "a" * 400})
    assert cut == "https://x.io/?a=" + "%C3%A9" * 50 + "&b=" + "a" * VALUE_MAX
    odd = resolve("{sub1}", {"sub1": "ab" + "😀" * 100})  # 12 characters each
    assert odd == "ab" + "%F0%9F%98%80" * 24


def test_the_longest_resolved_address_fits_the_column(db):
    assert URL_MAX == TEMPLATE_MAX + USES_MAX * VALUE_MAX
    assert Postback.__table__.c.url.type.length >= URL_MAX
    head = "https://n1.example.com/?"
    longest = head + "x" * (TEMPLATE_MAX - len(head) - USES_MAX * 6) + "{sub1}" * USES_MAX
    assert template_problem(longest, local=False) is None
    _templates(db, {"n1": longest})
    member = make_member(db)
    _click(db, member, sub1="😀" * 100)
    assert _note(member.id, ConversionEvent.LEAD)
    (row,) = _postbacks(db)
    assert len(row.url) == URL_MAX - USES_MAX * len("{sub1}")  # each value cut to VALUE_MAX


def test_the_editor_keeps_named_rows_and_refuses_broken_ones():
    form = {"network.0": "n1", "url.0": TEMPLATE, "network.2": "n-2", "url.2": "https://x.io/"}
    assert parse(form) == {"n1": TEMPLATE, "n-2": "https://x.io/"}
    assert parse({}) == {}
    for broken, name in (
        ({"network.0": "n1"}, "url.0"),
        ({"url.0": TEMPLATE}, "network.0"),
        ({"network.0": "n 1", "url.0": TEMPLATE}, "network.0"),
        ({**form, "network.1": "n1", "url.1": TEMPLATE}, "network.1"),
        ({"network.0": "n1", "url.0": "http://n1.example.com/"}, "url.0"),
        ({"network.0": "n1", "url.0": "https://n1.example.com/{x}"}, "url.0"),
    ):
        with pytest.raises(SettingRefused) as error:
            parse(broken)
        assert error.value.field == name
    # At most 50 networks: rows past the fiftieth are never read.
    many = {f"network.{i}": f"n{i}" for i in range(60)} | {
        f"url.{i}": "https://x.io/" for i in range(60)
    }
    assert len(parse(many)) == 50


def _save_local_template(db: Session, public_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUBLIC_URL", public_url)
    get_config.cache_clear()
    admin = make_member(db, "ada@example.com")
    staff = StaffViewer(admin.id, Role.ADMIN, frozenset({Role.ADMIN}), "en", "192.0.2.1")
    form = {"network.0": "n1", "url.0": "http://127.0.0.1:8080/pb?c={clickid}"}
    try:
        change_setting(staff, "postback_urls", form, "Test endpoint", "{}")
    finally:
        get_config.cache_clear()  # PUBLIC_URL comes back when the test ends


def test_the_console_takes_a_local_address_on_a_local_site(db, monkeypatch):
    _save_local_template(db, "http://localhost:3000", monkeypatch)
    db.expire_all()
    assert load_settings(db).postback_urls == {"n1": "http://127.0.0.1:8080/pb?c={clickid}"}


def test_the_console_refuses_a_local_address_on_a_public_site(db, monkeypatch):
    with pytest.raises(SettingRefused) as error:
        _save_local_template(db, "https://amorly.example", monkeypatch)
    assert (error.value.field, error.value.message) == ("url.0", HTTPS_ONLY)


def test_the_editor_shows_each_network_and_three_empty_rows():
    groups = EDITABLE["postback_urls"].kind.groups({"n1": TEMPLATE}, SiteSettings())
    assert [[i.value for i in g.inputs] for g in groups] == [["n1", TEMPLATE], *[["", ""]] * 3]


def _templates(db: Session, templates: dict[str, str]) -> None:
    save_setting(db, "postback_urls", templates)
    db.commit()
    forget_cached_settings()


def _click(db: Session, member: Member | None, network: str = "n1", **fields) -> TrafficClick:
    values = {"ref": "r 1", "sub1": "a&b", "sub2": "é/?", "sub3": "", "click_id": "c=1"}
    click = TrafficClick(
        network=network, member_id=member.id if member else None, **(values | fields)
    )
    db.add(click)
    db.commit()
    return click


def _note(member_id: int, event: ConversionEvent, *args) -> bool:
    with transaction() as db:
        return note_conversion(db, member_id, event, *args)


def _postbacks(db: Session) -> list[Postback]:
    db.expire_all()
    return list(db.exec(select(Postback).order_by(Postback.id)))


def test_a_conversion_is_noted_once_per_click_and_event_with_its_values_encoded(db):
    _templates(db, {"n1": TEMPLATE})
    member = make_member(db)
    _click(db, member)
    assert _note(member.id, ConversionEvent.SALE, 1995, "EUR")
    assert not _note(member.id, ConversionEvent.SALE, 1995, "EUR")
    assert _note(member.id, ConversionEvent.LEAD)
    sale, lead = _postbacks(db)
    assert (sale.event, sale.status, sale.attempts, sale.network) == ("sale", "pending", 0, "n1")
    query = parse_qs(urlsplit(sale.url).query, keep_blank_values=True)
    assert query == {
        "cid": ["c=1"], "s1": ["a&b"], "s2": ["é/?"], "s3": [""], "ref": ["r 1"],
        "e": ["sale"], "a": ["19.95"], "c": ["EUR"], "t": [sale.tid],
    }  # fmt: skip
    assert "cid=c%3D1&s1=a%26b&s2=%C3%A9%2F%3F&s3=&ref=r%201&e=sale" in sale.url
    assert lead.tid != sale.tid and "&a=&c=&" in lead.url


def test_nothing_is_noted_without_a_click_a_template_or_for_a_bot(db):
    _templates(db, {"n1": TEMPLATE})
    nobody, other_network, bot = (make_member(db, f"{n}@example.com") for n in "abc")
    _click(db, other_network, network="n2")
    _click(db, bot, is_bot=True)
    _click(db, None)  # a click that never signed up
    for member in (nobody, other_network, bot):
        assert not _note(member.id, ConversionEvent.LEAD)
    assert _postbacks(db) == []


def _sign_up_after(click: TrafficClick) -> int:
    form = SignupForm(
        email="anna@example.com", name="Sunny Anna", password=PASSWORD,
        date_of_birth="1990-05-17", gender="female", seeking="male",
    )  # fmt: skip
    arrival = Arrival(locale="nl", country="NL", click_id=click.id, to_member_id=None)
    return sign_up(form, arrival).value.member_id


def test_signing_up_after_a_click_is_a_lead(db, outbox):
    _templates(db, {"n1": TEMPLATE})
    click = _click(db, None)
    member_id = _sign_up_after(click)
    (lead,) = _postbacks(db)
    assert (lead.event, lead.click_id) == ("lead", click.id) and "e=lead" in lead.url
    assert db.get(TrafficClick, click.id).member_id == member_id


def test_confirming_the_address_notes_it_once(db):
    _templates(db, {"n1": TEMPLATE})
    member = make_member(db, status="not_confirmed")
    _click(db, member)
    token = issue_activation(db, member)
    db.commit()
    assert confirm_address(token).value and confirm_address(token).value
    assert [p.event for p in _postbacks(db)] == ["confirmed"]


def _order(db: Session, member: Member, number: int) -> Order:
    order = Order(
        member_id=member.id, tier="p0", credits=100, list_cents=1995, amount_cents=1995,
        currency="EUR", country="NL", method="ideal", provider="testpay",
        provider_payment_id=f"tr_{number}", status="open",
    )  # fmt: skip
    db.add(order)
    db.commit()
    return order


def _payment(number: int, status: PaymentStatus, charged_back: int = 0) -> ProviderPayment:
    back = Money(charged_back, "EUR") if charged_back else None
    return ProviderPayment(
        f"tr_{number}", status, Money(1995, "EUR"), "ideal", None, amount_charged_back=back
    )


def test_the_first_paid_order_is_a_sale_and_its_chargeback_a_reversal_once_each(db, outbox):
    _templates(db, {"n1": TEMPLATE})
    member = make_member(db)
    _click(db, member)
    first, second = _order(db, member, 1), _order(db, member, 2)
    for _replay in range(2):
        apply_payment(_payment(1, PaymentStatus.PAID))
    apply_payment(_payment(2, PaymentStatus.PAID))  # not the first: no sale
    apply_payment(_payment(2, PaymentStatus.PAID, charged_back=1995))  # not the sale
    assert [(p.event, p.amount_cents, p.currency) for p in _postbacks(db)] == [
        ("sale", 1995, "EUR")
    ]
    for _replay in range(2):
        apply_payment(_payment(1, PaymentStatus.PAID, charged_back=1995))
    assert [p.event for p in _postbacks(db)] == ["sale", "reversal"]
    assert "e=reversal&a=19.95&c=EUR" in _postbacks(db)[1].url
    assert {first.id, second.id} == {o.id for o in db.exec(select(Order))}


def test_no_reversal_of_a_sale_the_network_never_heard_of(db, outbox):
    member = make_member(db)
    _click(db, member)
    _order(db, member, 1)
    apply_payment(_payment(1, PaymentStatus.PAID))  # no template yet
    _templates(db, {"n1": TEMPLATE})
    apply_payment(_payment(1, PaymentStatus.PAID, charged_back=1995))
    assert _postbacks(db) == []


def _noting_fails(db: Session, monkeypatch: pytest.MonkeyPatch) -> Postback:
    """From now on every postback noted takes the transaction id of this one, another member's:
    its INSERT fails in the database (the unique tid), aborting the transaction around it."""
    other = _click(db, make_member(db, "other@example.com"))
    taken = Postback(
        click_id=other.id, network="n1", event="lead", tid="f" * 16, url="https://x.io"
    )
    db.add(taken)
    db.commit()
    monkeypatch.setattr(conversions, "secrets", SimpleNamespace(token_hex=lambda _: "f" * 16))
    return taken


def test_a_failure_in_noting_never_fails_the_signup(db, outbox, monkeypatch, caplog):
    _templates(db, {"n1": TEMPLATE})
    taken = _noting_fails(db, monkeypatch)
    click = _click(db, None)
    with caplog.at_level(logging.ERROR, logger=conversions.log.name):
        member_id = _sign_up_after(click)
    db.expire_all()
    assert db.get(Member, member_id) is not None
    assert db.get(TrafficClick, click.id).member_id == member_id
    assert [p.id for p in _postbacks(db)] == [taken.id]
    assert "noting the conversion lead of member" in caplog.text


def test_a_failure_in_noting_never_fails_the_payment(db, outbox, monkeypatch, caplog):
    _templates(db, {"n1": TEMPLATE})
    taken = _noting_fails(db, monkeypatch)
    member = make_member(db)
    _click(db, member)
    order, credits = _order(db, member, 1), member.credits
    with caplog.at_level(logging.ERROR, logger=conversions.log.name):
        apply_payment(_payment(1, PaymentStatus.PAID))
    db.expire_all()
    assert db.get(Order, order.id).status == "paid"
    assert db.get(Member, member.id).credits == credits + order.credits
    assert [p.id for p in _postbacks(db)] == [taken.id]
    assert f"noting the conversion of order {order.id}" in caplog.text


# The sender


def _pending(db: Session, count: int = 1, url: str = "https://n1.example.com/pb") -> list[int]:
    member = make_member(db)
    click = _click(db, member)
    events = list(ConversionEvent)[:count]
    rows = [
        Postback(
            click_id=click.id, network="n1", event=e, tid=f"t{e}", url=url, next_attempt_at=NOW
        )
        for e in events
    ]
    db.add_all(rows)
    db.commit()
    return [row.id for row in rows]


def _answering(*codes: int, seen: list[str] | None = None) -> httpx.MockTransport:
    answers = iter(codes)

    def answer(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(str(request.url))
        return httpx.Response(next(answers), text="ok")

    return httpx.MockTransport(answer)


def _round(at, transport) -> int:
    return asyncio.run(postbacks.send_due_postbacks(at, transport))


def test_a_2xx_answer_marks_it_sent_and_it_is_never_sent_again(db):
    _pending(db)
    seen: list[str] = []
    assert _round(NOW, _answering(204, seen=seen)) == 1
    assert _round(NOW + timedelta(days=1), _answering(200, seen=seen)) == 0
    (row,) = _postbacks(db)
    assert (row.status, row.attempts, row.last_status_code) == ("sent", 1, 204)
    assert row.sent_at is not None and seen == ["https://n1.example.com/pb"]


def test_a_500_is_tried_again_with_backoff_and_fails_after_six_attempts(db):
    _pending(db)
    at = NOW
    waits = []
    for attempt in range(1, 7):
        assert _round(at, _answering(500)) == 0
        (row,) = _postbacks(db)
        assert (row.attempts, row.last_status_code) == (attempt, 500)
        if attempt < 6:
            assert row.status == "pending"
            wait = row.next_attempt_at.replace(tzinfo=at.tzinfo) - at
            waits.append(wait)
            assert _round(at + wait - timedelta(seconds=1), _answering()) == 0  # not yet due
            at += wait
    assert waits == [
        timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=30), timedelta(hours=2),
        timedelta(hours=12),
    ]  # fmt: skip
    assert row.status == PostbackStatus.FAILED
    assert _round(at + timedelta(days=2), _answering()) == 0


def test_no_answer_and_redirects_elsewhere_are_not_success(db):
    _pending(db, 2)

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.host == "n1.example.com" and request.url.path == "/pb":
            return httpx.Response(302, headers={"location": "https://evil.example.net/"})
        raise httpx.ConnectError("refused", request=request)

    assert _round(NOW, httpx.MockTransport(answer)) == 0
    rows = _postbacks(db)
    assert [(r.status, r.last_status_code, r.last_error) for r in rows] == [
        ("pending", 302, "redirect to another host")
    ] * 2


def test_a_redirect_on_the_same_host_is_followed(db):
    _pending(db)
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        if request.url.path == "/pb":
            return httpx.Response(301, headers={"location": "/pb2"})
        return httpx.Response(200)

    assert _round(NOW, httpx.MockTransport(answer)) == 1
    assert seen == ["/pb", "/pb2"]


def test_a_local_endpoint_receives_the_get(db):
    received: list[str] = []

    class Endpoint(BaseHTTPRequestHandler):
        def do_GET(self):
            received.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"OK")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        _pending(db, url=f"http://127.0.0.1:{server.server_port}/pb?c=c%3D1")
        assert _round(NOW, None) == 1
    finally:
        server.shutdown()
    assert received == ["/pb?c=c%3D1"]


def test_two_workers_never_claim_the_same_postback(db, engine):
    postgres_only(engine)
    ids = set(_pending(db, 4))
    claimed = at_once([lambda: postbacks.claim_due(NOW, limit=3)] * 2)
    first, second = ({d.id for d in c} for c in claimed)
    assert not first & second and first | second == ids
    assert all(row.attempts == 1 for row in _postbacks(db))


def test_a_send_is_cut_off_at_its_deadline(db, monkeypatch):
    monkeypatch.setattr(postbacks, "DEADLINE_SECONDS", 0.2)
    _pending(db)

    async def trickling(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(30)  # each read within its timeout, the whole far beyond
        return httpx.Response(200)

    assert _round(NOW, httpx.MockTransport(trickling)) == 0
    (row,) = _postbacks(db)
    assert (row.status, row.last_status_code, row.last_error) == (
        "pending", None, "no answer within 0.2 s"
    )  # fmt: skip


def test_an_answer_is_recorded_only_while_its_claim_holds(db):
    _pending(db)
    (slow,) = postbacks.claim_due(NOW)
    later = NOW + postbacks.LEASE + timedelta(seconds=1)
    (current,) = postbacks.claim_due(later)  # the slow worker's claim ran out
    assert postbacks.record(current, postbacks.Answer(500), later)
    assert not postbacks.record(slow, postbacks.Answer(200), later)
    (row,) = _postbacks(db)
    assert (row.status, row.attempts, row.last_status_code) == ("pending", 2, 500)
    assert row.next_attempt_at.replace(tzinfo=later.tzinfo) == later + postbacks.BACKOFF[1]


def test_an_address_not_allowed_where_the_site_runs_is_never_sent_to(db, monkeypatch):
    _pending(db, url="http://127.0.0.1:9/pb")
    public = SimpleNamespace(public_url="https://amorly.example")
    monkeypatch.setattr(postbacks, "get_config", lambda: public)
    seen: list[str] = []
    assert _round(NOW, _answering(200, seen=seen)) == 0
    (row,) = _postbacks(db)
    assert (row.status, row.last_error, seen) == ("pending", "address not allowed", [])
