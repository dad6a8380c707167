"""/staff/photos (issue 29): a moderator sees the review queue, approves a photo (audited), or
rejects it with a ground and the facts: a moderation decision that removes the photo
everywhere, remembers its hash and sends the member the statement of reasons."""

from sqlmodel import Session, select

from actions.effects import settle
from models.audit import AuditEntry
from models.auth_session import AuthSession
from models.member import Member, Photo, Profile
from models.moderation import CaseStatus, Decision, RejectedPhotoHash, Report
from models.photo_review import record_score
from models.photos import PhotoStatus
from models.staff import Role
from state.i18n import I18nState
from state.staff_photos import StaffPhotosState
from tests.factories import add_photo, make_member
from tests.state.conftest import run, substate
from tests.state.test_signup_state import fresh
from tests.state.test_staff_authorization import allowed_cookie

PHASH = "c3a5f00f0ff0e1d2"


async def review_tab(make_root, db: Session, role: Role = Role.MODERATOR) -> StaffPhotosState:
    """/staff/photos of a staff member past the code, loaded."""
    token = allowed_cookie(db, role)
    root = make_root(url="/staff/photos", cookie=f"auth.session={token}")
    substate(root, I18nState).locale = "en"
    tab = substate(root, StaffPhotosState)
    await run(tab.load())
    return tab


def staff_id(db: Session) -> int:
    return db.exec(select(AuthSession.member_id).order_by(AuthSession.id.desc())).first()


def waiting_photo(db: Session, member: Member, stem: str = "w") -> Photo:
    photo = add_photo(db, member, stem)
    photo.status, photo.phash = PhotoStatus.PENDING, PHASH
    db.add(photo)
    db.commit()
    return photo


async def test_the_queue_lists_pending_photos_with_their_flag(make_root, db, outbox) -> None:
    anna = make_member(db, "anna@example.com")
    plain, flagged = waiting_photo(db, anna, "a"), waiting_photo(db, anna, "b")
    record_score(db, flagged.id, flagged.filename, 0.93, "post")
    db.commit()
    tab = await review_tab(make_root, db)
    assert [row["id"] for row in tab.rows] == [flagged.id, plain.id]
    first = tab.rows[0]
    assert (first["category"], first["score"], first["status"]) == (
        "explicit_photo",
        93,
        "pending",
    )
    assert first["url"].endswith("/photos/b.jpg") and first["name"] == "Anna"
    assert tab.moderation == "post" and tab.has_next is False


async def test_approving_shows_the_photo_and_is_audited(make_root, db, outbox) -> None:
    anna = make_member(db, "anna@example.com")
    photo = waiting_photo(db, anna)
    tab = await review_tab(make_root, db)
    await run(tab.approve(photo.id))
    fresh(db)
    assert db.get(Photo, photo.id).status == PhotoStatus.APPROVED
    assert db.get(Profile, anna.id).main_photo_id == photo.id
    entry = db.exec(select(AuditEntry).where(AuditEntry.action == "photo.approve")).one()
    assert (entry.actor_id, entry.actor_role, entry.target_id) == (
        staff_id(db),
        Role.MODERATOR,
        photo.id,
    )
    assert (entry.before, entry.after) == ({"status": "pending"}, {"status": "approved"})
    assert tab.rows == []


async def test_rejecting_removes_the_photo_by_a_decision_with_a_statement(
    make_root, db, outbox
) -> None:
    anna = make_member(db, "anna@example.com")
    kept = add_photo(db, anna, "k", main=True)
    photo = waiting_photo(db, anna)
    record_score(db, photo.id, photo.filename, 0.9, "post")
    db.commit()
    tab = await review_tab(make_root, db)
    await run(tab.open_reject(photo.id))
    assert tab.rejecting == photo.id
    form = {"ground_type": "terms", "rule": "4", "facts": "Nudity in the photo."}
    await run(tab.reject(form))
    await settle()
    fresh(db)
    assert db.get(Photo, photo.id).status == PhotoStatus.REJECTED
    assert db.get(Profile, anna.id).main_photo_id == kept.id
    decision = db.exec(select(Decision)).one()
    assert (decision.measure, decision.content_type, decision.content_id) == (
        "remove_content",
        "photo",
        photo.id,
    )
    assert (decision.ground, decision.facts, decision.member_id) == ("4", form["facts"], anna.id)
    assert decision.automated_detection is True  # the classifier's report started the case
    assert db.exec(select(Report)).one().status == CaseStatus.DECIDED
    assert db.get(RejectedPhotoHash, PHASH).decision_id == decision.id
    assert [mail["To"] for mail in outbox()] == ["anna@example.com"]
    assert tab.rejecting == 0
    assert [row["id"] for row in tab.rows] == [kept.id]  # post-moderation: not reviewed yet


async def test_a_reject_without_facts_is_refused_and_changes_nothing(make_root, db, outbox) -> None:
    photo = waiting_photo(db, make_member(db, "anna@example.com"))
    tab = await review_tab(make_root, db)
    await run(tab.open_reject(photo.id))
    await run(tab.reject({"ground_type": "terms", "rule": "4", "facts": "  "}))
    assert set(tab.errors) == {"facts"}
    fresh(db)
    assert db.get(Photo, photo.id).status == PhotoStatus.PENDING
    assert db.exec(select(Decision)).all() == []


async def test_ids_from_the_browser_are_checked(make_root, db, outbox) -> None:
    photo = waiting_photo(db, make_member(db, "anna@example.com"))
    tab = await review_tab(make_root, db)
    await run(tab.approve("1; drop table photo"))
    await run(tab.approve(10_000))
    await run(tab.reject({"ground_type": "terms", "rule": "4", "facts": "x"}))  # none open
    fresh(db)
    assert db.get(Photo, photo.id).status == PhotoStatus.PENDING
    assert db.exec(select(AuditEntry)).all() == [] and db.exec(select(Decision)).all() == []
