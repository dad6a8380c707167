"""Credits: an append-only ledger plus the balance on the member, changed in one transaction."""

from datetime import datetime

from sqlmodel import Field, Session, SQLModel, select

from models.member import Member, utcnow


class CreditEntry(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    amount: int
    reason: str = Field(max_length=30)
    reference: str | None = Field(default=None, max_length=100, unique=True)
    created_at: datetime = Field(default_factory=utcnow)


def grant_credits(
    db: Session, member: Member, amount: int, reason: str, reference: str | None = None
) -> None:
    """Add credits with their ledger line; `reference` makes a grant happen once. Caller commits."""
    if amount <= 0:
        raise ValueError("a grant adds credits")
    if reference and db.exec(select(CreditEntry).where(CreditEntry.reference == reference)).first():
        return
    db.add(CreditEntry(member_id=member.id, amount=amount, reason=reason, reference=reference))
    member.credits += amount
    db.add(member)
