"""A recorded click and the cookie that names it, for the tests of what a click opens."""

from datetime import timedelta

from sqlmodel import Session

from models.member import utcnow
from models.traffic import TrafficClick, clean_tracking
from services.click_cookie import CLICK_COOKIE, signed


def recorded_click(db: Session, age: timedelta = timedelta(0), **tracking: object) -> TrafficClick:
    """A click recorded `age` ago with `tracking`, cleaned as the middleware cleans it."""
    click = TrafficClick(created_at=utcnow() - age, **clean_tracking(tracking))
    db.add(click)
    db.commit()
    return click


def click_cookie(click_id: int, value: str | None = None) -> str:
    """The Cookie header of a browser holding the click's signed cookie (or `value` instead)."""
    return f"{CLICK_COOKIE}={value or signed(click_id, utcnow())}"
