"""The console's HTTP side: the transparency CSV only for a moderator or admin in a live staff
session (visitors, members, support and a session without the second factor get a plain 404),
and the photo route showing moderators every stored photo's original, pending and rejected ones
too, never cached, while members still get nothing of them."""

# ruff: noqa: F811 - the photo folder fixture is imported, then asked for by name

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlmodel import Session, select
from starlette.testclient import TestClient

from actions.viewer import SESSION_COOKIE
from app.http_api import http_api
from models.auth_session import AuthSession, hash_token, start_session
from models.member import Member, utcnow
from models.moderation import Report
from models.staff import Role, StaffRole
from models.staff_tools import TRANSPARENCY_CSV
from services.photo_pipeline import store_photo
from services.photo_store_local import LocalFolder
from tests.factories import add_photo, committed, make_member
from tests.unit.test_photo_route import noise_image, photo_dir  # noqa: F401 - a fixture


def staff_session(db: Session, member: Member, role: Role | None, verified: bool = True) -> str:
    """A session cookie of `member` holding `role`, past the second factor unless not
    `verified`."""
    if role is not None:
        db.add(StaffRole(member_id=member.id, role=role))
    token = committed(db, start_session, member.id)
    row = db.exec(select(AuthSession).where(AuthSession.token_hash == hash_token(token))).one()
    row.last_seen_at = utcnow()
    row.second_factor_at = utcnow() if verified else None
    db.add(row)
    db.commit()
    return token


def client_with(token: str | None) -> TestClient:
    client = TestClient(http_api(), base_url="https://testserver")
    if token:
        client.cookies.set(SESSION_COOKIE, token)
    return client


CSV_MAY = f"{TRANSPARENCY_CSV}?start=2026-05-01&end=2026-05-31"


@pytest.mark.parametrize(
    ("role", "verified"),
    [(None, True), (Role.SUPPORT, True), (Role.MODERATOR, False), (Role.ADMIN, False)],
)
def test_the_csv_is_refused_to_all_but_verified_moderators_and_admins(
    db: Session, role: Role | None, verified: bool
):
    token = staff_session(db, make_member(db), role, verified)

    assert client_with(token).get(CSV_MAY).status_code == 404
    assert client_with(None).get(CSV_MAY).status_code == 404


@pytest.mark.parametrize("role", [Role.MODERATOR, Role.ADMIN])
def test_a_moderator_downloads_the_counters_as_csv(db: Session, role: Role):
    token = staff_session(db, make_member(db), role)
    db.add(
        Report(
            reference="CSV00001",
            source="notice",
            category="hate",
            content_type="profile",
            created_at=datetime(2026, 5, 3, tzinfo=UTC),
        )
    )
    db.commit()

    response = client_with(token).get(CSV_MAY)

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert response.headers["cache-control"] == "no-store"
    assert "transparency-2026-05-01-2026-05-31.csv" in response.headers["content-disposition"]
    lines = response.text.splitlines()
    assert lines[0] == "section,key,value"
    assert "notices,hate,1" in lines and "period,end,2026-05-31" in lines


@pytest.mark.parametrize("status", ["pending", "rejected"])
def test_moderators_see_photos_nobody_else_sees_uncached(
    db: Session,
    photo_dir: Path,
    status: str,
):
    owner = make_member(db, "bert@example.com")
    stored = store_photo(noise_image(7), LocalFolder(photo_dir))
    photo = add_photo(db, owner, stored.filename.removesuffix(".jpg"))
    photo.status = status
    db.add(photo)
    db.commit()
    path = f"/media/photos/{stored.filename}"
    member = staff_session(db, make_member(db, "anna@example.com"), None)
    support = staff_session(db, make_member(db, "sue@example.com"), Role.SUPPORT)
    moderator = staff_session(db, make_member(db, "mo@example.com"), Role.MODERATOR)
    unverified = staff_session(db, make_member(db, "un@example.com"), Role.MODERATOR, False)

    for token in (None, member, support, unverified):
        assert client_with(token).get(path).status_code == 404

    response = client_with(moderator).get(path)
    assert response.status_code == 200
    assert response.content == (photo_dir / stored.filename).read_bytes()
    assert response.headers["cache-control"] == "no-store"
