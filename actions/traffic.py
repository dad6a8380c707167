"""Recording the click a page request with tracking parameters is (models/traffic.py): a
visitor's action, from the page middleware (app/traffic_clicks.py)."""

from datetime import datetime

from actions.runner import Done
from models.member import as_utc, utcnow
from models.traffic import Landing, TrafficClick, live_click, record_click
from services.database import db_session, transaction


def record_landing(landing: Landing, known: int | None) -> Done[tuple[int, datetime] | None]:
    """The id and time of the visitor's click (`known`, the one their cookie names, on a
    reload), or None when their address recorded too many this hour."""
    with transaction() as db:
        click_id = record_click(db, landing, known, utcnow())
        click = db.get(TrafficClick, click_id) if click_id is not None else None
        return Done((click_id, as_utc(click.created_at)) if click and click_id else None)


def click_is_live(click_id: int | None) -> bool:
    """Whether the click a visitor's cookie names still counts (a read: logged-out search)."""
    if click_id is None:
        return False
    with db_session() as db:
        return live_click(db, click_id, utcnow()) is not None
