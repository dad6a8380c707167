"""The payment routes: GET /api/discountcode.php (a code for the signed-in member, or the
welcome code) and POST /api/payments/webhook (only an id, checked and bounded)."""

from datetime import timedelta

import pytest
from sqlmodel import Session
from starlette.testclient import TestClient

import actions.payment_flow as payment_flow
from actions.viewer import SESSION_COOKIE
from models.auth_session import start_session
from models.discount_codes import DiscountCode, seed_discount_codes
from models.member import utcnow
from tests.factories import committed, make_member


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
