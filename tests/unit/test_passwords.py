from importlib.resources import files

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models import passwords
from models.passwords import (
    MAX_LENGTH,
    MIN_LENGTH,
    PASSWORD_TOO_COMMON,
    PASSWORD_TOO_LONG,
    PASSWORD_TOO_SHORT,
    hash_password,
    needs_rehash,
    password_problem,
    verify_password,
)

GOOD = "correct horse battery staple"


def test_hash_round_trip_and_wrong_password() -> None:
    stored = hash_password(GOOD)
    assert stored != GOOD
    assert verify_password(stored, GOOD)
    assert not verify_password(stored, GOOD + "!")
    assert not needs_rehash(stored)


def test_stored_hash_is_argon2id_with_owasp_parameters() -> None:
    assert hash_password(GOOD).startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert not needs_rehash(passwords._DUMMY_HASH)


def test_missing_or_invalid_hash_never_verifies() -> None:
    assert not verify_password(None, GOOD)
    assert not verify_password("", GOOD)
    assert not verify_password("not a hash", GOOD)
    assert needs_rehash("not a hash")


def test_other_parameters_need_rehash() -> None:
    from argon2 import PasswordHasher

    old = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash(GOOD)
    assert verify_password(old, GOOD)
    assert needs_rehash(old)


@pytest.mark.parametrize(
    ("length", "problem"),
    [
        (MIN_LENGTH - 1, PASSWORD_TOO_SHORT),
        (MIN_LENGTH, None),
        (MAX_LENGTH, None),
        (MAX_LENGTH + 1, PASSWORD_TOO_LONG),
    ],
)
def test_length_limits(length: int, problem: str | None) -> None:
    assert (MIN_LENGTH, MAX_LENGTH) == (8, 128)
    assert password_problem(("Zq7#" * 40)[:length]) == problem


def test_length_counts_code_points_after_nfc() -> None:
    decomposed = "e\u0301" * MIN_LENGTH  # 16 code points, 8 after NFC
    assert password_problem(decomposed) is None
    # 14 code points, 7 after NFC
    assert password_problem("e\u0301" * (MIN_LENGTH - 1)) == PASSWORD_TOO_SHORT


@pytest.mark.parametrize("common", ["password", "Password", "PASSWORD", "123456789", "qwerty123"])
def test_common_passwords_are_rejected_in_any_case(common: str) -> None:
    assert password_problem(common) == PASSWORD_TOO_COMMON


def test_shipped_list_has_ten_thousand_unique_lowercase_lines() -> None:
    raw = files("models").joinpath("data", "common_passwords.txt").read_text(encoding="utf-8")
    lines = raw.splitlines()
    assert len(lines) == 10_000
    assert len(set(lines)) == 10_000
    assert all(line and line == line.lower() and line.strip() == line for line in lines)
    assert lines[:2] == ["123456", "password"]
    assert len(passwords.common_passwords()) == 10_000


def test_composed_and_decomposed_accents_verify_against_each_other() -> None:
    composed = "caf\u00e9-au-lait-\u00e9t\u00e9"
    decomposed = "cafe\u0301-au-lait-e\u0301te\u0301"
    assert composed != decomposed
    assert verify_password(hash_password(composed), decomposed)
    assert verify_password(hash_password(decomposed), composed)


@given(st.text(max_size=300))
def test_password_problem_never_raises(text: str) -> None:
    assert password_problem(text) in {
        None,
        PASSWORD_TOO_SHORT,
        PASSWORD_TOO_LONG,
        PASSWORD_TOO_COMMON,
    }
