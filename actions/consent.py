"""A logged-in member accepts the terms and privacy statement in force."""

from actions.runner import Done
from actions.viewer import Viewer
from models.consent import record_consent
from models.site_settings import terms_version_date
from services.database import transaction
from services.site_settings import current_settings


def accept_terms(viewer: Viewer, address: str) -> Done[None]:
    with transaction() as db:
        record_consent(db, viewer.member_id, terms_version_date(current_settings()), address)
    return Done(None)
