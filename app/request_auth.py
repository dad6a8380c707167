"""Who sent an HTTP request: the member behind its session cookie, for our HTTP routes."""

from sqlmodel import Session
from starlette.requests import Request
from starlette.responses import JSONResponse

from models.auth_session import member_id_for_token
from services.database import db_session
from state.session import SESSION_COOKIE


def viewer_id(db: Session, request: Request) -> int | None:
    return member_id_for_token(db, request.cookies.get(SESSION_COOKIE))


def request_member_id(request: Request) -> int | None:
    with db_session() as db:
        return viewer_id(db, request)


def authentication_required() -> JSONResponse:
    """The answer that makes our pages log out (spec section 4)."""
    return JSONResponse(
        {"error": "authentication_required"},
        status_code=403,
        headers={"Cache-Control": "no-store"},
    )
