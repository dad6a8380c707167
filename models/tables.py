"""Imports every table so that SQLModel.metadata is complete (Alembic and tests use it)."""

from sqlmodel import SQLModel

from models.auth_session import AuthSession
from models.member import Member, Photo, Profile
from models.push_subscription import PushSubscription
from models.site_settings import SiteSetting

metadata = SQLModel.metadata

__all__ = [
    "AuthSession",
    "Member",
    "Photo",
    "Profile",
    "PushSubscription",
    "SiteSetting",
    "metadata",
]
