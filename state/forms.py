"""What every form state shares: field errors in the member's language, and safe redirects."""

import reflex as rx

from models.account_errors import AccountError
from models.passwords import MAX_LENGTH
from models.routes import url
from state.i18n import I18nState
from translations.catalog import gettext
from translations.errors import GENERIC_ERROR

DEFAULT_NEXT = url("members")
MAX_ID = 2**31  # ids are 32-bit integer columns
PASSWORD_INPUT = MAX_LENGTH + 1  # one past the rule: a longer password stays refused


def browser_id(value: object) -> int | None:
    """A database id as the browser sent it, or None when it is none."""
    try:
        number = int(str(value))
    except ValueError:
        return None
    return number if 0 < number < MAX_ID else None


def form_text(form: dict, field: str, limit: int) -> str:
    """A text field as the browser sent it, cut at `limit`: nothing unbounded reaches a rule,
    a hash or the database. Cut one past a rule's maximum, a too-long value stays refused."""
    return str(form.get(field) or "")[:limit]


def safe_next(value: object) -> str:
    """A local path to continue to after log-in; anything else goes to the members page."""
    text = str(value or "")
    if not text.startswith("/") or text.startswith(("//", "/\\")) or len(text) > 500:
        return DEFAULT_NEXT
    # Browsers drop tabs and newlines from a URL before parsing it: "/\t/evil.com" is "//evil.com".
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        return DEFAULT_NEXT
    return text


class FormState(rx.State, mixin=True):
    """Base of the account forms: `errors` maps a field ('' for the form) to a shown text."""

    errors: dict[str, str] = {}
    busy: bool = False

    async def _text(self, msgid: str, **params: object) -> str:
        locale = (await self.get_state(I18nState)).locale
        return gettext(locale, msgid, **params)

    async def _show_error(self, error: AccountError) -> None:
        self.errors = {error.field: await self._text(error.message, **error.params)}

    async def _show_generic_error(self) -> None:
        self.errors = {"": await self._text(GENERIC_ERROR)}
