"""Discount codes (spec section 3). A code is personal when it has a member; `validity`
'once-per-user' means it can be redeemed once. Checkout (payments) redeems them."""

import secrets
from datetime import datetime, timedelta

from sqlmodel import Field, Session, SQLModel, select

from models.member import utcnow

RETENTION_PREFIX = "STAY"
RETENTION_VALID = timedelta(days=30)
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud to support


class DiscountCode(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(max_length=40, unique=True, index=True)
    member_id: int | None = Field(default=None, foreign_key="member.id", ondelete="CASCADE")
    value_percentage: int
    validity: str = Field(default="once-per-user", max_length=20)
    status: str = Field(default="active", max_length=10)
    country: str | None = Field(default=None, max_length=2)
    currency: str | None = Field(default=None, max_length=3)
    minimum_order_value: int = 0  # in cents
    expires_at: datetime
    created_at: datetime = Field(default_factory=utcnow)


def _random_code(prefix: str) -> str:
    return f"{prefix}-" + "".join(secrets.choice(_ALPHABET) for _ in range(6))


def retention_code(db: Session, member_id: int, percentage: int) -> DiscountCode:
    """The member's active stay-with-us code, created once; asking again returns the same one."""
    query = select(DiscountCode).where(
        DiscountCode.member_id == member_id,
        DiscountCode.code.startswith(f"{RETENTION_PREFIX}"),  # type: ignore[attr-defined]
        DiscountCode.status == "active",
        DiscountCode.expires_at > utcnow(),
    )
    if existing := db.exec(query).first():
        return existing
    code = DiscountCode(
        code=_random_code(f"{RETENTION_PREFIX}{percentage}"),
        member_id=member_id,
        value_percentage=percentage,
        expires_at=utcnow() + RETENTION_VALID,
    )
    db.add(code)
    db.flush()
    return code
