"""The credit ledger: grants and charges change the balance and the ledger together."""

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from models.credits import CreditEntry, charge_credits, grant_credits, ledger_sum
from models.member import Member
from tests.factories import make_member


def _balance(db: Session, member_id: int) -> int:
    db.expire_all()
    return db.get(Member, member_id).credits


def test_grant_and_charge_keep_the_ledger_equal_to_the_balance(db: Session) -> None:
    member = make_member(db)
    grant_credits(db, member, 30, "purchase", "payment:1")
    assert charge_credits(db, member.id, 5, "text", "message:1")
    db.commit()
    assert _balance(db, member.id) == 25 == ledger_sum(db, member.id)
    amounts = db.exec(select(CreditEntry.amount).where(CreditEntry.member_id == member.id)).all()
    assert sorted(amounts) == [-5, 30]


def test_a_charge_never_takes_the_balance_below_zero(db: Session) -> None:
    member = make_member(db)
    grant_credits(db, member, 7, "signup")
    db.commit()
    assert charge_credits(db, member.id, 5, "text", "message:1")
    assert not charge_credits(db, member.id, 5, "text", "message:2")
    db.commit()
    assert _balance(db, member.id) == 2 == ledger_sum(db, member.id)


def test_a_reference_is_booked_once(db: Session) -> None:
    member = make_member(db)
    assert grant_credits(db, member, 10, "purchase", "payment:7")
    assert not grant_credits(db, member, 10, "purchase", "payment:7")
    db.commit()
    assert _balance(db, member.id) == 10 == ledger_sum(db, member.id)


def test_a_grant_to_a_new_member_lands_on_its_row(db: Session) -> None:
    member = Member(email="new@example.com")
    grant_credits(db, member, 10, "signup")
    db.commit()
    assert _balance(db, member.id) == 10 == ledger_sum(db, member.id)


@pytest.mark.parametrize("amount", [0, -1])
def test_grants_add_and_charges_take(db: Session, amount: int) -> None:
    member = make_member(db)
    with pytest.raises(ValueError):
        grant_credits(db, member, amount, "purchase")
    with pytest.raises(ValueError):
        charge_credits(db, member.id, -1, "text", "x")
    assert charge_credits(db, member.id, 0, "text", "free")  # nothing to book
    db.commit()
    assert ledger_sum(db, member.id) == 0 == _balance(db, member.id)


def test_twenty_grants_of_one_reference_at_once_grant_once(engine: Engine, db: Session) -> None:
    """Two webhooks for one payment may arrive together: one grant, and no error for either."""
    if engine.dialect.name != "postgresql":
        pytest.skip("parallel transactions are a PostgreSQL matter; SQLite runs one writer")
    member = make_member(db)
    start = Barrier(20)

    def grant(_: int) -> bool:
        with Session(engine, expire_on_commit=False) as own:
            start.wait()
            granted = grant_credits(own, own.get(Member, member.id), 40, "purchase", "payment:9")
            own.commit()
            return granted

    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(grant, range(20)))
    assert results.count(True) == 1
    assert _balance(db, member.id) == 40 == ledger_sum(db, member.id)
