"""Credits: an append-only ledger plus the balance on the member, changed in one transaction.

Every change of `Member.credits` is one conditional UPDATE (`credits = credits + amount`, for a
charge only where the balance covers it) beside its ledger line, so concurrent grants and
charges never lose one another, a balance never goes below zero, and the entries of a member
always sum to the balance. A `reference` is unique: a payment or a message is booked once.
`debit` and `charge_line` are the same charge as statements for a caller to chain into its own
(models/chat.py books a message, its charge and its conversation in one statement).
"""

from datetime import datetime

from sqlalchemy import ColumnElement, Insert, Update, func, insert, update
from sqlmodel import Field, Session, SQLModel, select

from models.member import Member, utcnow
from models.upsert import insert_into

# The reference of a ledger line support booked (actions/support.change_credits): this prefix
# and the id of the audit row that keeps support's reason.
SUPPORT_REFERENCE = "support:"


class CreditEntry(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    amount: int
    reason: str = Field(max_length=30)
    reference: str | None = Field(default=None, max_length=100, unique=True)
    created_at: datetime = Field(default_factory=utcnow)


def _add_to_balance(db: Session, member_id: int, amount: int, at_least: int = 0) -> bool:
    """credits += amount where credits >= at_least; False when no row qualified."""
    result = db.exec(
        update(Member)
        .where(Member.id == member_id, Member.credits >= at_least)
        .values(credits=Member.credits + amount)
        .execution_options(synchronize_session="fetch")
    )
    return result.rowcount == 1


def _book_once(db: Session, member_id: int, amount: int, reason: str, reference: str) -> bool:
    """Insert the ledger line unless its reference is booked; False when it was. On PostgreSQL
    a second transaction with the same reference waits for the first, then books nothing,
    so concurrent grants of one payment neither double nor fail."""
    statement = (
        insert_into(db, CreditEntry)
        .values(member_id=member_id, amount=amount, reason=reason, reference=reference)
        .on_conflict_do_nothing(index_elements=["reference"])
        .returning(CreditEntry.id)
    )
    return db.exec(statement).first() is not None


def grant_credits(
    db: Session, member: Member, amount: int, reason: str, reference: str | None = None
) -> bool:
    """Add credits with their ledger line; `reference` makes a grant happen once (False when it
    had happened). Caller commits."""
    if amount <= 0:
        raise ValueError("a grant adds credits")
    if member.id is None:
        db.add(member)
        db.flush()
    if reference is None:
        db.add(CreditEntry(member_id=member.id, amount=amount, reason=reason))
    elif not _book_once(db, member.id, amount, reason, reference):
        return False
    _add_to_balance(db, member.id, amount)
    return True


def charge_credits(db: Session, member_id: int, amount: int, reason: str, reference: str) -> bool:
    """Take `amount` with its ledger line, or nothing and False when the balance is short.
    A charge of 0 books nothing. Caller commits (or rolls back what it charged for)."""
    if amount < 0:
        raise ValueError("a charge takes credits")
    if amount == 0:
        return True
    if not _add_to_balance(db, member_id, -amount, at_least=amount):
        return False
    db.add(CreditEntry(member_id=member_id, amount=-amount, reason=reason, reference=reference))
    return True


def debit(member_id: ColumnElement[int], amount: ColumnElement[int]) -> Update:
    """`charge_credits`' balance change as a statement: RETURNING the new balance, no row when
    the balance is short (or the amount 0: nothing to take)."""
    return (
        update(Member)
        .where(Member.id == member_id, Member.credits >= amount, amount > 0)
        .values(credits=Member.credits - amount)
        .returning(Member.credits)
    )


def charge_line(
    member_id: ColumnElement[int],
    amount: ColumnElement[int],
    reason: ColumnElement[str],
    reference: ColumnElement[str],
    at: ColumnElement[datetime],
) -> Insert:
    """`charge_credits`' ledger line as a statement; none for an amount of 0. The caller rolls
    it back when `debit` returned no row."""
    columns = ("member_id", "amount", "reason", "reference", "created_at")
    line = select(member_id, -amount, reason, reference, at).where(amount > 0)
    return insert(CreditEntry).from_select(columns, line)


def ledger_sum(db: Session, member_id: int) -> int:
    """What the member's ledger adds up to: always their balance."""
    total = db.exec(
        select(func.coalesce(func.sum(CreditEntry.amount), 0)).where(
            CreditEntry.member_id == member_id
        )
    ).one()
    return int(total)
