"""The chat and likes calls of spec section 7, for the member behind the session cookie:
GET /api/chats.php, DELETE /api/chat.php and GET /api/likes.php; and POST /api/chat.php, the
chat page's way to send a text without the tab's state (docs/chat.md, "Sending outside the
state")."""

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from actions import chat
from actions.chat import iso
from actions.notices import here_now
from actions.overview import likes_overview
from actions.runner import act, read
from actions.viewer import Viewer, session_key
from app.auto_like_api import profile_json
from app.event_rate import ADDRESSES_TRACKED, KeyedBuckets
from app.request_auth import authentication_required, json_body, request_viewer
from models.chat import CLIENT_ID_RE, ChatError, Outgoing
from services.outages import log_failure
from state.chats import TEXT_INPUT
from translations.locales import supported

LIST_LIMIT = 200
NO_STORE = {"Cache-Control": "no-store"}
SEND_BODY_BYTES = 4 * TEXT_INPUT + 1024  # the longest text the composer holds, in UTF-8
# A member's texts a second through one worker: several times what anyone types; past it the
# page sends through the tab's state, which the socket's own limit holds (app/event_rate.py).
SEND_RATE, SEND_BURST = 5.0, 20.0
SENDS = KeyedBuckets(SEND_RATE, SEND_BURST, ADDRESSES_TRACKED)

log = logging.getLogger(__name__)


async def _chats(viewer: Viewer) -> dict:
    summaries, total = await read(chat.overview, viewer, LIST_LIMIT)
    chats = [
        {
            "conversation": summary.conversation_id,
            "profile": profile_json(summary.member),
            "num_unread_messages": summary.unread,
            "last_message": {
                "text": summary.last_body,
                "gift": summary.last_gift,
                "from_me": summary.last_from_me,
                "removed": summary.last_removed,
                # Received and flagged by the message filter: the client shows it behind the
                # veil ("This message may be offensive"), as the web chat does.
                "flagged": summary.last_veiled,
                "at": iso(summary.last_at),
            },
        }
        for summary in summaries
    ]
    return {"chats": chats, "total_unread_messages": total}


async def _likes(viewer: Viewer) -> dict:
    found = await read(likes_overview, viewer, LIST_LIMIT)
    return {
        "likes": [
            {"id": like.member.id, "profile": profile_json(like.member)} for like in found.given
        ],
        "liked_by": [
            {"id": like.member.id, "like_new": like.is_new, "profile": profile_json(like.member)}
            for like in found.received
        ],
        "total_new_likes": found.new,
    }


async def _answer(request: Request, build: Callable[[Viewer], Awaitable[dict]]) -> Response:
    viewer = await request_viewer(request)
    if viewer is None:
        return authentication_required()
    return JSONResponse(await build(viewer), headers=NO_STORE)


async def chats(request: Request) -> Response:
    return await _answer(request, _chats)


async def likes(request: Request) -> Response:
    return await _answer(request, _likes)


def _as_id(value: object) -> int | None:
    return (
        value
        if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**31
        else None
    )


async def delete_chat(request: Request) -> Response:
    """{"conversation": id} removes that chat, {"profile": id} every chat with that member."""
    viewer = await request_viewer(request)
    if viewer is None:
        return authentication_required()
    data = await json_body(request)
    if data is None:
        return JSONResponse({"error": "invalid_request"}, status_code=400)
    conversation_id, partner_id = _as_id(data.get("conversation")), _as_id(data.get("profile"))
    removed = None
    if conversation_id is not None or partner_id is not None:
        removed = await act(chat.remove, viewer, conversation_id, partner_id)
    if removed is None:
        return JSONResponse({"error": "not_found"}, status_code=404, headers=NO_STORE)
    return Response(status_code=204)


async def send_text(request: Request) -> Response:
    """{"conversation", "to", "client_id", "text", "tab", "language"}: a text in the chat the
    sending tab shows, stored and charged once per client id (actions/chat.send_outside). 200
    with the message as the sender sees it and the balance; the tab's balance also reaches it
    through its socket (MessageStored). Anything else (a refusal, a flagged text, the database away,
    too many) sends nothing, and the page sends the same text and client id through the tab's
    state, which tells the member why."""
    data = await json_body(request, SEND_BODY_BYTES)
    # the viewer check and the registry read the send needs, at once: one wait less a message
    viewer, here = await asyncio.gather(request_viewer(request), _recipient_here(data))
    if viewer is None:
        return authentication_required()
    if not SENDS.take(str(viewer.member_id)):
        return _not_sent("too_many_requests", 429)
    posted = _posted(viewer, data) if data is not None else None
    if posted is None:
        return _not_sent("invalid_request", 400)
    outgoing, tab = posted
    try:
        key = session_key(request.headers.get("cookie"))
        sent = await chat.send_outside(viewer, outgoing, tab, here, key)
    except ChatError:
        return _not_sent("refused", 409)
    except SQLAlchemyError:
        log_failure(log, "a message was not sent")
        return _not_sent("unavailable", 503)
    answer = {"conversation": sent.conversation_id, "message": sent.bubble}
    return JSONResponse(answer | {"credits": sent.credits_left}, headers=NO_STORE)


async def _recipient_here(data: dict | None) -> bool:
    """Whether the member a post writes to has a tab on the site (False without one)."""
    to = _as_id(data.get("to")) if data is not None else None
    return await here_now(to) if to is not None else False


def _posted(viewer: Viewer, data: dict) -> tuple[Outgoing, str] | None:
    """The text to send and the sending tab's client token from the posted fields, None when
    one is missing or malformed."""
    conversation_id, partner_id = _as_id(data.get("conversation")), _as_id(data.get("to"))
    client_id, tab, text = _token(data.get("client_id")), _token(data.get("tab")), data.get("text")
    if conversation_id is None or partner_id is None or not isinstance(text, str):
        return None
    if client_id is None or tab is None:
        return None
    language = data.get("language")
    outgoing = Outgoing(
        viewer.member_id,
        partner_id,
        client_id,
        text[:TEXT_INPUT],
        language=(isinstance(language, str) and supported(language)) or viewer.language,
        conversation_id=conversation_id,
    )
    return outgoing, tab


def _token(value: object) -> str | None:
    """A client id or a tab's token (the browser mints both), None for anything else."""
    return value if isinstance(value, str) and CLIENT_ID_RE.fullmatch(value) else None


def _not_sent(error: str, status: int) -> JSONResponse:
    return JSONResponse({"error": error}, status_code=status, headers=NO_STORE)
