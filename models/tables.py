"""Imports every table so that SQLModel.metadata is complete (Alembic and tests use it)."""

from sqlmodel import SQLModel

from models.auth_session import AuthSession
from models.blocks import Block
from models.chat import ChatSide, Conversation, Message
from models.credits import CreditEntry
from models.discount_codes import DiscountCode
from models.email_tokens import EmailToken
from models.likes import Like
from models.login import AddressLock, ClientFailure
from models.member import Member, Photo, Profile
from models.password_reset import ResetRequest
from models.push_subscription import PushSubscription
from models.search import SearchPreference
from models.signup import SignupEvent, SignupSource
from models.site_settings import SiteSetting

metadata = SQLModel.metadata

__all__ = [
    "AddressLock",
    "AuthSession",
    "Block",
    "ChatSide",
    "ClientFailure",
    "Conversation",
    "CreditEntry",
    "DiscountCode",
    "EmailToken",
    "Like",
    "Member",
    "Message",
    "Photo",
    "Profile",
    "PushSubscription",
    "ResetRequest",
    "SearchPreference",
    "SignupEvent",
    "SignupSource",
    "SiteSetting",
    "metadata",
]
