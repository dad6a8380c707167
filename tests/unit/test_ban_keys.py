"""Ban evasion (issue 29): a ban keeps a keyed hash of the member's mailbox and phones, not of
the address as typed, so a +tag, Gmail's dots or googlemail.com, another case or another way of
writing a phone number do not get a banned member a new account; and nobody can try phone
numbers against a copy of the table without the server's key."""

import hashlib

import pytest
from sqlmodel import Session, select

from actions.accounts import email_change_mail
from actions.moderation import decide
from actions.signup import Arrival, sign_up
from actions.staff_viewer import StaffViewer
from actions.viewer import Viewer
from models.account_errors import AccountError
from models.banned_identities import EMAIL, PHONE, REFUSED_ADDRESS, identity_hash
from models.member import Member
from models.moderation import BannedIdentity
from models.signup import SignupForm
from models.staff import Role
from tests.factories import PASSWORD, make_member_with_password

pytestmark = pytest.mark.usefixtures("outbox")  # the server secret in a DATA_DIR of its own
KEY = b"k" * 32


@pytest.mark.parametrize(
    "variant",
    ["bob@gmail.com", "Bob@Gmail.com", "b.ob@gmail.com", "bob+dating@gmail.com",
     "B.o.b+x@googlemail.com", " bob@gmail.com "],
)  # fmt: skip
def test_every_spelling_of_a_gmail_mailbox_has_one_hash(variant: str) -> None:
    assert identity_hash(EMAIL, variant, KEY) == identity_hash(EMAIL, "bob@gmail.com", KEY)


def test_a_tag_is_dropped_everywhere_but_dots_only_at_gmail() -> None:
    same = identity_hash(EMAIL, "ann@example.com", KEY)
    assert identity_hash(EMAIL, "Ann+x@Example.com", KEY) == same
    assert identity_hash(EMAIL, "a.nn@example.com", KEY) != same
    assert identity_hash(EMAIL, "ann@example.org", KEY) != same


def test_a_phone_is_hashed_in_e164_with_the_server_key() -> None:
    e164 = identity_hash(PHONE, "+31612345678", KEY)
    assert identity_hash(PHONE, "+31 6 1234 5678", KEY) == e164
    assert identity_hash(PHONE, "+31612345678", b"another key" * 3) != e164
    unkeyed = hashlib.sha256(b"phone:+31612345678").hexdigest()
    assert e164 != unkeyed  # enumerating the few phone numbers needs the key


def _ban(db: Session, email: str) -> None:
    member = make_member_with_password(db, email)
    staff = StaffViewer(99, Role.MODERATOR, frozenset({Role.MODERATOR}), "en", "")
    decide(staff, None, member.id, "profile", member.id, "ban", "terms", "Rule 2", "Spam.", None)
    assert db.exec(select(BannedIdentity)).all()


@pytest.mark.parametrize("variant", ["b.ob+new@gmail.com", "Bob+1@googlemail.com"])
def test_a_banned_gmail_user_cannot_sign_up_with_a_variant(db: Session, variant: str) -> None:
    _ban(db, "bob@gmail.com")
    form = SignupForm(email=variant, name="Bobby", password=PASSWORD,
                      date_of_birth="1990-05-17", gender="male", seeking="female")  # fmt: skip
    with pytest.raises(AccountError) as refused:
        sign_up(form, Arrival("nl", "NL", {}, None))
    assert refused.value.message == REFUSED_ADDRESS
    assert len(db.exec(select(Member).where(Member.email.contains("gmail"))).all()) == 1


def test_a_banned_address_with_a_tag_cannot_be_changed_to(db: Session) -> None:
    _ban(db, "bob@example.com")
    anna = make_member_with_password(db, "anna@example.com")
    viewer = Viewer(anna.id, anna.status, anna.language, False)
    with pytest.raises(AccountError) as refused:
        email_change_mail(viewer, PASSWORD, "BOB+again@example.com")
    assert refused.value.message == REFUSED_ADDRESS
