"""What the chat screens show of the chat model: list cards and message bubbles as plain dicts.
Times travel as UTC ISO strings; the browser writes them in the member's zone and language."""

from datetime import UTC, datetime

from babel.numbers import format_currency

from models.chat import GIFT, ChatSummary, Message
from models.gifts import gift_picture
from models.site_settings import SiteSettings
from state.members import tile_to_card


def iso(moment: datetime) -> str:
    return moment.replace(tzinfo=UTC).isoformat(timespec="seconds")


def chat_card(summary: ChatSummary, settings: SiteSettings) -> dict:
    member = tile_to_card(summary.member, settings)
    return {
        "id": summary.conversation_id,
        "member_id": member["id"],
        "name": member["name"],
        "thumb": member["thumb"],
        "premium": member["premium"],
        "text": summary.last_body,
        "gift": summary.last_gift or "",
        "at": iso(summary.last_at),
        "from_me": summary.last_from_me,
        "unread": summary.unread,
    }


def bubble(message: Message, member_id: int) -> dict:
    gift = message.gift if message.kind == GIFT else ""
    return {
        "id": message.id,
        "mine": message.sender_id == member_id,
        "body": message.body,
        "gift": gift or "",
        "picture": gift_picture(gift) if gift else "",
        "at": iso(message.created_at),
    }


def message_price(settings: SiteSettings, country: str, locale: str) -> str:
    """The least a message costs in money in the member's country (`minimum_message_costs`),
    written for their language; "" for a country without a price."""
    price = settings.minimum_message_costs.get(country)
    if not price:
        return ""
    return format_currency(price["costs"], price["currency"], locale=locale)
