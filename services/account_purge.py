"""The scheduled erasure of accounts whose 14-day grace period is over, the end of the
suspensions that ran out (models/decisions.py), the log-in history older than 12 months
(models/login_history.py), the log-in sessions past their 30 days (models/auth_session.py),
the data exports past their 48 hours or whose build failed (models/data_export.py; the files
after the commit, with strays: services/export_archive.py), the tickets closed 12 months ago
(models/tickets.py), the traffic clicks no account signed up after, 13 months old
(models/traffic.py), the payment records of erased accounts past their 7 years of fiscal
retention (models/payment_retention.py), the evidence photos no report keeps any more
(models/evidence.py: six months after the decision), and the scoring of photos the
classifier skipped (services/member_photos.score_unscored_photos).

It runs as hourly periodic jobs (services/jobs.py) and as `python -m services.account_purge`.
"""

import asyncio
import logging

from models.auth_session import purge_expired_sessions
from models.data_export import expire_exports, forget_failed_builds, named_files
from models.decisions import lift_expired_suspensions
from models.deletion import erase_expired_accounts
from models.effect_marks import purge_effect_marks
from models.login_history import purge_login_history
from models.member import utcnow
from models.payment_retention import purge_retained_payments
from models.tickets import purge_closed_tickets
from models.traffic import purge_unclaimed_clicks
from services.database import transaction
from services.export_archive import delete_archives, delete_strays
from services.jobs import periodic
from services.member_photos import delete_spent_evidence, score_unscored_photos
from services.photo_pipeline import delete_photo_files
from services.photo_store import photo_store

log = logging.getLogger(__name__)


def purge_expired_accounts() -> int:
    """Erase what is due; photo and export files go after the database commit. Returns the
    count of erased accounts."""
    with transaction() as db:
        erased = erase_expired_accounts(db, utcnow())
        if lifted := lift_expired_suspensions(db, utcnow()):
            log.info("lifted %d suspensions that ran out", lifted)
        if forgotten := purge_login_history(db, utcnow()):
            log.info("forgot %d log-ins older than 12 months", forgotten)
        if closed := purge_closed_tickets(db, utcnow()):
            log.info("deleted %d tickets closed 12 months ago", closed)
        if clicks := purge_unclaimed_clicks(db, utcnow()):
            log.info("deleted %d traffic clicks without a signup (13 months; bots: 7 days)", clicks)
        if ended := purge_expired_sessions(db, utcnow()):
            log.info("deleted %d expired log-in sessions", ended)
        if failed := forget_failed_builds(db, utcnow()):
            log.info("dropped %d data exports whose build failed", failed)
        if marks := purge_effect_marks(db, utcnow()):
            log.info("forgot %d marks of mails and pushes sent a week ago", marks)
        if retained := purge_retained_payments(db, utcnow()):
            log.info("deleted %d orders of erased accounts past their retention", retained)
        expired_exports, named_exports = expire_exports(db, utcnow()), named_files(db)
    for account in erased:
        delete_photo_files(photo_store(), *account.photo_files)
    delete_archives(expired_exports)
    delete_strays(named_exports, utcnow())
    if evidence := delete_spent_evidence(utcnow()):
        log.info("deleted %d evidence photos past their retention", evidence)
    if erased:
        log.info("erased %d deleted accounts", len(erased))
    return len(erased)


@periodic("purge", cron="7 * * * *")
async def hourly_purge() -> None:
    await asyncio.to_thread(purge_expired_accounts)


@periodic("score_unscored_photos", cron="37 * * * *")
async def hourly_scoring() -> None:
    await asyncio.to_thread(score_unscored_photos, utcnow())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    print(f"erased {purge_expired_accounts()} accounts")
