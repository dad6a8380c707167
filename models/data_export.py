"""A member's copy of their own data (GDPR Art. 15 and 20): asked for with the password, at most
once in 24 hours, built in the background, downloadable for 48 hours with the mailed link and
only by the member it belongs to, then forgotten (the file and the link's token). A build that
failed blocks nothing: after BUILD_TIME its request no longer counts and the purge drops it."""

from datetime import datetime, timedelta

from sqlmodel import Field, Session, SQLModel, col, delete, or_, select

from models.account_errors import AccountError
from models.auth_session import hash_token, new_token
from models.login import WRONG_PASSWORD, check_password
from models.member import Member, MemberStatus, as_utc, utcnow
from translations.catalog import N_

ONE_A_DAY = N_(
    "You asked for a copy of your data less than 24 hours ago. You can ask again after that."
)
DOWNLOAD_PATH = "/api/data-export.php"  # app/data_export_api.py, linked from the mail
REQUEST_INTERVAL = timedelta(hours=24)
LINK_LIFETIME = timedelta(hours=48)
BUILD_TIME = timedelta(minutes=30)  # a build takes seconds; one unfinished after this failed
PASSWORD_FIELD = "export_password"


class DataExport(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    member_id: int = Field(foreign_key="member.id", index=True, ondelete="CASCADE")
    requested_at: datetime = Field(default_factory=utcnow)
    ready_at: datetime | None = None
    token_hash: str | None = Field(default=None, max_length=64, unique=True)
    file_name: str | None = Field(default=None, max_length=80)
    expires_at: datetime | None = Field(default=None, index=True)


def start_export(db: Session, member_id: int, password: str, client: str) -> DataExport:
    """The request's row once the password is right and the last request is 24 hours old.
    The password is checked before the member's row is locked (the hash takes a while); a
    wrong one counts like a log-in's, for the account and for `client` (its address key).
    Two requests at once: the row lock makes the second see the first. Caller commits."""
    member = _active(db.get(Member, member_id))
    check_password(db, member, password, WRONG_PASSWORD, PASSWORD_FIELD, client)
    db.refresh(member, with_for_update=True)
    _active(member)
    now = utcnow()
    if _counted_request_within_a_day(db, member_id, now):
        raise AccountError(ONE_A_DAY, PASSWORD_FIELD)
    export = DataExport(member_id=member_id, requested_at=now)
    db.add(export)
    db.flush()
    return export


def _active(member: Member | None) -> Member:
    if member is None or member.status != MemberStatus.ACTIVE:
        raise AccountError(WRONG_PASSWORD, PASSWORD_FIELD)
    return member


def _counted_request_within_a_day(db: Session, member_id: int, now: datetime) -> bool:
    """A request of the last 24 hours that was built, or may still be building."""
    counted = or_(col(DataExport.ready_at).is_not(None), DataExport.requested_at > now - BUILD_TIME)
    query = select(DataExport.id).where(
        DataExport.member_id == member_id, DataExport.requested_at > now - REQUEST_INTERVAL, counted
    )
    return db.exec(query.limit(1)).first() is not None


def finish_export(db: Session, export_id: int, file_name: str) -> str | None:
    """Record the built file; the download link's token (None when the row is gone: the
    account was erased meanwhile, or the build outlasted BUILD_TIME; or when another run of
    the build recorded its own). Caller commits."""
    export = db.get(DataExport, export_id, with_for_update=True)
    if export is None or export.ready_at is not None:
        return None
    token, now = new_token(), utcnow()
    export.token_hash, export.file_name = hash_token(token), file_name
    export.ready_at, export.expires_at = now, now + LINK_LIFETIME
    db.add(export)
    db.flush()
    return token


def downloadable_export(db: Session, member_id: int, token: str) -> DataExport | None:
    """The export the link names, when it belongs to `member_id` and has not expired."""
    if not token:
        return None
    export = db.exec(select(DataExport).where(DataExport.token_hash == hash_token(token))).first()
    if export is None or export.member_id != member_id or export.file_name is None:
        return None
    return export if as_utc(export.expires_at) > utcnow() else None


def forget_failed_builds(db: Session, now: datetime) -> int:
    """Drop the requests still unfinished BUILD_TIME after they were made (their build failed);
    how many. Caller commits."""
    failed = delete(DataExport).where(
        col(DataExport.ready_at).is_(None), DataExport.requested_at <= now - BUILD_TIME
    )
    return db.exec(failed).rowcount


def named_files(db: Session) -> set[str]:
    """The archive files the rows name (the others in the folder are strays)."""
    return set(db.exec(select(DataExport.file_name).where(col(DataExport.file_name).is_not(None))))


def expire_exports(db: Session, now: datetime) -> list[str]:
    """Forget the links and files of exports past their 48 hours; the file names to delete
    after the commit. The rows stay: they date the last request. Caller commits."""
    expired = db.exec(
        select(DataExport).where(
            DataExport.expires_at <= now,  # type: ignore[operator]
            DataExport.file_name.is_not(None),  # type: ignore[union-attr]
        )
    ).all()
    names = [export.file_name for export in expired if export.file_name]
    for export in expired:
        export.token_hash = export.file_name = None
        db.add(export)
    db.flush()
    return names
