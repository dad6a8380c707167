"""Members accept the terms and the privacy statement at signup and again when a newer version
is published (the version date follows the spec: 2023-12-01, or the company's added-date)."""

from datetime import UTC, date, datetime

import pytest
from sqlmodel import Session, select

from actions.consent import accept_terms
from actions.session import nav_facts
from actions.signup import Arrival, sign_up
from actions.viewer import Viewer
from models.auth_session import start_session
from models.consent import Consent, terms_pending
from models.signup import SignupForm
from models.site_settings import save_setting
from services.site_settings import forget_cached_settings
from tests.factories import PASSWORD, committed, make_member


@pytest.fixture
def published(db: Session):
    """Publish a version of the terms by the company's added-date."""

    def publish(day: str) -> None:
        committed(db, save_setting, "company_added", day)
        forget_cached_settings()

    yield publish
    forget_cached_settings()


def _consents(db: Session, member_id: int) -> list[tuple[str, date, str]]:
    db.rollback()
    rows = db.exec(select(Consent).where(Consent.member_id == member_id).order_by(Consent.document))
    return [(row.document, row.version, row.address) for row in rows]


def test_signing_up_records_both_documents_with_the_version_and_the_address(db: Session) -> None:
    form = SignupForm("ann@example.com", "Sunny Ann", PASSWORD, "1990-05-17", "female", "male")
    new = sign_up(form, Arrival("nl", "NL", {}, None, "203.0.113.9")).value
    assert _consents(db, new.member_id) == [
        ("privacy", date(2023, 12, 1), "203.0.113.9"),
        ("terms", date(2023, 12, 1), "203.0.113.9"),
    ]


@pytest.mark.parametrize(
    ("accepted", "signed_up", "current", "pending"),
    [(date(2023, 12, 1), datetime(2024, 1, 1, tzinfo=UTC), date(2023, 12, 1), False),
     (date(2023, 12, 1), datetime(2024, 1, 1, tzinfo=UTC), date(2025, 3, 1), True),
     (None, datetime(2024, 1, 1, tzinfo=UTC), date(2023, 12, 1), False),
     (None, datetime(2023, 6, 1, tzinfo=UTC), date(2023, 12, 1), True)],
)  # fmt: skip
def test_a_member_is_asked_when_the_version_in_force_is_newer_than_theirs(
    accepted: date | None, signed_up: datetime, current: date, pending: bool
) -> None:
    assert terms_pending(accepted, signed_up, current) is pending


def test_a_new_version_asks_once_and_accepting_it_twice_keeps_one_row_each(
    db: Session, published
) -> None:
    member = make_member(db)
    token = committed(db, start_session, member.id)
    assert not nav_facts(token).terms_pending

    published("2099-01-01")
    assert nav_facts(token).terms_pending
    viewer = Viewer(member.id, member.status, member.language, member.paid_user)
    for _ in range(2):  # two tabs
        accept_terms(viewer, "198.51.100.7")

    assert not nav_facts(token).terms_pending
    assert _consents(db, member.id) == [
        ("privacy", date(2099, 1, 1), "198.51.100.7"),
        ("terms", date(2099, 1, 1), "198.51.100.7"),
    ]
