"""The chat and likes calls of spec section 7, for the member behind the session cookie:
GET /api/chats.php, DELETE /api/chat.php and GET /api/likes.php."""

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from actions import chat
from actions.chat import iso
from actions.overview import likes_overview
from actions.runner import act, read
from actions.viewer import Viewer
from app.auto_like_api import profile_json
from app.request_auth import authentication_required, json_body, request_viewer

LIST_LIMIT = 200
NO_STORE = {"Cache-Control": "no-store"}


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
