"""Which version of the terms and the privacy statement a member accepted, and when: one row
per document and version, written at signup and whenever a logged-in member accepts a newer
version (the version is the date of models/site_settings.terms_version_date)."""

from datetime import date, datetime

from sqlalchemy import UniqueConstraint, func
from sqlmodel import Field, Session, SQLModel, select

from models.member import utcnow
from models.upsert import insert_into

LEGAL_DOCUMENTS = ("terms", "privacy")  # accepted together, one version date for both
ADDRESS_LENGTH = 64


class Consent(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("member_id", "document", "version", name="uq_consent"),)

    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    document: str = Field(max_length=20)
    version: date
    accepted_at: datetime = Field(default_factory=utcnow)
    address: str = Field(default="", max_length=ADDRESS_LENGTH)


def accepted_version_query(member_id: int):
    """The newest terms version the member accepted (NULL for none), as a scalar subquery."""
    return (
        select(func.max(Consent.version))
        .where(Consent.member_id == member_id, Consent.document == "terms")
        .scalar_subquery()
    )


def record_consent(db: Session, member_id: int, version: date, address: str) -> None:
    """Both documents accepted in `version`; a version already recorded (another tab accepted
    it a moment ago) stays as it was. Caller commits."""
    rows = [
        {
            "member_id": member_id,
            "document": document,
            "version": version,
            "accepted_at": utcnow(),
            "address": address[:ADDRESS_LENGTH],
        }
        for document in LEGAL_DOCUMENTS
    ]
    db.exec(insert_into(db, Consent).values(rows).on_conflict_do_nothing())


def terms_pending(accepted: date | None, signed_up: datetime, current: date) -> bool:
    """A member must accept `current` first when they accepted an older version. A member with
    no row signed up before consents were recorded: the signup form's note made them accept
    the version in force then, so they are asked only when the version is newer than that."""
    return current > (accepted or signed_up.date())
