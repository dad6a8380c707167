"""Web Push subscriptions a member's browsers register."""

from actions.runner import Done
from actions.viewer import Viewer
from models.push_subscription import save_subscription
from services.database import transaction


def subscribe_to_push(viewer: Viewer, endpoint: str, p256dh: str, auth: str) -> Done[None]:
    """Keep the browser's subscription (already checked for form and size) for the viewer."""
    with transaction() as db:
        save_subscription(db, viewer.member_id, endpoint, p256dh, auth)
    return Done(None)
