"""Recording the click a page request with tracking parameters is (models/traffic.py): a
visitor's action, from the page middleware (app/traffic_clicks.py)."""

from actions.runner import Done
from models.member import utcnow
from models.traffic import Landing, record_click
from services.database import transaction


def record_landing(landing: Landing, known: int | None) -> Done[int | None]:
    """The id of the visitor's click (`known`, the one their cookie names, on a reload), or
    None when their address recorded too many this hour."""
    with transaction() as db:
        return Done(record_click(db, landing, known, utcnow()))
