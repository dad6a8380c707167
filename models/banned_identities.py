"""The identities a ban keeps from coming back: a keyed hash of the banned member's e-mail
address and of the phone numbers they gave (the SMS-signed direct debit mandates), kept after the
account is erased. Signing up or changing to such an address is refused, and so is such a phone
number in the direct debit form (the one place the site asks for one).

The hash is of a ban key, so a variant of the same mailbox does not pass: the address lower-cased,
a `+tag` dropped for every domain, and for Gmail (googlemail.com is gmail.com) the dots of the
local part, which Gmail ignores; a phone in E.164. It is an HMAC-SHA256 keyed with the caller's
`secret` (services/server_keys.derived_key(BAN_KEY)): the few phone numbers there are cannot be
tried one by one against a copy of the table."""

import hashlib
import hmac

import phonenumbers
from sqlmodel import Session, delete, select

from models.direct_debit import SddMandate
from models.member import Member
from models.moderation import BannedIdentity
from translations.catalog import N_

EMAIL = "email"
PHONE = "phone"
BAN_KEY = "banned-identity"  # the purpose of the hashes' key
REFUSED_ADDRESS = N_("This e-mail address cannot be used for an account. Please use another one.")
REFUSED_PHONE = N_("This phone number cannot be used. Please use another one.")
_GMAIL = "gmail.com"
_GMAIL_DOMAINS = frozenset({_GMAIL, "googlemail.com"})


def email_ban_key(address: str) -> str:
    """One key for every spelling of a mailbox: case, a +tag, Gmail's dots and domain."""
    local, _, domain = address.strip().lower().rpartition("@")
    local = local.split("+", 1)[0]
    if domain in _GMAIL_DOMAINS:
        local, domain = local.replace(".", ""), _GMAIL
    return f"{local}@{domain}"


def phone_ban_key(number: str) -> str:
    """The number in E.164 (as the direct debit form stores it); as typed when it is none."""
    try:
        parsed = phonenumbers.parse(number.strip(), None)
    except phonenumbers.NumberParseException:
        return number.strip()
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)


def identity_hash(kind: str, value: str, secret: bytes) -> str:
    """The stored form of an address or a phone number: the HMAC of its ban key."""
    key = email_ban_key(value) if kind == EMAIL else phone_ban_key(value)
    return hmac.new(secret, f"{kind}:{key}".encode(), hashlib.sha256).hexdigest()


def _identities(db: Session, member: Member, secret: bytes) -> set[tuple[str, str]]:
    phones = db.exec(select(SddMandate.phone_e164).where(SddMandate.member_id == member.id))
    found = {(PHONE, identity_hash(PHONE, phone, secret)) for phone in phones if phone}
    if member.email:
        found.add((EMAIL, identity_hash(EMAIL, member.email, secret)))
    return found


def keep_banned(db: Session, member: Member, decision_id: int, secret: bytes) -> None:
    """Remember the member's identities under the ban `decision_id` (one already kept by an
    earlier ban stays with that one)."""
    for kind, hashed in _identities(db, member, secret):
        if db.get(BannedIdentity, hashed) is None:
            db.add(BannedIdentity(identity_hash=hashed, kind=kind, decision_id=decision_id))
    db.flush()


def forget_banned(db: Session, decision_id: int) -> None:
    """The identities the ban `decision_id` kept, released (its reversal)."""
    db.exec(delete(BannedIdentity).where(BannedIdentity.decision_id == decision_id))


def is_banned(db: Session, kind: str, value: str, secret: bytes) -> bool:
    return db.get(BannedIdentity, identity_hash(kind, value, secret)) is not None
