"""A discount code a member types in (the /credits box, `GET /api/discountcode.php`): its
verdict, with the codes that do not apply counted per member and per client address, so
codes cannot be guessed by the hundred (models/attempts.py). Both keys are locked, always
member first, while they are counted, so guesses sent at once count each other."""

from actions.payment_reads import code_verdict
from actions.payment_views import CodeAnswer
from actions.runner import Done
from actions.viewer import Viewer
from models.attempts import attempt_key, minutes_refused, remember_failure
from models.db import advisory_lock
from models.member import utcnow
from services.database import transaction
from translations.errors import TOO_MANY_CODES

MEMBER_MISSES = 10  # codes that do not apply, per member in 15 minutes
CLIENT_MISSES = 30  # per client address: members behind one address share it


def try_code(
    viewer: Viewer, code: str | None, country: str | None, language: str, client: str
) -> Done[CodeAnswer]:
    """The code's verdict, or TOO_MANY_CODES (with the minutes to wait) for a member or an
    address that tried too many codes that do not apply."""
    now = utcnow()
    keys = (
        (attempt_key(f"discount-code:member:{viewer.member_id}"), MEMBER_MISSES),
        (attempt_key(f"discount-code:client:{client}"), CLIENT_MISSES),
    )
    with transaction() as db:
        for key, _ in keys:
            advisory_lock(db, f"discount-code:{key}")
        if minutes := max(minutes_refused(db, key, limit, now) for key, limit in keys):
            return Done(CodeAnswer("", 0, TOO_MANY_CODES, (("minutes", str(minutes)),)))
        answer = code_verdict(db, viewer, code, country, language)
        if answer.error:
            for key, _ in keys:
                remember_failure(db, key, now)
    return Done(answer)
