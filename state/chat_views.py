"""What the chat screens show of the chat model: list cards as plain dicts (the bubbles come
from actions/chat.py). Times travel as UTC ISO strings; the browser writes them in the member's
zone and language."""

from actions.chat import iso
from models.chat import ChatSummary
from models.pricing import format_amount
from models.site_settings import SiteSettings
from state.members import tile_to_card


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
        "veiled": summary.last_veiled,
        "removed": summary.last_removed,
        "last_id": 0,  # unknown: a card from a message knows it (ChatsState._card)
    }


def message_price(settings: SiteSettings, country: str, locale: str) -> str:
    """The least a message costs in money in the member's country (`minimum_message_costs`),
    written for their language; "" for a country without a price."""
    price = settings.minimum_message_costs.get(country)
    if not price:
        return ""
    return format_amount(price["costs"], price["currency"], locale)
