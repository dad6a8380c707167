"""The activation reminder's re-send and the e-mail change confirmation, server-side."""

import pytest
from sqlmodel import Session

from models.account_changes import request_email_change
from models.auth_session import start_session
from models.member import Member, Profile
from models.site_settings import seed_default_settings
from state.activation import ActivationState
from state.members import MembersState
from state.session import SessionState
from tests.factories import (
    BAN_SECRET,
    PASSWORD,
    add_photo,
    committed,
    make_member,
    make_member_with_password,
)
from tests.state.conftest import handle, run, substate


async def resend_steps(activation: ActivationState) -> list[int]:
    """The progress step the browser is shown each time the re-send lets go of the tab's state
    (a background handler's changes reach it as it leaves `async with self`)."""
    steps: list[int] = []

    async def shown(state: ActivationState, *exc_info: object) -> None:
        steps.append(state.resend_step)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ActivationState, "__aexit__", shown)
        await run(handle(activation, "resend"))
    return steps


async def test_resend_walks_four_steps_and_mails_an_unconfirmed_member(
    make_root, db, outbox
) -> None:
    member = make_member(db, status="not_confirmed")
    root = make_root(cookie=f"auth.session={committed(db, start_session, member.id)}")
    activation = substate(root, ActivationState)
    assert await resend_steps(activation) == [1, 2, 3, 4]
    assert not activation.resend_failed
    (mail,) = outbox()
    assert mail["To"].addresses[0].addr_spec == member.email
    assert "/api/activate.php?token=" in mail.get_body(("plain",)).get_content()


async def test_resend_sends_nothing_without_a_session(make_root, db, outbox) -> None:
    make_member(db, status="not_confirmed")
    activation = substate(make_root(), ActivationState)
    assert await resend_steps(activation) == [1, 2, 3, 0]
    assert activation.resend_failed and outbox() == []


async def test_resend_sends_nothing_to_an_active_member(make_root, db, outbox) -> None:
    member = make_member(db)
    root = make_root(cookie=f"auth.session={committed(db, start_session, member.id)}")
    activation = substate(root, ActivationState)
    assert (await resend_steps(activation))[-1] == 0 and outbox() == []


async def test_a_good_mail_change_link_switches_the_address(make_root, db: Session) -> None:
    member = make_member_with_password(db)
    _, token = committed(
        db, request_email_change, member.id, PASSWORD, "new@example.com", BAN_SECRET
    )
    root = make_root(
        url=f"/mail-change/do?token={token}",
        cookie=f"auth.session={committed(db, start_session, member.id)}",
    )
    activation = substate(root, ActivationState)
    await activation.confirm_mail_change()
    assert activation.mail_change_checked and activation.mail_change_ok
    db.rollback()
    db.expire_all()
    assert db.get(Member, member.id).email == "new@example.com"
    assert substate(root, SessionState).email == "new@example.com"


async def test_a_bad_mail_change_link_changes_nothing(make_root, db: Session) -> None:
    member = make_member_with_password(db)
    committed(db, request_email_change, member.id, PASSWORD, "new@example.com", BAN_SECRET)
    activation = substate(make_root(url="/mail-change/do?token=forged"), ActivationState)
    await activation.confirm_mail_change()
    assert activation.mail_change_checked and not activation.mail_change_ok
    db.rollback()
    db.expire_all()
    assert db.get(Member, member.id).email == "anna@example.com"


async def test_members_you_may_like_are_of_the_gender_the_member_looks_for(make_root, db) -> None:
    committed(db, seed_default_settings)
    for n in range(2):
        add_photo(db, make_member(db, f"woman{n}@example.com"), f"w{n}", main=True)
        man = make_member(db, f"man{n}@example.com")
        add_photo(db, man, f"m{n}", main=True)
        set_profile(db, man.id, gender="male")
    seeker = make_member(db, "seeker@example.com")
    set_profile(db, seeker.id, gender="male", sexuality="hetero")
    root = make_root(url="/activate/done", cookie=session_cookie(db, seeker.id))
    members = substate(root, MembersState)
    await members.load_newest()
    assert sorted(m["name"] for m in members.members) == ["Woman0", "Woman1"]

    set_profile(db, seeker.id, sexuality="gay")
    await members.load_newest()
    assert sorted(m["name"] for m in members.members) == ["Man0", "Man1"]


def set_profile(db: Session, member_id: int, **fields: str) -> None:
    profile = db.get(Profile, member_id)
    for name, value in fields.items():
        setattr(profile, name, value)
    db.add(profile)
    db.commit()


def session_cookie(db: Session, member_id: int) -> str:
    return f"auth.session={committed(db, start_session, member_id)}"
