"""The console's support forms as the browser sent them, checked and bounded: the search (what to
look for, by which key) and an action on an account (which one, its reason, and the order, the
number of credits or the new address it needs)."""

import re
from dataclasses import dataclass
from enum import StrEnum

from models.account_errors import AccountError
from models.orders import ORDER_NUMBER_PREFIX
from models.staff_reason import staff_reason
from translations.catalog import N_

QUERY_LIMIT = 254  # an e-mail address at most
CREDITS_LIMIT = 10_000  # one grant or take-back
CHOOSE_ACTION = N_("Choose an action.")
CHOOSE_ORDER = N_("Choose the order.")
CREDITS_RANGE = N_("Give a number of credits from 1 to {limit}.")
SEARCH_INVALID = N_("This is not something to search by this key.")
_DIGITS = re.compile(r"^\d{1,10}$")
_ORDER = re.compile(rf"^(?:{ORDER_NUMBER_PREFIX})?0*(\d{{1,10}})$", re.IGNORECASE)


class SearchKey(StrEnum):
    EMAIL = "email"
    NAME = "name"
    ID = "id"
    ORDER = "order"
    IBAN = "iban"  # the last four digits of a mandate's IBAN


class SupportAction(StrEnum):
    RESEND_ACTIVATION = "resend_activation"
    CHANGE_EMAIL = "change_email"
    END_SESSIONS = "end_sessions"
    WITHDRAW = "withdraw"
    LIFT_SDD_BLOCK = "lift_sdd_block"
    GRANT_CREDITS = "grant_credits"
    TAKE_CREDITS = "take_credits"
    DELETE = "delete"


@dataclass(frozen=True)
class Search:
    key: SearchKey
    text: str  # for ID and ORDER the number, for IBAN four digits


@dataclass(frozen=True)
class SupportRequest:
    action: SupportAction
    reason: str
    order_id: int | None = None
    credits: int = 0
    email: str = ""


def search_form(form: dict) -> Search:
    """What to look for; AccountError for a text the key cannot find."""
    key = str(form.get("key") or "")
    if key not in {k.value for k in SearchKey}:
        key = SearchKey.EMAIL
    text = str(form.get("query") or "")[: QUERY_LIMIT + 1].strip()
    if not text or len(text) > QUERY_LIMIT:
        raise AccountError(SEARCH_INVALID, "query")
    if key == SearchKey.ORDER:
        text = _ORDER.match(text).group(1) if _ORDER.match(text) else ""
    valid = {
        SearchKey.ID: _DIGITS.match(text) is not None,
        SearchKey.ORDER: text != "",
        SearchKey.IBAN: len(text) == 4 and text.isdigit(),
    }.get(SearchKey(key), True)
    if not valid:
        raise AccountError(SEARCH_INVALID, "query")
    return Search(SearchKey(key), text)


def _credits(form: dict) -> int:
    text = str(form.get("credits") or "").strip()[:6]
    if not text.isdigit() or not 0 < int(text) <= CREDITS_LIMIT:
        raise AccountError(CREDITS_RANGE, "credits", limit=CREDITS_LIMIT)
    return int(text)


def _order(form: dict, orders: frozenset[int]) -> int:
    """One of the account's own orders (`orders`), never any other id the browser sends."""
    text = str(form.get("order") or "")[:10]
    if not text.isdigit() or int(text) not in orders:
        raise AccountError(CHOOSE_ORDER, "order")
    return int(text)


def support_request(form: dict, orders: frozenset[int]) -> SupportRequest:
    """The action form; AccountError (with the field) for anything missing or out of bounds.
    `orders` are the ids of the account's orders that may be withdrawn."""
    action = str(form.get("action") or "")
    if action not in {a.value for a in SupportAction}:
        raise AccountError(CHOOSE_ACTION, "action")
    action, reason = SupportAction(action), staff_reason(form.get("reason"))
    if action == SupportAction.WITHDRAW:
        return SupportRequest(action, reason, order_id=_order(form, orders))
    if action in (SupportAction.GRANT_CREDITS, SupportAction.TAKE_CREDITS):
        return SupportRequest(action, reason, credits=_credits(form))
    if action == SupportAction.CHANGE_EMAIL:
        email = str(form.get("email") or "")[: QUERY_LIMIT + 1]
        return SupportRequest(action, reason, email=email)
    return SupportRequest(action, reason)
