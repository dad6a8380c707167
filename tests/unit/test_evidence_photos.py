"""A photo report's photo in the staff console (app/staff_api.evidence_photo): served from the
evidence kept after its member deleted it, only to a moderator or admin in a live staff session
(everyone else a plain 404), never cached, each look audited; and the evidence deleted by the
hourly purge once no report keeps it (models/evidence.py: open case, open appeal, six months
after the decision)."""

# ruff: noqa: F811 - the photo folder fixture is imported, then asked for by name

from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

from actions.moderation_reads import report_case
from app.staff_api import VIEWED_EVIDENCE_PHOTO
from models.audit import AuditEntry
from models.evidence import KEPT_AFTER_DECISION
from models.member import utcnow
from models.moderation import Appeal, Decision, Report
from models.staff import Role
from models.staff_tools import MODERATION, evidence_url
from services.config import get_config
from services.member_photos import delete_spent_evidence
from tests.factories import make_member
from tests.staff_people import allowed_cookie, refused_cookies
from tests.unit.test_photo_route import photo_dir  # noqa: F401 - a fixture
from tests.unit.test_staff_console_routes import client_with

JPEG = b"\xff\xd8evidence"


def photo_report(db: Session, photo: str, **fields) -> Report:
    report = Report(
        reference=f"E{photo[:10]}",
        source="report",
        category="explicit_photo",
        content_type="photo",
        content_id=7,
        reported_id=fields.pop("reported_id", None),
        snapshot={"photo": f"{photo}.jpg", "phash": ""},
        **fields,
    )
    db.add(report)
    db.commit()
    return report


def evidence_dir() -> Path:
    return get_config().media_dir / "evidence"


def kept_as_evidence(*names: str) -> Path:
    folder = evidence_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_bytes(JPEG)
    return folder


def decided(db: Session, report: Report, ago: timedelta) -> Decision:
    decision = Decision(
        puid=f"P{report.id}",
        member_id=None,
        measure="remove_content",
        content_type="photo",
        category="explicit_photo",
        source="report",
        decided_at=utcnow() - ago,
    )
    db.add(decision)
    db.commit()
    report.status, report.decision_id, report.decided_at = "decided", decision.id, utcnow() - ago
    db.add(report)
    db.commit()
    return decision


# ----- the route -----


def test_the_evidence_is_refused_to_all_but_moderators_and_admins(db: Session, photo_dir: Path):
    report = photo_report(db, "gone1")
    kept_as_evidence("gone1.jpg")
    for who, token in refused_cookies(db, frozenset(MODERATION)).items():
        answer = client_with(token).get(evidence_url(report.id))
        assert answer.status_code == 404, who
        assert answer.content != JPEG
    assert db.exec(select(AuditEntry)).all() == []


@pytest.mark.parametrize("role", MODERATION)
def test_a_moderator_sees_the_deleted_photo_uncached_and_audited(
    db: Session, photo_dir: Path, role: Role
):
    report = photo_report(db, "gone2")
    kept_as_evidence("gone2.jpg")

    answer = client_with(allowed_cookie(db, role)).get(evidence_url(report.id))

    assert (answer.status_code, answer.content) == (200, JPEG)
    assert answer.headers["cache-control"] == "no-store"
    (row,) = db.exec(select(AuditEntry)).all()
    assert (row.action, row.target_type, row.target_id, row.actor_role) == (
        VIEWED_EVIDENCE_PHOTO,
        "report",
        report.id,
        role,
    )


def test_a_photo_still_on_the_profile_is_served_and_nothing_else(db: Session, photo_dir: Path):
    live = photo_report(db, "live1")
    photo_dir.mkdir(parents=True, exist_ok=True)
    (photo_dir / "live1.jpg").write_bytes(JPEG)
    gone = photo_report(db, "purged1")  # past its retention: no file left
    profile = Report(reference="EPROFILE", source="report", category="spam", content_type="profile")
    db.add(profile)
    db.commit()
    client = client_with(allowed_cookie(db, Role.MODERATOR))

    assert client.get(evidence_url(live.id)).content == JPEG
    for report_id in (gone.id, profile.id, 999_999, "x"):
        assert client.get(f"/api/staff/evidence/{report_id}").status_code == 410
    assert len(db.exec(select(AuditEntry)).all()) == 1  # only the photo shown


def test_a_photo_case_shows_the_photo_through_the_staff_route(db: Session, photo_dir: Path):
    member = make_member(db)
    report = photo_report(db, "gone3", reported_id=member.id)

    case = report_case(report.id, utcnow().date())

    assert case is not None and case.report["evidence_url"] == f"/api/staff/evidence/{report.id}"


# ----- the cleanup -----


def test_evidence_goes_once_no_report_keeps_it(db: Session, photo_dir: Path):
    photo_report(db, "open1")  # open case
    decided(db, photo_report(db, "recent1"), KEPT_AFTER_DECISION - timedelta(days=1))
    decided(db, photo_report(db, "old1"), KEPT_AFTER_DECISION + timedelta(days=1))
    appealed = decided(db, photo_report(db, "appealed1"), KEPT_AFTER_DECISION * 2)
    db.add(Appeal(decision_id=appealed.id, text="Not me.", by_notifier=False))
    db.commit()
    stems = ("open1", "recent1", "old1", "appealed1", "stray1")
    files = [f"{stem}{end}" for stem in stems for end in (".jpg", "_t.jpg")]
    folder = kept_as_evidence(*files, "notes.txt")

    assert delete_spent_evidence(utcnow()) == 2  # the old decision's photo and the stray

    assert sorted(p.name for p in folder.iterdir()) == [
        "appealed1.jpg",
        "appealed1_t.jpg",
        "notes.txt",
        "open1.jpg",
        "open1_t.jpg",
        "recent1.jpg",
        "recent1_t.jpg",
    ]


def test_no_evidence_folder_is_nothing_to_do(photo_dir: Path):
    assert not evidence_dir().exists()
    assert delete_spent_evidence(utcnow()) == 0
