"""Imports every table so that SQLModel.metadata is complete (Alembic and tests use it)."""

from sqlmodel import SQLModel

from models.attempts import ClientFailure
from models.audit import AuditEntry
from models.auth_session import AuthSession
from models.blocks import Block
from models.chat import ChatSide, Conversation, Message
from models.consent import Consent
from models.credits import CreditEntry
from models.data_export import DataExport
from models.direct_debit import SddMandate, SmsCode
from models.discount_codes import DiscountCode, DiscountRedemption
from models.effect_marks import EffectMark
from models.email_tokens import EmailToken
from models.likes import Like
from models.login import AddressLock
from models.login_history import LoginEvent
from models.matchfinder import MatchPreference
from models.member import Member, Photo, Profile
from models.moderation import Appeal, BannedIdentity, Decision, RejectedPhotoHash, Report
from models.notice_mails import NoticeMail
from models.orders import Order, OrderRefund
from models.password_reset import ResetRequest
from models.postback import Postback
from models.push_subscription import PushSubscription
from models.search import SearchPreference
from models.setting_changes import SettingChange
from models.signup import SignupEvent, SignupSource
from models.site_settings import SiteSetting
from models.staff import StaffRole, StaffTotp
from models.swipes import Swipe
from models.test_payments import SandboxPayment, SandboxRefund
from models.tickets import Ticket, TicketMessage
from models.traffic import TrafficClick

metadata = SQLModel.metadata

__all__ = [
    "AddressLock",
    "Appeal",
    "AuditEntry",
    "AuthSession",
    "BannedIdentity",
    "Block",
    "ChatSide",
    "ClientFailure",
    "Consent",
    "Conversation",
    "CreditEntry",
    "DataExport",
    "Decision",
    "DiscountCode",
    "DiscountRedemption",
    "EffectMark",
    "EmailToken",
    "Like",
    "LoginEvent",
    "MatchPreference",
    "Member",
    "Message",
    "NoticeMail",
    "Order",
    "OrderRefund",
    "Photo",
    "Postback",
    "Profile",
    "PushSubscription",
    "RejectedPhotoHash",
    "Report",
    "ResetRequest",
    "SandboxPayment",
    "SandboxRefund",
    "SddMandate",
    "SearchPreference",
    "SettingChange",
    "SignupEvent",
    "SignupSource",
    "SiteSetting",
    "SmsCode",
    "StaffRole",
    "StaffTotp",
    "Swipe",
    "Ticket",
    "TicketMessage",
    "TrafficClick",
    "metadata",
]
