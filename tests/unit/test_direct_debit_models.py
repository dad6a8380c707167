"""Direct debit models: SMS codes (hashed, 10 minutes, 5 tries, single use, throttled), the
mandate reference, masking, and the limits per IBAN."""

import re
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from models.direct_debit import (
    CODE_TRIES,
    CodeResult,
    MandateStatus,
    SddMandate,
    SmsCode,
    SmsRefusal,
    check_code,
    erase_member_drafts,
    forms_throttled,
    iban_limits,
    lock_code_counts,
    mandate_reference,
    masked_iban,
    masked_phone,
    new_code,
    purge_stale,
)
from models.member import Member, MemberStatus
from models.orders import Order
from models.site_settings import SiteSettings
from tests.factories import make_member
from translations.catalog import gettext
from translations.errors import (
    INVALID_SMS_CODE,
    SDD_IBAN_REFUSED,
    SDD_LIMIT_REACHED,
    SDD_TOO_MANY_FORMS,
    SMS_CODE_EXPIRED,
    SMS_CODE_MISSING,
    SMS_CODE_TOO_MANY_TRIES,
    SMS_DAILY_LIMIT,
    SMS_RESEND_TOO_SOON,
)

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
IBAN = "NL91ABNA0417164300"
GERMAN = "DE89370400440532013000"
PHONE = "+31612345678"
SETTINGS = SiteSettings()


def _mandate(db: Session, member: Member, phone: str = PHONE, iban: str = IBAN) -> SddMandate:
    mandate = SddMandate(
        member_id=member.id,
        tier="p1",
        payment_country="NL",
        account_holder="Jan de Vries",
        iban=iban,
        street="Keizersgracht",
        house_number="12",
        zip="1015 CJ",
        city="Amsterdam",
        country="NL",
        phone_e164=phone,
        mandate_text="the mandate as shown",
    )
    db.add(mandate)
    db.flush()
    mandate.reference = mandate_reference(mandate.id)
    db.commit()
    return mandate


def _sign(db: Session, mandate: SddMandate, cents: int, at: datetime) -> None:
    order = Order(
        member_id=mandate.member_id,
        tier=mandate.tier,
        credits=250,
        list_cents=cents,
        amount_cents=cents,
        currency="EUR",
        country="NL",
        method="directdebit",
        provider="test",
        status="pending",
    )
    db.add(order)
    db.flush()
    mandate.order_id, mandate.status, mandate.signed_at = order.id, MandateStatus.SIGNED, at
    db.add(mandate)
    db.commit()


def _order_became(db: Session, mandate: SddMandate, status: str) -> None:
    order = db.get(Order, mandate.order_id)
    order.status = status
    db.add(order)
    db.commit()


def _code(db: Session, mandate: SddMandate, now: datetime = NOW) -> str:
    code = new_code(db, mandate, now)
    assert isinstance(code, str), code
    db.commit()
    return code


def _wrong(code: str) -> str:
    return f"{(int(code) + 1) % 10**6:06d}"


@pytest.fixture
def member(db: Session) -> Member:
    return make_member(db)


@pytest.fixture
def mandate(db: Session, member: Member) -> SddMandate:
    return _mandate(db, member)


def test_a_code_is_six_random_digits_stored_only_salted_and_hashed(
    db: Session, mandate: SddMandate
) -> None:
    first = _code(db, mandate)
    second = _code(db, mandate, NOW + timedelta(minutes=1))
    assert re.fullmatch(r"\d{6}", first) and re.fullmatch(r"\d{6}", second)
    rows = db.exec(select(SmsCode).order_by(SmsCode.id)).all()
    assert all(len(row.code_hash) == 64 and row.salt for row in rows)
    assert rows[0].salt != rows[1].salt
    for row, code in zip(rows, (first, second), strict=True):
        assert code not in row.code_hash and code not in row.salt
    assert rows[0].expires_at.replace(tzinfo=UTC) == NOW + timedelta(minutes=10)


def test_the_right_code_confirms_once(db: Session, mandate: SddMandate, member: Member) -> None:
    code = _code(db, mandate)
    assert check_code(db, mandate.id, member.id, f" {code[:3]} {code[3:]} ", NOW) == CodeResult.OK
    db.commit()
    assert check_code(db, mandate.id, member.id, code, NOW) == CodeResult.NONE
    assert CodeResult.OK.error == ""
    assert CodeResult.NONE.error == SMS_CODE_MISSING


def test_a_wrong_code_is_code_ongeldig(db: Session, mandate: SddMandate, member: Member) -> None:
    code = _code(db, mandate)
    result = check_code(db, mandate.id, member.id, _wrong(code), NOW)
    assert result == CodeResult.INVALID
    assert result.error == INVALID_SMS_CODE
    assert gettext("nl", result.error) == "Code ongeldig"
    assert check_code(db, mandate.id, member.id, code, NOW) == CodeResult.OK


@pytest.mark.parametrize("typed", ["", "abcdef", "1" * 5000, "٣٣٣٣٣٣", "\x00", "12 34 56 78"])
def test_any_typed_text_is_only_a_wrong_try(
    db: Session, mandate: SddMandate, member: Member, typed: str
) -> None:
    _code(db, mandate)
    assert check_code(db, mandate.id, member.id, typed, NOW) == CodeResult.INVALID


def test_a_code_expires_after_ten_minutes(db: Session, mandate: SddMandate, member: Member) -> None:
    code = _code(db, mandate)
    late = NOW + timedelta(minutes=10)
    assert check_code(db, mandate.id, member.id, code, late) == CodeResult.EXPIRED
    assert CodeResult.EXPIRED.error == SMS_CODE_EXPIRED
    just_in_time = NOW + timedelta(minutes=9, seconds=59)
    assert check_code(db, mandate.id, member.id, code, just_in_time) == CodeResult.OK


def test_five_wrong_tries_then_even_the_right_code_needs_a_new_one(
    db: Session, mandate: SddMandate, member: Member
) -> None:
    code = _code(db, mandate)
    for _ in range(CODE_TRIES):
        assert check_code(db, mandate.id, member.id, _wrong(code), NOW) == CodeResult.INVALID
        db.commit()
    result = check_code(db, mandate.id, member.id, code, NOW)
    assert result == CodeResult.TOO_MANY_TRIES
    assert result.error == SMS_CODE_TOO_MANY_TRIES
    fresh = _code(db, mandate, NOW + timedelta(minutes=1))
    assert check_code(db, mandate.id, member.id, fresh, NOW + timedelta(minutes=1)).error == ""


def test_a_resend_waits_a_minute_and_replaces_the_previous_code(
    db: Session, mandate: SddMandate, member: Member
) -> None:
    old = _code(db, mandate)
    assert new_code(db, mandate, NOW + timedelta(seconds=59)) == SmsRefusal(SMS_RESEND_TOO_SOON)
    later = NOW + timedelta(minutes=1)
    new = _code(db, mandate, later)
    if old != new:
        assert check_code(db, mandate.id, member.id, old, later) == CodeResult.INVALID
    assert check_code(db, mandate.id, member.id, new, later) == CodeResult.OK


def test_five_codes_a_day_per_member(db: Session, member: Member) -> None:
    mandates = [_mandate(db, member, phone=f"+3161234567{n}") for n in range(2)]
    for n in range(5):
        _code(db, mandates[n % 2], NOW + timedelta(minutes=2 * n))
    assert new_code(db, mandates[0], NOW + timedelta(hours=2)) == SmsRefusal(SMS_DAILY_LIMIT)
    assert isinstance(new_code(db, mandates[0], NOW + timedelta(days=1)), str)


def test_five_codes_a_day_per_phone_number_across_members(db: Session) -> None:
    members = [make_member(db, f"m{n}@example.com") for n in range(5)]
    for n, someone in enumerate(members):
        _code(db, _mandate(db, someone), NOW + timedelta(minutes=2 * n))
    newcomer = _mandate(db, make_member(db, "new@example.com"))
    assert new_code(db, newcomer, NOW + timedelta(hours=1)) == SmsRefusal(SMS_DAILY_LIMIT)
    other_phone = _mandate(db, make_member(db, "other@example.com"), phone="+31687654321")
    assert isinstance(new_code(db, other_phone, NOW + timedelta(hours=1)), str)


def test_a_resend_to_the_same_phone_from_another_member_also_waits(db: Session) -> None:
    first = _mandate(db, make_member(db, "a@example.com"))
    second = _mandate(db, make_member(db, "b@example.com"))
    _code(db, first)
    assert new_code(db, second, NOW + timedelta(seconds=30)) == SmsRefusal(SMS_RESEND_TOO_SOON)


def test_codes_are_tied_to_their_mandate_and_member(db: Session, member: Member) -> None:
    mine, other = _mandate(db, member), _mandate(db, member, phone="+31687654321")
    code = _code(db, mine)
    stranger = make_member(db, "stranger@example.com")
    assert check_code(db, mine.id, stranger.id, code, NOW) == CodeResult.NONE
    assert check_code(db, other.id, member.id, code, NOW) == CodeResult.NONE
    assert check_code(db, mine.id, member.id, code, NOW) == CodeResult.OK


def test_no_code_for_a_signed_mandate(db: Session, mandate: SddMandate) -> None:
    _sign(db, mandate, 3995, NOW)
    assert new_code(db, mandate, NOW) == SmsRefusal(SMS_CODE_MISSING)


def test_mandate_reference_uses_seps_allowed_characters() -> None:
    references = {mandate_reference(n) for n in (1, 123, 10**9)}
    assert len(references) == 3
    for reference in references:
        assert len(reference) <= 35
        assert re.fullmatch(r"[A-Z0-9+?/\-:().,' ]+", reference)
    assert mandate_reference(123).startswith("AMR-000123-")


def test_masking() -> None:
    assert masked_iban("NL91ABNA0417164300") == "NL91 **** **** **** 4300"
    assert masked_iban("de89 3704 0044 0532 0130 00") == "DE89 **** **** **** **** 3000"
    assert masked_iban("NL9") == "****"
    assert masked_phone("+31612345678") == "+316******78"
    assert masked_phone("+31") == "****"


@pytest.mark.parametrize(
    ("earlier", "amount", "error"),
    [
        ([], 20000, ""),
        ([], 20001, SDD_LIMIT_REACHED),
        ([(15000, timedelta(hours=1))], 5000, ""),
        ([(15000, timedelta(hours=1))], 5001, SDD_LIMIT_REACHED),
        ([(15000, timedelta(hours=25))], 20000, ""),
        ([(20000, timedelta(days=2)), (20000, timedelta(days=9))], 10000, ""),
        ([(20000, timedelta(days=2)), (20000, timedelta(days=9))], 10001, SDD_LIMIT_REACHED),
        ([(20000, timedelta(days=2)), (20000, timedelta(days=31))], 20000, ""),
    ],
)
def test_amount_per_iban_per_day_and_per_30_days(
    db: Session, member: Member, earlier: list, amount: int, error: str
) -> None:
    for cents, ago in earlier:
        _sign(db, _mandate(db, member), cents, NOW - ago)
    assert iban_limits(db, IBAN, member.id, amount, NOW, SETTINGS) == error


def test_an_iban_another_account_signed_with_is_refused_as_such(
    db: Session, member: Member
) -> None:
    """Another account's IBAN is refused with its own text, never the member's own limit:
    the member learns only that this account cannot be used for direct debit."""
    _sign(db, _mandate(db, member), 1995, NOW - timedelta(days=60))
    _mandate(db, make_member(db, "draft@example.com"))  # a draft does not count
    other = make_member(db, "other@example.com")
    assert iban_limits(db, IBAN, member.id, 1995, NOW, SETTINGS) == ""
    assert iban_limits(db, IBAN, other.id, 1995, NOW, SETTINGS) == SDD_IBAN_REFUSED
    two_accounts = SiteSettings(sdd_accounts_per_iban=2)
    assert iban_limits(db, IBAN, other.id, 1995, NOW, two_accounts) == ""
    assert iban_limits(db, GERMAN, other.id, 1995, NOW, SETTINGS) == ""
    assert gettext("nl", SDD_IBAN_REFUSED) != SDD_IBAN_REFUSED


def test_other_accounts_debits_are_not_the_members_limit(db: Session, member: Member) -> None:
    """Two accounts may share an IBAN: the other's debits filling the IBAN's limit refuse the
    IBAN, while the member's own debits are their own limit."""
    _sign(db, _mandate(db, member), 20000, NOW - timedelta(hours=1))
    other = make_member(db, "other@example.com")
    two_accounts = SiteSettings(sdd_accounts_per_iban=2)
    assert iban_limits(db, IBAN, other.id, 1995, NOW, two_accounts) == SDD_IBAN_REFUSED
    assert iban_limits(db, IBAN, member.id, 1995, NOW, two_accounts) == SDD_LIMIT_REACHED


@pytest.mark.parametrize("returned", ["failed", "charged_back"])
def test_an_iban_whose_debit_came_back_signs_no_new_mandate(
    db: Session, member: Member, returned: str
) -> None:
    mandate = _mandate(db, member)
    _sign(db, mandate, 1995, NOW - timedelta(days=40))
    _order_became(db, mandate, returned)
    _mandate(db, member, iban=GERMAN)  # the blocked member's draft: typed, never debited
    other = make_member(db, "other@example.com")
    roomy = SiteSettings(sdd_accounts_per_iban=5)
    assert iban_limits(db, IBAN, other.id, 1995, NOW, roomy) == SDD_IBAN_REFUSED
    assert iban_limits(db, GERMAN, other.id, 1995, NOW, roomy) == ""


def test_a_debit_that_never_happened_counts_in_no_limit(db: Session, member: Member) -> None:
    refused = _mandate(db, member)
    _sign(db, refused, 20000, NOW - timedelta(hours=1))
    _order_became(db, refused, "failed")
    refused.status = MandateStatus.REVOKED  # the provider refused it: no money moved
    db.add(refused)
    db.commit()
    other = make_member(db, "other@example.com")
    assert iban_limits(db, IBAN, member.id, 20000, NOW, SETTINGS) == ""
    assert iban_limits(db, IBAN, other.id, 20000, NOW, SETTINGS) == ""


def test_ten_forms_an_hour_then_a_pause(db: Session, member: Member) -> None:
    for minutes in range(10):
        mandate = _mandate(db, member)
        mandate.created_at = NOW - timedelta(minutes=59 - minutes)
        db.add(mandate)
    db.commit()
    assert forms_throttled(db, member.id, NOW) == SDD_TOO_MANY_FORMS
    assert gettext("nl", SDD_TOO_MANY_FORMS) != SDD_TOO_MANY_FORMS
    assert forms_throttled(db, member.id, NOW + timedelta(minutes=1)) == ""
    assert forms_throttled(db, make_member(db, "other@example.com").id, NOW) == ""


def test_stale_drafts_and_codes_are_purged_after_a_day(db: Session, member: Member) -> None:
    old_draft, fresh_draft = _mandate(db, member), _mandate(db, member)
    signed = _mandate(db, member)
    _sign(db, signed, 1995, NOW - timedelta(days=3))
    resent = _mandate(db, member)
    for mandate in (old_draft, signed, resent):
        mandate.created_at = NOW - timedelta(days=2)
        db.add(mandate)
    db.commit()
    assert isinstance(new_code(db, old_draft, NOW - timedelta(days=2)), str)
    assert isinstance(new_code(db, resent, NOW - timedelta(hours=2)), str)
    db.commit()
    purge_stale(db, NOW)
    db.commit()
    left = set(db.exec(select(SddMandate.id)).all())
    assert left == {fresh_draft.id, signed.id, resent.id}
    assert [c.mandate_id for c in db.exec(select(SmsCode)).all()] == [resent.id]


def test_erasure_takes_drafts_and_codes_and_keeps_signed_mandates(
    db: Session, member: Member
) -> None:
    draft, signed, revoked = _mandate(db, member), _mandate(db, member), _mandate(db, member)
    _sign(db, signed, 1995, NOW - timedelta(days=3))
    _sign(db, revoked, 1995, NOW - timedelta(days=3))
    revoked.status = MandateStatus.REVOKED
    db.add(revoked)
    assert isinstance(new_code(db, draft, NOW), str)
    other = _mandate(db, make_member(db, "other@example.com"))
    db.commit()
    erase_member_drafts(db, member.id)
    db.commit()
    assert set(db.exec(select(SddMandate.id)).all()) == {signed.id, other.id}
    assert db.exec(select(SmsCode)).all() == []


def _at_once(engine: Engine, work, times: int) -> list:
    """`work(session)` in `times` threads released together, each committing its own."""
    barrier, results = threading.Barrier(times), []

    def run() -> None:
        with Session(engine, expire_on_commit=False) as session:
            barrier.wait()
            results.append(work(session))
            session.commit()

    threads = [threading.Thread(target=run) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _postgres_only(engine: Engine) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("concurrent transactions: PostgreSQL")


def _code_as_sent(session: Session, mandate_id: int) -> str | SmsRefusal:
    """A code requested as actions/direct_debit.send_code does: the locks, then the code."""
    mandate = session.get(SddMandate, mandate_id)
    lock_code_counts(session, mandate)
    return new_code(session, mandate, NOW)


def test_the_same_code_five_times_at_once_confirms_once(
    engine: Engine, db: Session, mandate: SddMandate, member: Member
) -> None:
    _postgres_only(engine)
    code = _code(db, mandate)
    results = _at_once(engine, lambda s: check_code(s, mandate.id, member.id, code, NOW), 5)
    assert sorted(results) == sorted([CodeResult.OK] + [CodeResult.NONE] * 4)


def test_wrong_codes_at_once_count_at_most_five_tries(
    engine: Engine, db: Session, mandate: SddMandate, member: Member
) -> None:
    _postgres_only(engine)
    wrong = _wrong(_code(db, mandate))
    results = _at_once(engine, lambda s: check_code(s, mandate.id, member.id, wrong, NOW), 12)
    assert results.count(CodeResult.INVALID) == CODE_TRIES
    db.expire_all()
    assert db.exec(select(SmsCode.tries)).one() == CODE_TRIES


def test_codes_requested_at_once_send_one(engine: Engine, db: Session, mandate: SddMandate) -> None:
    _postgres_only(engine)
    results = _at_once(engine, lambda s: _code_as_sent(s, mandate.id), 5)
    assert sum(isinstance(result, str) for result in results) == 1


def test_an_erased_members_signed_mandates_lose_the_payers_data_after_400_days(
    db: Session, member: Member
) -> None:
    old, recent = _mandate(db, member), _mandate(db, member)
    _sign(db, old, 1995, NOW - timedelta(days=401))
    _sign(db, recent, 1995, NOW - timedelta(days=399))
    living = _mandate(db, make_member(db, "living@example.com"))
    _sign(db, living, 1995, NOW - timedelta(days=500))
    member.status = MemberStatus.DELETED
    db.add(member)
    db.commit()
    purge_stale(db, NOW)
    db.commit()
    db.expire_all()
    gone = db.get(SddMandate, old.id)
    assert (gone.account_holder, gone.iban, gone.phone_e164, gone.signed_ip) == (
        "",
        "NL91",
        "",
        None,
    )
    assert gone.reference and gone.order_id  # the payment record stays
    assert db.get(SddMandate, recent.id).iban == IBAN == db.get(SddMandate, living.id).iban


def test_two_members_texting_one_phone_at_once_get_one_code(engine: Engine, db: Session) -> None:
    _postgres_only(engine)
    first = _mandate(db, make_member(db, "a@example.com"))
    second = _mandate(db, make_member(db, "b@example.com"))
    ids = iter([first.id, second.id])
    lock = threading.Lock()

    def request(session: Session):
        with lock:
            mandate_id = next(ids)
        return _code_as_sent(session, mandate_id)

    results = _at_once(engine, request, 2)
    assert sum(isinstance(result, str) for result in results) == 1
