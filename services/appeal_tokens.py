"""The links to a statement of reasons and its appeal form (/appeal/<token>): an HMAC-SHA256
of the case and the party, keyed with the server secret (services/server_keys). The member's
case is the decision's id; a notifier's is their notice's report id, so that each notifier has
a link of their own. No column holds them, nobody can make one without the secret, and the
member's link does not open the notifier's form (nor the other way round)."""

import hashlib
import hmac

from services.server_keys import server_secret

MEMBER = "m"  # the member the decision applies to
NOTIFIER = "n"  # the notifier of the notice it answers
PARTIES = (MEMBER, NOTIFIER)
MAX_TOKEN = 80


def appeal_token(case_id: int, party: str) -> str:
    """The link's token: `case_id` a decision's id for MEMBER, a notice's report id for NOTIFIER."""
    return f"{case_id}{party}{_mac(case_id, party)}"


def read_token(token: str | None) -> tuple[int, str] | None:
    """The case id and party a genuine token names; None for anything else."""
    if not token or len(token) > MAX_TOKEN or not token.isascii():
        return None
    for party in PARTIES:
        number, found, mac = token.partition(party)
        if found and number.isdigit() and len(number) < 19:
            genuine = _mac(int(number), party)
            return (int(number), party) if hmac.compare_digest(mac, genuine) else None
    return None


def _mac(case_id: int, party: str) -> str:
    text = f"appeal|{case_id}|{party}".encode()
    return hmac.new(server_secret(), text, hashlib.sha256).hexdigest()[:32]
