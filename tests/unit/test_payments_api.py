"""The payment routes: GET /api/discountcode.php (a code for the signed-in member, or the
welcome code) and POST /api/payments/webhook (only an id, checked and bounded)."""

from datetime import timedelta
from functools import partial

import pytest
from sqlalchemy import Engine
from sqlmodel import Session
from starlette.testclient import TestClient

import actions.payment_flow as payment_flow
from actions.code_tries import try_code
from actions.runner import act
from actions.viewer import SESSION_COOKIE, Viewer
from models.auth_session import start_session
from models.discount_codes import DiscountCode, seed_discount_codes
from models.member import utcnow
from tests.concurrency import at_once, postgres_only
from tests.factories import committed, make_member
from translations.errors import DISCOUNT_CODE_NOT_FOUND, TOO_MANY_CODES


def log_in(client: TestClient, db: Session, **fields) -> None:
    member = make_member(db, fields.pop("email", "anna@example.com"), **fields)
    client.cookies.set(SESSION_COOKIE, committed(db, start_session, member.id))


def test_codes_are_for_signed_in_members_only(client: TestClient) -> None:
    for query in ("code=SPRING20", "welcome=true"):
        answer = client.get(f"/api/discountcode.php?{query}")
        assert answer.status_code == 403 and answer.json() == {"error": "authentication_required"}


def test_a_code_answers_with_its_percentage_or_why_not(client: TestClient, db: Session) -> None:
    db.add(DiscountCode(code="SPRING20", value_percentage=20, expires_at=utcnow() + timedelta(1)))
    db.commit()
    log_in(client, db, language="nl")
    found = client.get("/api/discountcode.php?code=spring20")
    assert found.status_code == 200 and found.headers["cache-control"] == "no-store"
    assert found.json()["discountcode"] == {
        "code": "SPRING20", "value_percentage": 20, "percentage": 20
    }  # fmt: skip
    missing = client.get("/api/discountcode.php?code=" + "X" * 5000)
    assert missing.status_code == 404 and missing.json() == {"error": "Code niet gevonden"}


def test_code_lookups_are_throttled_per_member(client: TestClient, db: Session) -> None:
    """100 guesses in a few seconds were all answered: now 10 codes that do not apply in 15
    minutes, then even a good code waits, with the wait in the member's language."""
    db.add(DiscountCode(code="SPRING20", value_percentage=20, expires_at=utcnow() + timedelta(1)))
    db.commit()
    log_in(client, db, language="nl")
    guesses = [client.get(f"/api/discountcode.php?code=GUESS{n}") for n in range(100)]
    assert [g.status_code for g in guesses] == [404] * 10 + [429] * 90
    assert guesses[10].json() == {
        "error": "Je hebt te veel codes geprobeerd. Probeer het over 15 min opnieuw."
    }
    assert client.get("/api/discountcode.php?code=SPRING20").status_code == 429
    log_in(client, db, email="other@example.com")  # another member: the address has 30
    assert client.get("/api/discountcode.php?code=SPRING20").status_code == 200


async def test_code_lookups_are_throttled_per_client_address(db: Session) -> None:
    db.add(DiscountCode(code="SPRING20", value_percentage=20, expires_at=utcnow() + timedelta(1)))
    db.commit()
    members = [make_member(db, f"m{n}@example.com") for n in range(4)]
    viewers = [Viewer(m.id, m.status, "en", m.paid_user) for m in members]
    for viewer in viewers[:3]:  # three members behind one address, ten misses each
        for n in range(10):
            answer = await act(try_code, viewer, f"GUESS{n}", None, "en", "198.51.100.7")
            assert answer.error == DISCOUNT_CODE_NOT_FOUND
    behind = await act(try_code, viewers[3], "SPRING20", None, "en", "198.51.100.7")
    assert (behind.error, dict(behind.error_params)) == (TOO_MANY_CODES, {"minutes": "15"})
    elsewhere = await act(try_code, viewers[3], "SPRING20", None, "en", "203.0.113.9")
    assert (elsewhere.error, elsewhere.percentage) == ("", 20)


@pytest.mark.parametrize(("members", "tries", "misses"), [(1, 25, 10), (40, 40, 30)])
def test_code_lookups_at_the_same_moment_count_each_other(
    engine: Engine, db: Session, members: int, tries: int, misses: int
) -> None:
    """Guesses sent at once are counted as if they came one by one: 10 misses per member,
    30 per client address (25 at once from one member were all answered before the lock)."""
    postgres_only(engine)
    viewers = [
        Viewer(m.id, m.status, "en", m.paid_user)
        for m in (make_member(db, f"m{n}@example.com") for n in range(members))
    ]
    calls = [
        partial(try_code, viewers[n % members], f"GUESS{n}", None, "en", "198.51.100.7")
        for n in range(tries)
    ]
    errors = [done.value.error for done in at_once(calls)]
    assert errors.count(DISCOUNT_CODE_NOT_FOUND) == misses
    assert errors.count(TOO_MANY_CODES) == tries - misses


def test_the_welcome_code_is_for_members_who_have_not_paid(client: TestClient, db: Session) -> None:
    committed(db, seed_discount_codes)
    log_in(client, db)
    welcome = client.get("/api/discountcode.php?welcome=true")
    assert welcome.json()["discountcode"]["value_percentage"] == 10
    log_in(client, db, email="paid@example.com", paid_user=True)
    assert client.get("/api/discountcode.php?welcome=true").status_code == 404


@pytest.mark.parametrize(
    "body",
    [b"", b"id=", b"id=re_123", b"id=tr_1&id=tr_2", b"id=tr_" + b"a" * 100, b"x" * 5000],
)
def test_a_webhook_carries_one_payment_id_or_is_refused(client: TestClient, body: bytes) -> None:
    headers = {"content-type": "application/x-www-form-urlencoded"}
    assert client.post("/api/payments/webhook", content=body, headers=headers).status_code == 400


def test_a_webhook_for_a_payment_of_no_order_is_answered_without_asking(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_calls():
        raise AssertionError("the provider was asked about a stranger's id")

    monkeypatch.setattr(payment_flow, "payment_client", no_calls)
    answer = client.post("/api/payments/webhook", data={"id": "tr_unknown1"})
    assert answer.status_code == 200
