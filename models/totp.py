"""The staff second factor's rules: TOTP codes (RFC 6238, 30-second steps, 6 digits), each time
step accepted once, and one-time recovery codes stored as SHA-256 hashes.

A code is accepted from the step before to the step after the present one (a phone's clock a
little off, a code typed as it changed), and only for a step later than the last one used, so
a code seen over a shoulder or in a log cannot be replayed.

The secret is stored encrypted (Fernet: AES-128-CBC with an HMAC) under a key the action passes
in (services/server_keys.derived_key), so a copy of the database alone makes no codes. A plain
secret stored before the encryption is not read: there were none in production."""

import base64
import hashlib
import secrets
from datetime import datetime

import pyotp
import segno
from cryptography.fernet import Fernet

from models.staff import StaffTotp

CODE_DIGITS = 6
RECOVERY_CODES = 10
RECOVERY_GROUPS = 2  # "k7q2m-x9hfp": two groups of five, easy to read out and type
RECOVERY_GROUP_LENGTH = 5
_RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to mix up
STEPS_ACCEPTED = (-1, 0, 1)  # steps around the present one


def new_secret() -> str:
    return pyotp.random_base32()


def _fernet(key: bytes) -> Fernet:
    return Fernet(base64.urlsafe_b64encode(key))


def seal_secret(secret: str, key: bytes) -> str:
    """The stored form of a secret: encrypted with the 32-byte `key`."""
    return _fernet(key).encrypt(secret.encode()).decode()


def open_secret(stored: str, key: bytes) -> str:
    """The secret `seal_secret` stored."""
    return _fernet(key).decrypt(stored.encode()).decode()


def provisioning_uri(secret: str, account: str, issuer: str) -> str:
    """The otpauth:// address an authenticator app reads from the QR code."""
    return pyotp.TOTP(secret).provisioning_uri(name=account, issuer_name=issuer)


def qr_svg_data_uri(text: str) -> str:
    """The QR code of `text` as an SVG data URI, drawn here: no outside service sees it."""
    return segno.make(text, error="m").svg_data_uri(scale=5, border=2)


def code_digits(text: str) -> str | None:
    """The six digits of a TOTP code as typed (spaces allowed), None when it is none."""
    digits = "".join(text.split())
    return digits if len(digits) == CODE_DIGITS and digits.isascii() and digits.isdigit() else None


def matching_step(secret: str, code: str, now: datetime) -> int | None:
    """The time step of `code` within STEPS_ACCEPTED of `now`; None when it matches none."""
    totp = pyotp.TOTP(secret)
    present = totp.timecode(now)
    for offset in STEPS_ACCEPTED:
        step = present + offset
        if secrets.compare_digest(totp.generate_otp(step), code):
            return step
    return None


def accept_code(totp: StaffTotp, code: str, now: datetime, key: bytes) -> bool:
    """True for a right code of a step not used before; the step is then used up. `key`
    opens the stored secret."""
    step = matching_step(open_secret(totp.secret, key), code, now)
    if step is None or step <= totp.last_step:
        return False
    totp.last_step = step
    return True


def new_recovery_codes() -> list[str]:
    groups = RECOVERY_GROUPS * RECOVERY_CODES
    parts = [
        "".join(secrets.choice(_RECOVERY_ALPHABET) for _ in range(RECOVERY_GROUP_LENGTH))
        for _ in range(groups)
    ]
    return ["-".join(parts[i : i + RECOVERY_GROUPS]) for i in range(0, groups, RECOVERY_GROUPS)]


def recovery_hash(code: str) -> str:
    """The stored form of a recovery code; case, spaces and dashes as typed do not matter."""
    plain = "".join(code.lower().split()).replace("-", "")
    return hashlib.sha256(plain.encode()).hexdigest()


def use_recovery_code(totp: StaffTotp, code: str) -> bool:
    """True for an unused recovery code, which is then used up."""
    wanted = recovery_hash(code)
    if wanted not in totp.recovery_hashes:
        return False
    totp.recovery_hashes = [stored for stored in totp.recovery_hashes if stored != wanted]
    return True
