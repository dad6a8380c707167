"""The reason every staff change asks for (it lands in the audit log): required, bounded."""

from models.account_errors import AccountError
from translations.catalog import N_

REASON_REQUIRED = N_("Give the reason for this change.")
REASON_LIMIT = 500


def staff_reason(raw: object) -> str:
    """The reason as typed, trimmed; refused when empty or longer than REASON_LIMIT."""
    reason = str(raw or "")[: REASON_LIMIT + 1].strip()
    if not reason or len(reason) > REASON_LIMIT:
        raise AccountError(REASON_REQUIRED, "reason")
    return reason
