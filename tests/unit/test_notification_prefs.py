"""Notification preferences and e-mail switched off by the mail system."""

from sqlmodel import Session

from models.member import Member
from models.notification_prefs import (
    NOTIFICATION_KINDS,
    disabled_reasons,
    enable_email_again,
    preferences,
    save_preferences,
)
from tests.factories import make_member


def _stored(db: Session, member: Member) -> Member:
    db.expire_all()
    return db.get(Member, member.id)


def test_contact_notifications_are_on_and_offers_off_by_default(db: Session) -> None:
    """Marketing mail needs an explicit opt-in: "Offers and news" starts unticked."""
    member = make_member(db)
    assert preferences(member) == {kind: kind != "email_offers" for kind in NOTIFICATION_KINDS}


def test_only_explicit_choices_are_stored(db: Session) -> None:
    """Switching another kind stores no consent to offers; switching offers on does."""
    member = make_member(db)
    save_preferences(db, member.id, {"email_likes": False})
    stored = _stored(db, member)
    assert stored.notification_settings == {"email_likes": False}
    assert preferences(stored)["email_offers"] is False
    save_preferences(db, member.id, {"email_offers": True})
    assert preferences(_stored(db, member))["email_offers"] is True


def test_saving_keeps_known_kinds_only(db: Session) -> None:
    member = make_member(db)
    chosen = {"email_likes": False, "push_messages": 0, "is_admin": True, "credits": 500}
    saved = save_preferences(db, member.id, chosen)
    stored = _stored(db, member)
    assert saved == preferences(stored)
    assert set(stored.notification_settings) == {"email_likes", "push_messages"}
    off = {kind for kind, on in preferences(stored).items() if not on}
    assert off == {"email_likes", "push_messages", "email_offers"}
    assert stored.credits == 0


def test_saving_some_kinds_leaves_the_others_as_they_were(db: Session) -> None:
    member = make_member(db)
    save_preferences(db, member.id, {"email_likes": False, "push_likes": False})
    save_preferences(db, member.id, {"push_likes": "yes", "email_offers": None})
    prefs = preferences(_stored(db, member))
    assert (prefs["email_likes"], prefs["push_likes"], prefs["email_offers"]) == (
        False,
        True,
        False,
    )
    assert prefs["email_messages"] is True


def test_preferences_of_one_member_leave_others_alone(db: Session) -> None:
    anna, bert = make_member(db), make_member(db, "bert@example.com")
    save_preferences(db, anna.id, dict.fromkeys(NOTIFICATION_KINDS, True))
    assert all(preferences(_stored(db, anna)).values())
    assert preferences(_stored(db, bert))["email_offers"] is False


def test_disabled_reasons_leave_out_unknown_ones(db: Session) -> None:
    member = make_member(db, notifications_disabled=["bounce", "weird", "spam", ""])
    assert disabled_reasons(member) == ["bounce", "spam"]
    member.notifications_disabled = None
    assert disabled_reasons(member) == []


def test_enabling_email_again_clears_every_reason(db: Session) -> None:
    member = make_member(db, notifications_disabled=["unsubscribe", "bounce"])
    other = make_member(db, "bert@example.com", notifications_disabled=["spam"])
    enable_email_again(db, member.id)
    assert _stored(db, member).notifications_disabled == []
    assert disabled_reasons(_stored(db, other)) == ["spam"]
