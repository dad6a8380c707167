"""The support tools' handlers (state/staff_support.py) called as a tab calls them with a real
staff session: the search by each key, bounded and checked; the account view, audited once a
load, with its ledger pages (bounded); the action form (a reason required, each action carried
out through actions/ and audited, a refusal shown and nothing written, staff accounts left to
admins); support and admins only (the authorization matrix,
tests/state/test_staff_authorization.py, proves every other role is refused)."""

import itertools

import pytest
from sqlmodel import Session, select

from models.audit import AuditEntry
from models.credits import CreditEntry, grant_credits
from models.member import Member, MemberStatus
from models.staff import Role
from models.staff_tools import tools_for
from state.staff_support import StaffSupportMemberState, StaffSupportSearchState
from tests.factories import make_member
from tests.state.conftest import handle, run, substate
from tests.unit.test_staff_console_routes import staff_session
from tests.unit.test_support_actions import REASON, _order

pytestmark = pytest.mark.usefixtures("outbox")


_staff_numbers = itertools.count(1)


def _tab(make_root, db: Session, url: str, role: Role = Role.SUPPORT):
    staff = make_member(db, f"{role}{next(_staff_numbers)}@staff.example.com")
    token = staff_session(db, staff, role)
    return make_root(url=url, cookie=f"auth.session={token}")


def _audits(db: Session) -> list[str]:
    """The actions' audit rows (not the looks at the account)."""
    db.expire_all()
    rows = db.exec(select(AuditEntry).where(AuditEntry.action != "support.view")).all()
    return [row.action for row in rows]


def _views(db: Session) -> list[tuple[int | None, str, int | None]]:
    db.expire_all()
    rows = db.exec(select(AuditEntry).where(AuditEntry.action == "support.view")).all()
    return [(row.actor_id, row.target_type, row.target_id) for row in rows]


def test_support_and_admins_find_the_tool_in_the_navigation() -> None:
    assert "staff-support" in tools_for(frozenset({Role.SUPPORT}))
    assert "staff-support" in tools_for(frozenset({Role.ADMIN}))
    assert "staff-support" not in tools_for(frozenset({Role.MODERATOR}))


@pytest.mark.parametrize("role", [Role.SUPPORT, Role.ADMIN])
async def test_a_buyer_is_found_by_order_number(make_root, db, role) -> None:
    buyer = make_member(db, "buyer@example.com")
    order = _order(db, buyer, status="paid")
    page = substate(_tab(make_root, db, "/staff/support", role), StaffSupportSearchState)
    await run(page.load())

    await run(page.search({"key": "order", "query": f"A-{order.id:06d}"}))

    assert [row["email"] for row in page.rows] == ["buyer@example.com"]
    assert (page.searched, page.errors) == (True, {})


async def test_a_search_out_of_bounds_shows_an_error_and_no_rows(make_root, db) -> None:
    page = substate(_tab(make_root, db, "/staff/support"), StaffSupportSearchState)
    await run(page.search({"key": "iban", "query": "12"}))
    assert page.rows == [] and "query" in page.errors
    await run(page.search({"key": "email", "query": "x" * 10_000}))
    assert page.rows == [] and "query" in page.errors


async def test_the_account_view_pages_the_ledger(make_root, db) -> None:
    member = make_member(db, "bo@example.com")
    for _ in range(25):
        grant_credits(db, member, 1, "signup")
    db.commit()
    page = substate(
        _tab(make_root, db, f"/staff/support/members/{member.id}"), StaffSupportMemberState
    )
    await run(page.load())
    assert (page.member["email"], page.member["credits"]) == ("bo@example.com", 25)
    assert (len(page.ledger), page.has_next) == (20, True)
    await run(page.ledger_go(2))
    assert (len(page.ledger), page.has_next, page.page) == (5, False, 2)
    await run(page.ledger_go(10**9))  # as a browser may send it: no further than 10,000 lines
    assert (page.ledger, page.page) == ([], 500)
    await run(page.ledger_go("x"))
    assert (len(page.ledger), page.page) == (20, 1)

    missing = substate(_tab(make_root, db, "/staff/support/members/99999"), StaffSupportMemberState)
    await run(missing.load())
    assert missing.missing and missing.member == {}


async def test_each_look_at_an_account_is_audited_once(make_root, db) -> None:
    member = make_member(db, "bo@example.com")
    tab = _tab(make_root, db, f"/staff/support/members/{member.id}")
    page = substate(tab, StaffSupportMemberState)
    await run(page.load())
    await run(page.ledger_go(2))
    await run(handle(page, "take_action", {"action": "end_sessions", "reason": REASON}))
    [(actor, kind, target)] = _views(db)  # not again for a ledger page or an action
    assert (kind, target) == ("member", member.id) and actor != member.id
    await run(page.load())
    assert len(_views(db)) == 2
    missing = substate(_tab(make_root, db, "/staff/support/members/99999"), StaffSupportMemberState)
    await run(missing.load())
    assert len(_views(db)) == 2  # no account, nothing seen


async def test_a_staff_members_account_is_left_to_admins(make_root, db) -> None:
    colleague = make_member(db, "colleague@staff.example.com")
    staff_session(db, colleague, Role.MODERATOR)
    url = f"/staff/support/members/{colleague.id}"
    page = substate(_tab(make_root, db, url), StaffSupportMemberState)
    await run(page.load())
    await run(
        handle(page, "take_action", {"action": "grant_credits", "credits": "5", "reason": REASON})
    )
    assert page.errors.get("") and page.done == "" and _audits(db) == []

    admin = substate(_tab(make_root, db, url, Role.ADMIN), StaffSupportMemberState)
    await run(admin.load())
    await run(
        handle(admin, "take_action", {"action": "grant_credits", "credits": "5", "reason": REASON})
    )
    assert admin.errors == {} and admin.member["credits"] == 5
    assert _audits(db) == ["support.grant_credits"]


async def test_an_action_needs_a_reason_and_is_audited(make_root, db) -> None:
    member = make_member(db, "bo@example.com")
    page = substate(
        _tab(make_root, db, f"/staff/support/members/{member.id}"), StaffSupportMemberState
    )
    await run(page.load())

    await run(
        handle(page, "take_action", {"action": "grant_credits", "credits": "25", "reason": ""})
    )
    assert "reason" in page.errors and _audits(db) == []

    await run(
        handle(page, "take_action", {"action": "grant_credits", "credits": "25", "reason": REASON})
    )
    assert page.errors == {} and page.done != ""
    assert page.member["credits"] == 25 and page.ledger[0]["note"] == REASON
    assert _audits(db) == ["support.grant_credits"]


async def test_a_refused_action_shows_why_and_writes_nothing(make_root, db) -> None:
    member = make_member(db, "bo@example.com")
    page = substate(
        _tab(make_root, db, f"/staff/support/members/{member.id}"), StaffSupportMemberState
    )
    await run(page.load())
    await run(
        handle(page, "take_action", {"action": "take_credits", "credits": "1", "reason": REASON})
    )
    assert page.errors.get("credits") and page.done == ""
    await run(handle(page, "take_action", {"action": "lift_sdd_block", "reason": REASON}))
    assert page.errors.get("")
    await run(handle(page, "take_action", {"action": "resend_activation", "reason": REASON}))
    assert page.errors.get("")
    await run(
        handle(page, "take_action", {"action": "withdraw", "order": "12345", "reason": REASON})
    )
    assert page.errors.get("order")
    assert _audits(db) == [] and db.exec(select(CreditEntry)).all() == []


async def test_sessions_end_and_the_deletion_starts(make_root, db) -> None:
    member = make_member(db, "leaving@example.com")
    page = substate(
        _tab(make_root, db, f"/staff/support/members/{member.id}"), StaffSupportMemberState
    )
    await run(page.load())
    await run(handle(page, "take_action", {"action": "end_sessions", "reason": REASON}))
    await run(handle(page, "take_action", {"action": "delete", "reason": REASON}))
    assert page.member["status"] == MemberStatus.DELETED_PENDING and page.member["erase_on"]
    db.expire_all()
    assert db.get(Member, member.id).status == MemberStatus.DELETED_PENDING
    assert _audits(db) == ["support.end_sessions", "support.delete"]


async def test_the_address_change_mails_the_new_address(make_root, db, outbox) -> None:
    member = make_member(db, "old@example.com")
    page = substate(
        _tab(make_root, db, f"/staff/support/members/{member.id}"), StaffSupportMemberState
    )
    await run(page.load())
    await run(
        handle(page, "take_action", {"action": "change_email", "email": "nope", "reason": REASON})
    )
    assert page.errors.get("email")
    form = {"action": "change_email", "email": "new@example.com", "reason": REASON}
    await run(handle(page, "take_action", form))
    assert page.errors == {}
    assert _audits(db) == ["support.change_email"]
