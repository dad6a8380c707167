"""The tab's answer to a newer version of the terms: a visitor's click writes nothing, a
member's records the version in force for both documents and closes the question."""

from datetime import date

from sqlmodel import Session, select

from models.auth_session import start_session
from models.consent import Consent
from models.site_settings import save_setting
from services.site_settings import forget_cached_settings
from state.session import SessionState
from state.terms_update import TermsUpdateState
from tests.factories import committed, make_member
from tests.state.conftest import substate


def _publish(db: Session, day: str) -> None:
    committed(db, save_setting, "company_added", day)
    forget_cached_settings()


async def test_a_visitor_accepts_nothing(make_root, db: Session) -> None:
    await substate(make_root(), TermsUpdateState).accept()
    assert db.exec(select(Consent)).all() == []


async def test_a_member_asked_for_a_new_version_accepts_it(make_root, db: Session) -> None:
    member = make_member(db)
    root = make_root(cookie=f"auth.session={committed(db, start_session, member.id)}")
    _publish(db, "2099-01-01")
    session = substate(root, SessionState)
    await session._load()
    assert session.terms_pending

    await substate(root, TermsUpdateState).accept()

    assert not session.terms_pending
    db.rollback()
    assert sorted((c.document, c.version) for c in db.exec(select(Consent))) == [
        ("privacy", date(2099, 1, 1)),
        ("terms", date(2099, 1, 1)),
    ]
    await session._load()
    assert not session.terms_pending
