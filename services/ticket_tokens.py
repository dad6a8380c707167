"""The token of a ticket's follow-up link (docs/customer-service.md): an HMAC-SHA256 of the
ticket's id under a key of its own (services/server_keys.derived_key). Only the receipt and the
answer mailed to the ticket's address carry it, so a visitor's follow-up proves that address."""

import hashlib
import hmac

from services.server_keys import derived_key

TOKEN_LENGTH = 32


def follow_up_token(ticket_id: int) -> str:
    key = derived_key("ticket-follow-up")
    return hmac.new(key, str(ticket_id).encode(), hashlib.sha256).hexdigest()[:TOKEN_LENGTH]


def signs_ticket(token: str, ticket_id: int) -> bool:
    """Whether `token`, as the browser sent it, is the follow-up token of the ticket."""
    if len(token) != TOKEN_LENGTH or not token.isascii():
        return False
    return hmac.compare_digest(token, follow_up_token(ticket_id))
