"""`python -m services.seed`: default settings and demo members, safe to run again."""

import logging

from models.discount_codes import seed_discount_codes
from models.site_settings import seed_default_settings
from services.config import get_config
from services.database import transaction
from services.demo_members import seed_demo_members
from services.photo_store import photo_store
from services.push_keys import vapid
from services.server_keys import server_secret

log = logging.getLogger(__name__)


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    config = get_config()
    with transaction() as db:
        seed_default_settings(db)
        seed_discount_codes(db)
        created = seed_demo_members(db, config.demo_members, photo_store())
    vapid()  # one key pair (and one server secret) before several workers start
    server_secret()
    log.info("settings seeded; %d demo members created (target %d)", created, config.demo_members)


if __name__ == "__main__":
    main()
