"""Who asks the staff console, as session cookies: everyone a staff handler or route must
refuse, and staff in an allowed role (tests/state/test_staff_authorization.py)."""

import itertools
from datetime import timedelta

from sqlmodel import Session, select

from models.auth_session import AuthSession, hash_token, start_session
from models.member import MemberStatus, utcnow
from models.staff import Role, StaffRole, StaffTotp
from tests.factories import committed, make_member

_numbers = itertools.count(1)  # unique e-mail addresses


def _session(db: Session, member_id: int, seen: timedelta | None, passed: bool = True) -> str:
    """A session used `seen` ago (None: never a staff session), past the code if `passed`."""
    token = committed(db, start_session, member_id)
    row = db.exec(select(AuthSession).where(AuthSession.token_hash == hash_token(token))).one()
    if seen is not None:
        row.last_seen_at = utcnow() - seen
        row.second_factor_at = utcnow() - seen if passed else None
    db.add(row)
    db.commit()
    return token


def _person(db: Session, roles: frozenset[Role], status: str = MemberStatus.ACTIVE) -> int:
    member = make_member(db, f"person{next(_numbers)}@example.com", status=status)
    for role in roles:
        db.add(StaffRole(member_id=member.id, role=role))
    if roles:
        db.add(StaffTotp(member_id=member.id, secret="A" * 32, confirmed_at=utcnow()))
    db.commit()
    return member.id


def refused_cookies(db: Session, allowed: frozenset[Role]) -> dict[str, str | None]:
    """A session cookie (None: none) for everyone who must be refused."""
    cases: dict[str, str | None] = {"visitor": None}
    cases["member"] = _session(db, _person(db, frozenset()), None)
    cases["staff without the code"] = _session(db, _person(db, allowed), timedelta(0), passed=False)
    cases["idle staff"] = _session(db, _person(db, allowed), timedelta(minutes=31))
    suspended = _person(db, allowed, MemberStatus.SUSPENDED)
    cases["suspended staff"] = _session(db, suspended, timedelta(0))
    for role in set(Role) - allowed:
        cases[f"role {role}"] = _session(db, _person(db, frozenset({role})), timedelta(0))
    return cases


def allowed_cookie(db: Session, role: Role) -> str:
    """Staff holding only `role`, past the code, last seen 29 minutes ago."""
    return _session(db, _person(db, frozenset({role})), timedelta(minutes=29))
