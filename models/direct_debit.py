"""SEPA direct debit: the mandate a member confirms with a code sent by SMS, and its limits.

A mandate is stored as a draft when the form is accepted, with the text shown, and is signed
(and gets its order) when the member enters the right code. Codes are stored salted and hashed,
live 10 minutes, allow 5 wrong tries, and only one request can ever use a code (a conditional
UPDATE). Codes are throttled per phone number and per member, forms per member. The limits per
IBAN count signed mandates over rolling windows of 24 hours and 30 days, checked before any code
is sent (a code that could sign nothing is never sent) and again when signing; an IBAN other
accounts use is refused as such, without a word about them. Drafts and codes are kept for a day
(what the throttles count), signed mandates as payment records.
"""

import hashlib
import hmac
import secrets
import string
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import Column, Text, delete, exists, func, or_, update
from sqlmodel import Field, Session, SQLModel, select

from models.db import advisory_lock
from models.member import Member, MemberStatus, as_utc, utcnow
from models.orders import Order, OrderStatus
from models.site_settings import SiteSettings
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

CODE_LIFETIME = timedelta(minutes=10)
CODE_TRIES = 5
RESEND_INTERVAL = timedelta(minutes=1)
CODES_PER_DAY = 5  # per phone number and per member
FORMS_PER_HOUR = 10  # drafts a member may have checked in an hour
KEPT_FOR = timedelta(days=1)  # drafts and codes: what the throttles look back on
DEBIT_LEASE = timedelta(minutes=5)  # longer than all the provider calls of one debit
RECORDS_KEPT_FOR = timedelta(days=400)  # a signed mandate's payer data, past the 13-month claim
_UNDEBITED = (OrderStatus.FAILED, OrderStatus.CANCELED, OrderStatus.EXPIRED)
_RETURNED = (OrderStatus.FAILED, OrderStatus.CHARGED_BACK)
_PAYER_ERASED: dict[str, str | None] = dict.fromkeys(
    ("account_holder", "street", "house_number", "zip", "city", "phone_e164", "mandate_text"), ""
) | {"signed_ip": None, "signed_user_agent": None}
REFERENCE_PREFIX = "AMR-"
_REFERENCE_RANDOM = 8
_REFERENCE_ALPHABET = string.ascii_uppercase + string.digits


class MandateStatus(StrEnum):
    DRAFT = "draft"
    SIGNED = "signed"
    REVOKED = "revoked"


class SddMandate(SQLModel, table=True):
    """A one-off SEPA core mandate and what it pays for (the bundle until its order exists).
    `iban` is compact and complete: show `masked_iban`. `reference` is set right after the
    first flush (`mandate_reference(id)`)."""

    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="member.id", index=True)
    order_id: int | None = Field(default=None, foreign_key="creditorder.id", unique=True)
    tier: str = Field(max_length=4)
    payment_country: str = Field(max_length=2)
    discount_code: str | None = Field(default=None, max_length=40)
    amount_cents: int = 0  # the amount the member reviewed: the debit must be this
    reference: str | None = Field(default=None, max_length=35, unique=True)
    account_holder: str = Field(max_length=70)
    iban: str = Field(max_length=34, index=True)
    street: str = Field(max_length=70)
    house_number: str = Field(max_length=10)
    zip: str = Field(max_length=10)
    city: str = Field(max_length=35)
    country: str = Field(max_length=2)
    phone_e164: str = Field(max_length=16)
    mandate_text: str = Field(sa_column=Column(Text, nullable=False))
    status: str = Field(default=MandateStatus.DRAFT, max_length=10)
    created_at: datetime = Field(default_factory=utcnow)
    signed_at: datetime | None = None
    signed_ip: str | None = Field(default=None, max_length=45)
    signed_user_agent: str | None = Field(default=None, max_length=500)
    provider_customer_id: str | None = Field(default=None, max_length=40)
    provider_mandate_id: str | None = Field(default=None, max_length=40)
    debit_claimed_at: datetime | None = None  # the lease of the process asking the provider
    language: str = Field(default="en", max_length=5)  # of the provider's requests, frozen


class SmsCode(SQLModel, table=True):
    """A code sent for one mandate; only `sha256(salt + code)` is kept."""

    id: int | None = Field(default=None, primary_key=True)
    mandate_id: int = Field(foreign_key="sddmandate.id", index=True, ondelete="CASCADE")
    member_id: int = Field(foreign_key="member.id", index=True)
    phone_e164: str = Field(max_length=16, index=True)
    salt: str = Field(max_length=32)
    code_hash: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow, index=True)
    expires_at: datetime
    tries: int = 0
    used_at: datetime | None = None
    superseded: bool = False


class CodeResult(StrEnum):
    OK = "ok"
    INVALID = "invalid"
    EXPIRED = "expired"
    TOO_MANY_TRIES = "too_many_tries"
    NONE = "none"  # no code to check: never sent, replaced by a newer one, or used

    @property
    def error(self) -> str:
        """The msgid to show; "" for OK."""
        return _CODE_ERRORS.get(self, "")


_CODE_ERRORS = {
    CodeResult.INVALID: INVALID_SMS_CODE,
    CodeResult.EXPIRED: SMS_CODE_EXPIRED,
    CodeResult.TOO_MANY_TRIES: SMS_CODE_TOO_MANY_TRIES,
    CodeResult.NONE: SMS_CODE_MISSING,
}


@dataclass(frozen=True)
class SmsRefusal:
    """No code was sent: `error` is the msgid to show."""

    error: str


def mandate_reference(number: int) -> str:
    """`AMR-000123-7K2Q9XZB`: a number of ours and a random part, in SEPA's allowed characters
    (at most 35)."""
    tail = "".join(secrets.choice(_REFERENCE_ALPHABET) for _ in range(_REFERENCE_RANDOM))
    return f"{REFERENCE_PREFIX}{number:06d}-{tail}"


def masked_iban(iban: str) -> str:
    """`NL91 **** **** **** 4300`: the country and check digits and the last four only."""
    compact = "".join(iban.split()).upper()
    if len(compact) < 9:
        return "****"
    hidden_groups = -(-(len(compact) - 8) // 4)
    return " ".join([compact[:4], *["****"] * hidden_groups, compact[-4:]])


def order_mandate(db: Session, order_id: int) -> SddMandate | None:
    """The mandate an order is debited under; None for an order paid otherwise."""
    return db.exec(select(SddMandate).where(SddMandate.order_id == order_id)).first()


def masked_phone(e164: str) -> str:
    """`+316******78`: enough for the member to recognise their number."""
    if len(e164) < 8:
        return "****"
    return f"{e164[:4]}{'*' * (len(e164) - 6)}{e164[-2:]}"


def _hash(salt: str, code: str) -> str:
    return hashlib.sha256(f"{salt}{code}".encode()).hexdigest()


def _throttled(db: Session, mandate: SddMandate, now: datetime) -> str:
    """The refusal's msgid when a code went to this phone or member too recently or too often
    in the last 24 hours, else ""."""
    sent = db.exec(
        select(SmsCode.created_at, SmsCode.phone_e164, SmsCode.member_id).where(
            or_(SmsCode.phone_e164 == mandate.phone_e164, SmsCode.member_id == mandate.member_id),
            SmsCode.created_at > now - timedelta(days=1),
        )
    ).all()
    if any(as_utc(moment) > now - RESEND_INTERVAL for moment, _, _ in sent):
        return SMS_RESEND_TOO_SOON
    per_phone = sum(1 for _, phone, _ in sent if phone == mandate.phone_e164)
    per_member = sum(1 for _, _, member in sent if member == mandate.member_id)
    return SMS_DAILY_LIMIT if max(per_phone, per_member) >= CODES_PER_DAY else ""


def lock_code_counts(db: Session, mandate: SddMandate) -> None:
    """Lock what the code throttles count, the member's row and the phone number, until the
    transaction ends (taken before the IBAN's lock, as signing does, so the two never wait on
    each other in turn)."""
    db.exec(select(Member.id).where(Member.id == mandate.member_id).with_for_update())
    advisory_lock(db, f"sms:{mandate.phone_e164}")


def new_code(db: Session, mandate: SddMandate, now: datetime) -> str | SmsRefusal:
    """A fresh 6-digit code for the draft (the plain code, to send), replacing the previous one,
    or the refusal. The caller holds `lock_code_counts`, so concurrent requests, also from other
    members to the same phone, count each other."""
    if mandate.status != MandateStatus.DRAFT:
        return SmsRefusal(SMS_CODE_MISSING)
    if refusal := _throttled(db, mandate, now):
        return SmsRefusal(refusal)
    db.exec(
        update(SmsCode)
        .where(SmsCode.mandate_id == mandate.id, SmsCode.used_at.is_(None))  # type: ignore[union-attr]
        .values(superseded=True)
        .execution_options(synchronize_session=False)
    )
    code = f"{secrets.randbelow(10**6):06d}"
    salt = secrets.token_hex(16)
    db.add(
        SmsCode(
            mandate_id=mandate.id,
            member_id=mandate.member_id,
            phone_e164=mandate.phone_e164,
            salt=salt,
            code_hash=_hash(salt, code),
            created_at=now,
            expires_at=now + CODE_LIFETIME,
        )
    )
    db.flush()
    return code


def _current_code(db: Session, mandate_id: int, member_id: int) -> SmsCode | None:
    return db.exec(
        select(SmsCode)
        .where(
            SmsCode.mandate_id == mandate_id,
            SmsCode.member_id == member_id,
            SmsCode.used_at.is_(None),  # type: ignore[union-attr]
            SmsCode.superseded.is_(False),  # type: ignore[attr-defined]
        )
        .order_by(SmsCode.id.desc())  # type: ignore[union-attr]
    ).first()


def _claim(db: Session, row_id: int | None, now: datetime, correct: bool) -> bool:
    """Use the code (correct) or count a wrong try, only while it is current, unused and has
    tries left: of concurrent requests exactly one can use a code."""
    values = {"used_at": now} if correct else {"tries": SmsCode.tries + 1}
    result = db.exec(
        update(SmsCode)
        .where(
            SmsCode.id == row_id,
            SmsCode.used_at.is_(None),  # type: ignore[union-attr]
            SmsCode.superseded.is_(False),  # type: ignore[attr-defined]
            SmsCode.tries < CODE_TRIES,
        )
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return result.rowcount == 1


def check_code(
    db: Session, mandate_id: int, member_id: int, code: str, now: datetime
) -> CodeResult:
    """The typed code against the mandate's current code; OK uses it up. Caller commits (a
    wrong try must be committed to count)."""
    row = _current_code(db, mandate_id, member_id)
    if row is None:
        return CodeResult.NONE
    if as_utc(row.expires_at) <= now:
        return CodeResult.EXPIRED
    if row.tries >= CODE_TRIES:
        return CodeResult.TOO_MANY_TRIES
    typed = "".join(str(code)[:20].split())
    correct = hmac.compare_digest(_hash(row.salt, typed), row.code_hash)
    if not _claim(db, row.id, now, correct):
        return CodeResult.NONE if correct else CodeResult.TOO_MANY_TRIES
    return CodeResult.OK if correct else CodeResult.INVALID


def iban_limits(
    db: Session,
    iban: str,
    member_id: int,
    amount_cents: int,
    now: datetime,
    settings: SiteSettings,
) -> str:
    """Whether a debit of `amount_cents` from `iban` by this member can be signed: "" when it
    can; SDD_LIMIT_REACHED when the member's own debits from it pass a limit; SDD_IBAN_REFUSED
    when the IBAN signs nothing for this member: a debit from it came back (its member is
    blocked), it belongs to other accounts (`sdd_accounts_per_iban`), or their debits leave no
    room. Asked before any code is sent and again when signing; the refusal names nobody and
    nothing of the other accounts. On PostgreSQL the IBAN stays locked until the transaction
    ends, so two signings cannot both pass."""
    advisory_lock(db, f"sdd:{iban}")
    signed = db.exec(
        select(SddMandate.member_id, SddMandate.signed_at, Order.amount_cents)
        .join(Order, Order.id == SddMandate.order_id)  # type: ignore[arg-type]
        .where(
            SddMandate.iban == iban,
            SddMandate.status == MandateStatus.SIGNED,
            Order.status.not_in(_UNDEBITED),  # type: ignore[attr-defined]
        )
    ).all()
    if _returned(db, iban) or _too_many_accounts(signed, member_id, settings):
        return SDD_IBAN_REFUSED
    own = [row for row in signed if row[0] == member_id]
    if _over_limit(own, amount_cents, now, settings):
        return SDD_LIMIT_REACHED
    return SDD_IBAN_REFUSED if _over_limit(signed, amount_cents, now, settings) else ""


def _over_limit(
    signed: Sequence[tuple[int, datetime | None, int]],
    amount_cents: int,
    now: datetime,
    settings: SiteSettings,
) -> bool:
    """These debits and the new one pass the limit of a day or of 30 days."""
    for window, limit in (
        (timedelta(days=1), settings.sdd_limit_day_cents),
        (timedelta(days=30), settings.sdd_limit_30d_cents),
    ):
        since = now - window
        spent = sum(cents for _, at, cents in signed if at is not None and as_utc(at) > since)
        if spent + amount_cents > limit:
            return True
    return False


def _too_many_accounts(
    signed: Sequence[tuple[int, datetime | None, int]], member_id: int, settings: SiteSettings
) -> bool:
    members = {row_member for row_member, _, _ in signed}
    return member_id not in members and len(members) >= settings.sdd_accounts_per_iban


def _returned(db: Session, iban: str) -> bool:
    """A debit from this very IBAN came back: its signed mandate's order failed at the bank
    (a refused or unanswered debit revokes its mandate instead) or was charged back."""
    returned = (
        select(SddMandate.id)
        .join(Order, Order.id == SddMandate.order_id)  # type: ignore[arg-type]
        .where(
            SddMandate.iban == iban,
            SddMandate.status == MandateStatus.SIGNED,
            Order.status.in_(_RETURNED),  # type: ignore[attr-defined]
        )
    )
    return db.exec(select(exists(returned))).one()


def forms_throttled(db: Session, member_id: int, now: datetime) -> str:
    """SDD_TOO_MANY_FORMS when the member had FORMS_PER_HOUR drafts checked in the last hour.
    The member's forms are locked until the transaction ends, so forms sent at the same moment
    count each other's drafts."""
    advisory_lock(db, f"sdd-forms:{member_id}")
    count = db.exec(
        select(func.count())
        .select_from(SddMandate)
        .where(
            SddMandate.member_id == member_id,
            SddMandate.created_at > now - timedelta(hours=1),
        )
    ).one()
    return SDD_TOO_MANY_FORMS if count >= FORMS_PER_HOUR else ""


def purge_stale(db: Session, now: datetime) -> None:
    """Codes older than a day, and drafts older than a day with no younger code, go (not one
    a request holds right now: its new code would go with it); erased members' signed mandates
    lose the payer's data once no claim can come any more."""
    cutoff = now - KEPT_FOR
    db.exec(delete(SmsCode).where(SmsCode.created_at < cutoff))  # type: ignore[call-overload]
    stale = db.exec(
        select(SddMandate.id)
        .where(
            SddMandate.status == MandateStatus.DRAFT,
            SddMandate.created_at < cutoff,
            ~exists().where(SmsCode.mandate_id == SddMandate.id),
        )
        .with_for_update(skip_locked=True)
    ).all()
    db.exec(delete(SddMandate).where(SddMandate.id.in_(stale)))  # type: ignore[call-overload,union-attr]
    _anonymise_erased(db, now - RECORDS_KEPT_FOR)


def _anonymise_erased(db: Session, signed_before: datetime) -> None:
    erased = select(Member.id).where(Member.status == MemberStatus.DELETED)
    db.exec(
        update(SddMandate)
        .where(
            SddMandate.member_id.in_(erased),  # type: ignore[attr-defined]
            SddMandate.signed_at < signed_before,  # type: ignore[operator]
            SddMandate.account_holder != "",
        )
        .values(**_PAYER_ERASED, iban=func.substr(SddMandate.iban, 1, 4))  # the country stays
        .execution_options(synchronize_session=False)
    )


def erase_member_drafts(db: Session, member_id: int) -> None:
    """An erased account's codes and the mandates no money moved on (drafts, revoked); signed
    ones stay as payment records until `purge_stale` anonymises them."""
    db.exec(delete(SmsCode).where(SmsCode.member_id == member_id))  # type: ignore[call-overload]
    db.exec(
        delete(SddMandate).where(  # type: ignore[call-overload]
            SddMandate.member_id == member_id,
            SddMandate.status.in_((MandateStatus.DRAFT, MandateStatus.REVOKED)),  # type: ignore[attr-defined]
        )
    )


def claim_debit(db: Session, mandate_id: int, now: datetime) -> bool:
    """Take the lease to ask the provider for a signed mandate's debit: True for exactly one
    of the processes asking at once, and for nobody while another's lease runs."""
    result = db.exec(
        update(SddMandate)
        .where(
            SddMandate.id == mandate_id,
            SddMandate.status == MandateStatus.SIGNED,
            or_(
                SddMandate.debit_claimed_at.is_(None),  # type: ignore[union-attr]
                SddMandate.debit_claimed_at < now - DEBIT_LEASE,  # type: ignore[operator]
            ),
        )
        .values(debit_claimed_at=now)
        .execution_options(synchronize_session=False)
    )
    return result.rowcount == 1
