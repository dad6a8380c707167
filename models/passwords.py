"""Password rules and argon2id hashing for accounts.

Passwords are NFC-normalised before they are checked or hashed, so the same password typed on
different keyboards (composed or decomposed accents) counts and matches the same.
"""

import unicodedata
from functools import cache
from importlib.resources import files

from argon2 import PasswordHasher
from argon2.exceptions import Argon2Error

from translations.catalog import N_, Message, N_plural

MIN_LENGTH = 8
MAX_LENGTH = 128

PASSWORD_TOO_SHORT = N_plural(
    "Your password needs at least {min} character.",
    "Your password needs at least {min} characters.",
    "min",
)
PASSWORD_TOO_LONG = N_plural(
    "Your password can have at most {max} character.",
    "Your password can have at most {max} characters.",
    "max",
)
PASSWORD_TOO_COMMON = N_("This password is too common. Choose one that is harder to guess.")

# OWASP's argon2id setting: m = 19 MiB, t = 2, p = 1.
_HASHER = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)

# A hash of a random, discarded secret with the same parameters: verified against when an
# account has no hash, so the answer takes as long whether or not the account exists.
_DUMMY_HASH = (
    "$argon2id$v=19$m=19456,t=2,p=1$L021HbiLv6HDHl2UqDeN6Q$"
    "KpZhOEm9Pk1hJsY4ZnJxn+PQho97kIgoi/0/yuqhfy8"
)


def _normalise(password: str) -> str:
    return unicodedata.normalize("NFC", password)


@cache
def common_passwords() -> frozenset[str]:
    """The shipped list of the 10,000 most common passwords, lowercase; read once."""
    text = files("models").joinpath("data", "common_passwords.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line)


def password_problem(password: str) -> Message | None:
    """None when the password is acceptable, else the msgid saying what is wrong with it."""
    normalised = _normalise(password)
    if len(normalised) < MIN_LENGTH:
        return PASSWORD_TOO_SHORT
    if len(normalised) > MAX_LENGTH:
        return PASSWORD_TOO_LONG
    if normalised.lower() in common_passwords():
        return PASSWORD_TOO_COMMON
    return None


def hash_password(password: str) -> str:
    """The argon2id hash of the NFC-normalised password, as the encoded string to store."""
    return _HASHER.hash(_normalise(password))


def verify_password(password_hash: str | None, password: str) -> bool:
    """Whether the password matches the stored hash; False for a missing or invalid hash."""
    try:
        if password_hash is None:
            _HASHER.verify(_DUMMY_HASH, _normalise(password))
            return False
        return _HASHER.verify(password_hash, _normalise(password))
    except (Argon2Error, ValueError, TypeError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """Whether the hash was made with other parameters (or is unreadable) and should be redone."""
    try:
        return _HASHER.check_needs_rehash(password_hash)
    except (Argon2Error, ValueError, TypeError):
        return True
