"""Support's tools below the console (actions/support.py, actions/support_reads.py,
models/support_form.py, models/login_history.py), on SQLite and PostgreSQL: finding a member by
each key, the account view, every action with its reason in the audit log (and nothing written
when it is refused), never on one's own account nor, unless an admin, on a staff member's,
credits never below zero and granted within a daily budget, the withdrawal's pro-rata refund,
and the log-in history written at each log-in (the country only behind a trusted proxy) and
forgotten after 12 months."""

from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlmodel import Session, select
from starlette.requests import Request

from actions.account_links import confirm_address
from actions.accounts import confirm_new_email
from actions.browser_session import trade_handoff
from actions.direct_debit import lift_direct_debit_block
from actions.mail import MailOut
from actions.payment_flow import start_checkout, withdraw_by_support
from actions.staff_viewer import StaffViewer
from actions.support import (
    ALREADY_ACTIVE,
    ALREADY_DELETED,
    OVER_BUDGET,
    OWN_ACCOUNT,
    STAFF_ACCOUNT,
    TOO_FEW_CREDITS,
    change_credits,
    change_email,
    end_sessions,
    resend_activation,
    start_deletion,
)
from actions.support_reads import LEDGER_PAGE, find_members, ledger_page, support_account
from actions.viewer import Viewer
from app.http_api import _seen
from models.account_errors import AccountError
from models.audit import AuditEntry
from models.auth_session import AuthSession, start_handoff_session, start_session
from models.credits import CreditEntry, grant_credits, ledger_sum
from models.direct_debit import SddMandate
from models.login_history import LoginEvent, Seen, device_of, purge_login_history
from models.member import Member, MemberStatus, utcnow
from models.orders import Order, OrderRefund
from models.staff import Role, StaffRole
from models.staff_reason import REASON_REQUIRED
from models.support_form import (
    CHOOSE_ORDER,
    CREDITS_RANGE,
    SEARCH_INVALID,
    Search,
    SearchKey,
    SupportAction,
    search_form,
    support_request,
)
from services.config import get_config
from tests.factories import committed, make_member
from tests.payments_fixtures import Shop

pytestmark = pytest.mark.usefixtures("outbox")
REASON = "Asked by phone on 27 November, caller verified by date of birth."
FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
SAFARI_IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)
P1_EUR = 3995  # the p1 bundle in euros, in cents (models/site_settings defaults)


def _staff(db: Session, email: str = "sue@example.com", role: Role = Role.SUPPORT) -> StaffViewer:
    member = make_member(db, email)
    db.add(StaffRole(member_id=member.id, role=role))
    db.commit()
    return StaffViewer(member.id, role, frozenset({role}), "en", "192.0.2.7")


def _audits(db: Session, action: str) -> list[AuditEntry]:
    db.expire_all()
    return list(db.exec(select(AuditEntry).where(AuditEntry.action == action)).all())


def _fresh(db: Session, member: Member) -> Member:
    db.expire_all()
    return db.get(Member, member.id)


def _mail(done) -> object:
    [effect] = [e for e in done.effects if isinstance(e, MailOut)]
    return effect.mail


# ----- the log-in history -----


def test_device_summaries() -> None:
    assert device_of(FIREFOX_LINUX) == "Firefox · Linux"
    assert device_of(SAFARI_IPHONE) == "Safari · iOS"
    assert device_of("curl/8.5.0") == "curl/8.5.0"


def test_each_log_in_notes_its_device_place_and_address(db: Session) -> None:
    member = make_member(db)
    code = committed(db, start_handoff_session, member.id)
    token = trade_handoff(code, None, Seen("198.51.100.4", FIREFOX_LINUX, "de")).value

    session = db.exec(select(AuthSession).where(AuthSession.member_id == member.id)).one()
    assert token and (session.device, session.address, session.place) == (
        "Firefox · Linux",
        "198.51.100.4",
        "DE",
    )
    [event] = db.exec(select(LoginEvent)).all()
    assert (event.member_id, event.device, event.place) == (member.id, "Firefox · Linux", "DE")
    assert trade_handoff(code, None, Seen("198.51.100.4", "", "")).value is None  # used once
    assert len(db.exec(select(LoginEvent)).all()) == 1


@pytest.fixture
def proxy_hops(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    yield monkeypatch
    get_config.cache_clear()


def _login_request() -> Request:
    headers = [(b"user-agent", FIREFOX_LINUX.encode()), (b"cf-ipcountry", b"DE")]
    return Request({"type": "http", "client": ("198.51.100.4", 5000), "headers": headers})


@pytest.mark.parametrize(("hops", "place"), [("", ""), ("0", ""), ("1", "DE")])
def test_the_country_header_counts_only_behind_a_trusted_proxy(
    proxy_hops: pytest.MonkeyPatch, hops: str, place: str
) -> None:
    proxy_hops.setenv("TRUSTED_PROXY_HOPS", hops)
    get_config.cache_clear()
    seen = _seen(_login_request())
    assert (seen.place, seen.device) == (place, "Firefox · Linux")


def test_log_ins_are_forgotten_after_12_months(db: Session) -> None:
    member = make_member(db)
    now = utcnow()
    db.add(LoginEvent(member_id=member.id, at=now - timedelta(days=366)))
    db.add(LoginEvent(member_id=member.id, at=now - timedelta(days=364)))
    db.commit()
    assert committed(db, purge_login_history, now) == 1
    [kept] = db.exec(select(LoginEvent)).all()
    assert kept.at > now - timedelta(days=365)


# ----- the forms -----


def test_the_search_form_bounds_each_key() -> None:
    assert search_form({"key": "order", "query": "a-000123"}) == Search(SearchKey.ORDER, "123")
    assert search_form({"key": "iban", "query": " 4300 "}) == Search(SearchKey.IBAN, "4300")
    assert search_form({"key": "nonsense", "query": "x@y.nl"}).key == SearchKey.EMAIL
    for key, query in (("iban", "430"), ("id", "12a"), ("order", "B-1"), ("email", "")):
        with pytest.raises(AccountError) as refused:
            search_form({"key": key, "query": query})
        assert refused.value.message == SEARCH_INVALID


def test_the_action_form_needs_a_reason_and_bounds_what_it_names() -> None:
    paid = frozenset({7})
    with pytest.raises(AccountError) as refused:
        support_request({"action": "end_sessions", "reason": "  "}, paid)
    assert (refused.value.message, refused.value.field) == (REASON_REQUIRED, "reason")
    with pytest.raises(AccountError) as refused:
        support_request({"action": "withdraw", "reason": REASON, "order": "8"}, paid)
    assert refused.value.message == CHOOSE_ORDER  # not one of this account's paid orders
    for credits in ("0", "10001", "-5", "2.5"):
        with pytest.raises(AccountError) as refused:
            support_request({"action": "grant_credits", "reason": REASON, "credits": credits}, paid)
        assert refused.value.message == CREDITS_RANGE
    with pytest.raises(AccountError):
        support_request({"action": "x" * 5000, "reason": REASON}, paid)
    with pytest.raises(AccountError):
        support_request({"action": "end_sessions", "reason": "x" * 501}, paid)
    request = support_request({"action": "withdraw", "reason": REASON, "order": "7"}, paid)
    assert (request.action, request.order_id) == (SupportAction.WITHDRAW, 7)


# ----- finding a member -----


def _mandate(db: Session, member: Member, iban: str) -> None:
    db.add(
        SddMandate(
            member_id=member.id, tier="p1", payment_country="NL", account_holder="A. Buyer",
            iban=iban, street="Dam", house_number="1", zip="1012 JS", city="Amsterdam",
            country="NL", phone_e164="+31612345678", mandate_text="the mandate",
        )
    )  # fmt: skip
    db.commit()


def _order(db: Session, member: Member, **fields) -> Order:
    order = Order(
        member_id=member.id, tier="p1", credits=100, list_cents=P1_EUR, amount_cents=P1_EUR,
        currency="EUR", country="NL", method="ideal", provider="testpay",
        idempotency_key=f"key-{member.id}-{fields.get('status', 'open')}", **fields,
    )  # fmt: skip
    db.add(order)
    db.commit()
    return order


def test_a_member_is_found_by_each_key(db: Session) -> None:
    anna = make_member(db, "anna.buyer@example.com")
    make_member(db, "annabel@example.com")
    order = _order(db, anna)
    _mandate(db, anna, "NL91ABNA0417164300")

    def ids(key: SearchKey, text: str) -> list[int]:
        return [row["id"] for row in find_members(Search(key, text))]

    assert ids(SearchKey.EMAIL, "anna.b") == [anna.id]
    assert len(ids(SearchKey.EMAIL, "anna")) == 2
    assert ids(SearchKey.EMAIL, "anna%") == []  # taken literally
    assert ids(SearchKey.NAME, "anna.buyer") == [anna.id]
    assert ids(SearchKey.ID, str(anna.id)) == [anna.id]
    assert ids(SearchKey.ORDER, str(order.id)) == [anna.id]
    assert ids(SearchKey.IBAN, "4300") == [anna.id]
    assert ids(SearchKey.IBAN, "4301") == []
    assert ids(SearchKey.ORDER, "999999") == []


def test_the_account_view_masks_mandates_and_shows_the_ledger_with_reasons(db: Session) -> None:
    staff = _staff(db)
    member = make_member(db, "bo@example.com")
    _mandate(db, member, "NL91ABNA0417164300")
    grant_credits(db, member, 10, "signup")
    db.commit()
    change_credits(staff, member.id, 5, REASON)

    account = support_account(member.id)
    assert account.mandates[0]["iban"] == "NL91 **** **** **** 4300"
    assert "0417" not in str(account.mandates)
    assert account.member["credits"] == 15
    page = ledger_page(member.id, 1)
    assert [(r["amount"], r["reason"], r["note"]) for r in page.rows] == [
        (5, "support grant", REASON),
        (10, "signup", ""),
    ]
    assert support_account(10**6) is None


def test_the_ledger_is_paged(db: Session) -> None:
    member = make_member(db)
    for _ in range(LEDGER_PAGE + 1):
        grant_credits(db, member, 1, "signup")
    db.commit()
    first, second = ledger_page(member.id, 1), ledger_page(member.id, 2)
    assert (len(first.rows), first.page, first.has_next) == (20, 1, True)
    assert (len(second.rows), second.page, second.has_next) == (1, 2, False)
    assert ledger_page(member.id, 0).page == 1
    far = ledger_page(member.id, 10**9)  # as the browser may send it: 10,000 lines back at most
    assert (far.page, far.rows, far.has_next) == (10_000 // 20, [], False)


# ----- the actions -----


def test_credits_are_granted_and_taken_back_through_the_ledger(db: Session) -> None:
    staff = _staff(db)
    member = make_member(db)
    assert change_credits(staff, member.id, 30, REASON).value == 30
    assert change_credits(staff, member.id, -12, REASON).value == 18
    member = _fresh(db, member)
    assert member.credits == 18 == ledger_sum(db, member.id)
    entries = db.exec(select(CreditEntry).order_by(CreditEntry.id)).all()
    assert [(e.amount, e.reason) for e in entries] == [
        (30, "support grant"),
        (-12, "support take-back"),
    ]
    [grant] = _audits(db, "support.grant_credits")
    assert (grant.reason, grant.actor_id, grant.target_id) == (REASON, staff.member_id, member.id)
    assert entries[0].reference == f"support:{grant.id}"


def test_taking_back_never_goes_below_zero_and_writes_nothing(db: Session) -> None:
    staff = _staff(db)
    member = make_member(db, credits=0)
    change_credits(staff, member.id, 5, REASON)
    with pytest.raises(AccountError) as refused:
        change_credits(staff, member.id, -6, REASON)
    assert (refused.value.message, refused.value.params) == (TOO_FEW_CREDITS, {"credits": 5})
    assert _fresh(db, member).credits == 5
    assert _audits(db, "support.take_credits") == []
    assert len(db.exec(select(CreditEntry)).all()) == 1


def test_the_grants_of_one_staff_member_stay_within_1000_credits_a_day(db: Session) -> None:
    staff, colleague = _staff(db), _staff(db, "tom@example.com")
    member, other = make_member(db, "bo@example.com"), make_member(db, "cy@example.com")
    db.add(  # a grant of yesterday, past the 24 hours: it no longer counts
        AuditEntry(
            actor_id=staff.member_id, actor_role="support", action="support.grant_credits",
            target_type="member", target_id=other.id, reason=REASON, after={"change": 900},
            created_at=utcnow() - timedelta(hours=25),
        )
    )  # fmt: skip
    db.commit()
    change_credits(staff, member.id, 600, REASON)
    change_credits(staff, member.id, -600, REASON)  # taking back frees nothing
    with pytest.raises(AccountError) as refused:
        change_credits(staff, other.id, 401, REASON)  # to anyone: the budget is the staff's
    assert (refused.value.message, refused.value.field) == (OVER_BUDGET, "credits")
    assert refused.value.params == {"limit": 1000, "left": 400}
    assert change_credits(staff, other.id, 400, REASON).value == 400
    with pytest.raises(AccountError) as refused:
        change_credits(staff, other.id, 1, REASON)
    assert refused.value.params["left"] == 0
    assert len(_audits(db, "support.grant_credits")) == 3  # the refused ones wrote nothing
    assert change_credits(colleague, other.id, 1000, REASON).value == 1400  # a budget each


def test_nobody_acts_on_their_own_account(db: Session) -> None:
    staff = _staff(db, role=Role.ADMIN)
    for action, args in (
        (change_credits, (staff, staff.member_id, 5, REASON)),
        (end_sessions, (staff, staff.member_id, REASON)),
        (start_deletion, (staff, staff.member_id, REASON)),
        (lift_direct_debit_block, (staff, staff.member_id, REASON)),
    ):
        with pytest.raises(AccountError) as refused:
            action(*args)
        assert refused.value.message == OWN_ACCOUNT
    assert _audits(db, "support.grant_credits") == [] and _audits(db, "support.delete") == []
    assert db.get(Member, staff.member_id).status == MemberStatus.ACTIVE


async def test_nobody_withdraws_their_own_order(db: Session) -> None:
    staff = _staff(db)
    order = _order(db, db.get(Member, staff.member_id), status="paid")
    with pytest.raises(AccountError) as refused:
        await withdraw_by_support(staff, order.id, REASON)
    assert refused.value.message == OWN_ACCOUNT
    assert db.exec(select(OrderRefund)).all() == [] and _audits(db, "support.withdraw") == []


def test_only_an_admin_acts_on_a_staff_members_account(db: Session) -> None:
    support, admin = _staff(db), _staff(db, "ada@example.com", Role.ADMIN)
    moderator = _staff(db, "mo@example.com", Role.MODERATOR)
    for target in (moderator.member_id, admin.member_id):
        with pytest.raises(AccountError) as refused:
            change_credits(support, target, 5, REASON)
        assert refused.value.message == STAFF_ACCOUNT
    assert _audits(db, "support.grant_credits") == []
    assert change_credits(admin, moderator.member_id, 5, REASON).value == 5
    assert end_sessions(admin, support.member_id, REASON).value == 0


def test_the_activation_mail_is_sent_again_only_while_unconfirmed(db: Session) -> None:
    staff = _staff(db)
    member = make_member(db, "new@example.com", status=MemberStatus.NOT_CONFIRMED)
    mail = _mail(resend_activation(staff, member.id, REASON))
    assert mail.to == "new@example.com"
    token = mail.text.split("token=")[1].split()[0]
    assert confirm_address(token).value
    with pytest.raises(AccountError) as refused:
        resend_activation(staff, member.id, REASON)
    assert refused.value.message == ALREADY_ACTIVE
    assert len(_audits(db, "support.resend_activation")) == 1


def test_the_address_changes_once_the_member_confirms_it(db: Session) -> None:
    staff = _staff(db)
    member = make_member(db, "old@example.com")
    make_member(db, "taken@example.com")
    done = change_email(staff, member.id, " New@Example.com ", REASON)
    assert done.value == "new@example.com"
    mail = _mail(done)
    assert mail.to == "new@example.com"
    assert _fresh(db, member).email == "old@example.com"  # until the link is followed
    assert confirm_new_email(mail.text.split("token=")[1].split()[0]).value
    assert _fresh(db, member).email == "new@example.com"
    [row] = _audits(db, "support.change_email")
    assert row.before == {} and row.after["email"] == "changed" and row.after["token"] > 0
    assert "example.com" not in str((row.before, row.after, row.reason))  # no address kept
    with pytest.raises(AccountError):
        change_email(staff, member.id, "taken@example.com", REASON)
    assert len(_audits(db, "support.change_email")) == 1


def test_all_sessions_end(db: Session) -> None:
    staff = _staff(db)
    member = make_member(db)
    committed(db, start_session, member.id)
    committed(db, start_session, member.id)
    assert end_sessions(staff, member.id, REASON).value == 2
    assert db.exec(select(AuthSession).where(AuthSession.member_id == member.id)).all() == []
    [row] = _audits(db, "support.end_sessions")
    assert row.after == {"sessions": 2} and row.reason == REASON


def test_the_deletion_is_the_members_own_14_days(db: Session) -> None:
    staff = _staff(db)
    member = make_member(db, "leaving@example.com")
    committed(db, start_session, member.id)
    mail = _mail(start_deletion(staff, member.id, REASON))
    member = _fresh(db, member)
    assert member.status == MemberStatus.DELETED_PENDING and member.deleted_at is not None
    assert mail.to == "leaving@example.com"
    erase_on = (utcnow() + timedelta(days=14)).date().isoformat()
    assert support_account(member.id).member["erase_on"] == erase_on
    assert db.exec(select(AuthSession).where(AuthSession.member_id == member.id)).all() == []
    with pytest.raises(AccountError) as refused:
        start_deletion(staff, member.id, REASON)
    assert refused.value.message == ALREADY_DELETED
    assert len(_audits(db, "support.delete")) == 1


def test_the_direct_debit_block_is_lifted_with_its_reason(db: Session) -> None:
    staff = _staff(db)
    member = make_member(db, sdd_blocked_at=utcnow(), sdd_block_reason="insufficient_funds")
    assert lift_direct_debit_block(staff, member.id, REASON).value is True
    assert _fresh(db, member).sdd_blocked_at is None
    assert lift_direct_debit_block(staff, member.id, REASON).value is False
    [row] = _audits(db, "support.lift_sdd_block")
    assert (row.reason, row.actor_role, row.before["why"]) == (
        REASON,
        "support",
        "insufficient_funds",
    )


async def test_support_withdraws_an_order_pro_rata(db: Session, shop: Shop) -> None:
    staff = _staff(db)
    member = make_member(db, "buyer@example.com", signup_date=utcnow() - timedelta(days=2))
    viewer = Viewer(member.id, member.status, "en", member.paid_user)
    started = await start_checkout(viewer, "p1", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    db.expire_all()
    order = db.get(Order, started.order_id)
    member = db.get(Member, member.id)
    member.credits -= order.credits // 4  # a quarter spent
    db.add_all(
        [member, CreditEntry(member_id=member.id, amount=-(order.credits // 4), reason="text")]
    )
    db.commit()

    assert await withdraw_by_support(staff, order.id, REASON) == ""
    refund = db.exec(select(OrderRefund)).one()
    unused = order.credits - order.credits // 4
    assert refund.amount_cents == P1_EUR * unused // order.credits
    assert refund.requested_by == "support"
    assert _fresh(db, member).credits == 0
    [row] = _audits(db, "support.withdraw")
    assert (row.target_id, row.reason, row.after["cents"]) == (
        order.id,
        REASON,
        refund.amount_cents,
    )
    assert await withdraw_by_support(staff, order.id, REASON) != ""  # one at a time
    assert len(_audits(db, "support.withdraw")) == 1
