"""A member with a row in every table that holds a member's data, for the export's and the
erasure's tests (tests/unit/test_data_rights.py, tests/unit/test_data_export.py)."""

import re
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from sqlalchemy import Table
from sqlmodel import Session

from models.audit import AuditEntry
from models.auth_session import AuthSession
from models.blocks import Block
from models.chat import ChatSide, Conversation, Message
from models.consent import Consent
from models.credits import CreditEntry
from models.data_export import DataExport
from models.direct_debit import SddMandate, SmsCode
from models.discount_codes import DiscountCode, DiscountRedemption
from models.email_tokens import EmailToken
from models.likes import Like
from models.login_history import LoginEvent
from models.matchfinder import MatchPreference
from models.member import Member, Photo, utcnow
from models.moderation import Appeal, Decision, Report
from models.notice_mails import NoticeMail
from models.orders import Order, OrderRefund
from models.postback import Postback
from models.push_subscription import PushSubscription
from models.search import SearchPreference
from models.setting_changes import SettingChange
from models.signup import SignupEvent, SignupSource
from models.staff import StaffRole, StaffTotp
from models.swipes import Swipe
from models.tables import metadata
from models.tickets import Ticket, TicketMessage
from models.traffic import TrafficClick
from services.config import PROJECT_ROOT
from tests.factories import edit_profile, make_member_with_password

IBAN = "NL91ABNA0417164300"
OTHER_NAME = "Bertram"
MY_MESSAGE = "Shall we have coffee on Sunday?"
THEIR_MESSAGE = "Gladly, at ten?"
DOC = PROJECT_ROOT / "docs" / "data-rights.md"
# Columns that hold a member's id without a foreign key (staff ids are members' ids too).
MEMBER_ID_COLUMNS = frozenset(
    ("reporter_id", "reported_id", "actor_id", "target_id", "staff_id", "decided_by",
     "assigned_to", "reversed_by", "started_by", "sender_id")
)  # fmt: skip


def member_columns(table: Table) -> list[str]:
    """The columns of `table` that name a member: a foreign key to member.id, or a member id
    by its name."""
    return [
        column.name
        for column in table.columns
        if any(key.target_fullname == "member.id" for key in column.foreign_keys)
        or "member" in column.name
        or column.name in MEMBER_ID_COLUMNS
    ]


def member_tables() -> dict[str, list[str]]:
    """Every table holding a member's data, with the columns that name the member."""
    found = {name: member_columns(table) for name, table in metadata.tables.items()}
    return {name: columns for name, columns in found.items() if columns or name == "member"}


def documented(section: str) -> set[str]:
    """The `table` names of the table rows under the heading `section` of docs/data-rights.md."""
    text = DOC.read_text()
    part = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(\w+)`", part, flags=re.MULTILINE))


@dataclass(frozen=True)
class Everything:
    me: Member
    other: Member
    photo_file: str


def member_with_everything(db: Session, photo_dir: Path | None = None) -> Everything:
    """Anna, who wrote with, liked, blocked and reported Bertram, bought credits by direct
    debit, and has a row in every other member table."""
    me = make_member_with_password(db, "anna@example.com")
    other = edit_profile(db, make_member_with_password(db, "bertram@example.com"), name=OTHER_NAME)
    now = utcnow()
    photo = Photo(member_id=me.id, filename="anna1.jpg", thumb_filename="anna1_t.jpg")
    if photo_dir is not None:
        photo_dir.mkdir(parents=True, exist_ok=True)
        (photo_dir / photo.filename).write_bytes(b"\xff\xd8original anna photo")
    chat = Conversation(member_a=me.id, member_b=other.id, started_by=me.id)
    order = Order(
        member_id=me.id, tier="t1", credits=100, list_cents=1995, amount_cents=1995,
        currency="EUR", country="NL", method="directdebit", provider="test", status="paid",
    )  # fmt: skip
    code = DiscountCode(code="STAY-1234", member_id=me.id, value_percentage=20, expires_at=now)
    decision = Decision(
        puid="d1", member_id=me.id, measure="warning", content_type="profile",
        category="spam", source="notice", facts="Your text advertised a website.",
    )  # fmt: skip
    ticket = Ticket(reference="T-1", member_id=me.id, email=me.email, topic="payments")
    db.add_all([photo, chat, order, code, decision, ticket])
    db.flush()
    mandate = SddMandate(
        member_id=me.id, order_id=order.id, tier="t1", payment_country="NL",
        account_holder="Anna de Vries", iban=IBAN, street="Damrak", house_number="1",
        zip="1012LG", city="Amsterdam", country="NL", phone_e164="+31612345678",
        mandate_text="I authorise…",
        status="signed",
        signed_at=now,
    )  # fmt: skip
    db.add(mandate)
    db.flush()
    db.add_all(
        [
            ChatSide(conversation_id=chat.id, member_id=me.id),
            ChatSide(conversation_id=chat.id, member_id=other.id),
            Message(conversation_id=chat.id, sender_id=me.id, body=MY_MESSAGE, client_id="c1"),
            Message(
                conversation_id=chat.id, sender_id=other.id, body=THEIR_MESSAGE, client_id="c2"
            ),
            Like(liker_id=me.id, liked_id=other.id, matched_at=now),
            Like(liker_id=other.id, liked_id=me.id, matched_at=now),
            Swipe(member_id=me.id, other_id=other.id, liked=True),
            Block(blocker_id=me.id, blocked_id=other.id),
            Report(
                reference="R-1",
                source="member",
                category="scam",
                content_type="profile",
                reporter_id=me.id,
                reported_id=other.id,
                text="He asked for money.",
                snapshot={"name": OTHER_NAME},
                decision_id=decision.id,
            ),
            Appeal(decision_id=decision.id, by_member_id=me.id, text="It was my own site."),
            CreditEntry(member_id=me.id, amount=100, reason="purchase", reference=f"o{order.id}"),
            CreditEntry(member_id=me.id, amount=-5, reason="message", reference="m1"),
            OrderRefund(order_id=order.id, amount_cents=995, credits_taken=50),
            SmsCode(
                mandate_id=mandate.id,
                member_id=me.id,
                phone_e164="+31612345678",
                salt="s",
                code_hash="h",
                expires_at=now,
            ),
            DiscountRedemption(code_id=code.id, member_id=me.id, order_id=order.id, once=True),
            EmailToken(token_hash="e" * 64, member_id=me.id, purpose="activate", expires_at=now),
            AuthSession(token_hash="a" * 64, member_id=me.id, expires_at=now + timedelta(days=1)),
            LoginEvent(member_id=me.id, address="192.0.2.7", device="Firefox · Linux", place="NL"),
            MatchPreference(member_id=me.id, min_age=30, max_age=45, place="region"),
            SearchPreference(member_id=me.id, gender="male", min_age=30, max_age=45),
            NoticeMail(member_id=me.id, topic="likes"),
            PushSubscription(
                member_id=me.id,
                endpoint="https://fcm.googleapis.com/fcm/send/x",
                p256dh="k",
                auth="a",
            ),
            SignupEvent(kind="signup", visitor="v1", member_id=me.id),
            SignupSource(member_id=me.id, network="adnet", ref="r7", to_member_id=other.id),
            click := TrafficClick(
                network="adnet", ref="r7", address_hash="a" * 64, member_id=me.id
            ),
            Consent(member_id=me.id, document="terms", version=date(2026, 11, 1)),
            TicketMessage(ticket_id=ticket.id, author="member", body="Where are my credits?"),
            TicketMessage(ticket_id=ticket.id, author="staff", staff_id=me.id, body="Found."),
            StaffRole(member_id=me.id, role="support"),
            StaffTotp(member_id=me.id, secret="s"),
            AuditEntry(actor_role="support", action="grant_credits", target_id=me.id),
            SettingChange(key="message_credits", old=5, new=6, staff_id=me.id),
            DataExport(member_id=me.id, requested_at=now - timedelta(days=2)),
        ]
    )
    db.commit()
    db.add(
        Postback(
            click_id=click.id, network="adnet", event="lead", tid="b" * 16, url="https://x.io/"
        )
    )
    db.commit()
    return Everything(me, other, photo.filename)
