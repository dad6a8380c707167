"""The scheduled erasure of accounts whose 14-day grace period is over, the end of the
suspensions that ran out (models/decisions.py), and the scoring of photos the classifier
skipped (services/member_photos.score_unscored_photos).

It runs inside the server (a lifespan task, hourly) and as `python -m services.account_purge`.
"""

import asyncio
import logging

from models.decisions import lift_expired_suspensions
from models.deletion import erase_expired_accounts
from models.member import utcnow
from services.config import get_config
from services.database import transaction
from services.member_photos import score_unscored_photos
from services.outages import log_failure
from services.photo_pipeline import delete_photo_files

log = logging.getLogger(__name__)
INTERVAL_SECONDS = 3600


def purge_expired_accounts() -> int:
    """Erase what is due; photo files go after the database commit. Returns the count."""
    with transaction() as db:
        erased = erase_expired_accounts(db, utcnow())
        if lifted := lift_expired_suspensions(db, utcnow()):
            log.info("lifted %d suspensions that ran out", lifted)
    photo_dir = get_config().media_dir / "photos"
    for account in erased:
        delete_photo_files(photo_dir, *account.photo_files)
    if erased:
        log.info("erased %d deleted accounts", len(erased))
    return len(erased)


async def purge_periodically() -> None:
    while True:
        try:
            await asyncio.to_thread(purge_expired_accounts)
        except Exception:
            log_failure(log, "account purge failed; retrying next round")
        try:
            await asyncio.to_thread(score_unscored_photos, utcnow())
        except Exception:
            log_failure(log, "scoring unscored photos failed; retrying next round")
        await asyncio.sleep(INTERVAL_SECONDS)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    print(f"erased {purge_expired_accounts()} accounts")
