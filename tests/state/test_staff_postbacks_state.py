"""/staff/postbacks' handlers called as a tab calls them with a real staff session: support and
admins see the log of the conversions reported to the networks, newest first, filter it by
status only within the vocabulary and page within bounds; a moderator is sent to verify (the
authorization matrix proves it for every role and handler)."""

import pytest
from sqlmodel import Session

from models.member import Member
from models.postback import Postback
from models.staff import Role
from models.staff_tools import tools_for
from models.traffic import TrafficClick
from state.staff_postbacks import StaffPostbacksState
from tests.factories import make_member
from tests.state.conftest import redirects, run, substate
from tests.unit.test_staff_console_routes import staff_session

PAGE = "/staff/postbacks"


def _postback(db: Session, member: Member, event: str, status: str, code: int | None) -> int:
    click = TrafficClick(network="n1", member_id=member.id)
    db.add(click)
    db.commit()
    row = Postback(
        click_id=click.id, network="n1", event=event, tid=f"t-{event}-{member.id}",
        url="https://n1.example.com/pb", status=status, attempts=1, last_status_code=code,
    )  # fmt: skip
    db.add(row)
    db.commit()
    return row.id


def _page(make_root, token: str) -> StaffPostbacksState:
    return substate(make_root(url=PAGE, cookie=f"auth.session={token}"), StaffPostbacksState)


def test_support_and_admins_find_the_log_in_the_navigation() -> None:
    assert "staff-postbacks" in tools_for(frozenset({Role.SUPPORT}))
    assert "staff-postbacks" in tools_for(frozenset({Role.ADMIN}))
    assert "staff-postbacks" not in tools_for(frozenset({Role.MODERATOR}))


@pytest.mark.parametrize("role", [Role.SUPPORT, Role.ADMIN])
async def test_the_log_lists_and_filters_within_its_vocabulary(make_root, db, role) -> None:
    anna = make_member(db, "anna@example.com")
    sent = _postback(db, anna, "lead", "sent", 200)
    failed = _postback(db, make_member(db, "bea@example.com"), "sale", "failed", 500)
    page = _page(make_root, staff_session(db, make_member(db, "sue@example.com"), role))

    await run(page.load())
    assert [r["id"] for r in page.rows] == [failed, sent] and page.loaded
    assert page.rows[1] | {"created_at": "", "next_at": ""} == {
        "id": sent, "member_id": anna.id, "network": "n1", "event": "lead", "status": "sent",
        "attempts": 1, "status_code": 200, "error": "", "amount_cents": 0, "currency": "",
        "created_at": "", "sent_at": "", "next_at": "",
    }  # fmt: skip
    await run(page.show("failed"))
    assert [r["id"] for r in page.rows] == [failed]
    for bogus in ("'; drop table", ["sent"], None, "pending "):
        await run(page.show(bogus))
        assert page.chosen == "failed"
    await run(page.show("pending"))
    assert page.rows == []
    await run(page.show(""))
    assert len(page.rows) == 2
    await run(page.go(10**9))
    assert page.page == 200 and page.rows == []
    await run(page.go("x"))
    assert page.page == 1


async def test_a_moderator_is_sent_to_verify(make_root, db) -> None:
    token = staff_session(db, make_member(db, "mo@example.com"), Role.MODERATOR)
    events = await run(_page(make_root, token).load())
    assert [path.split("?")[0] for path in redirects(events)] == ["/staff/verify"]
