"""The chat and likes calls of spec section 7, for the member behind the session cookie:
GET /api/chats.php, DELETE /api/chat.php and GET /api/likes.php."""

import asyncio
from collections.abc import Callable
from datetime import date

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from app.auto_like_api import profile_json
from app.request_auth import authentication_required, json_body, request_member_id
from models.chat import chat_list, remove_chat, remove_chats_with, unread_total
from models.likes import given_likes, new_like_count, received_likes
from services.database import db_session
from state.chat_views import iso

LIST_LIMIT = 200
NO_STORE = {"Cache-Control": "no-store"}


def _chats(member_id: int) -> dict:
    with db_session() as db:
        summaries = chat_list(db, member_id, date.today(), LIST_LIMIT)
        total = unread_total(db, member_id)
    chats = [
        {
            "conversation": chat.conversation_id,
            "profile": profile_json(chat.member),
            "num_unread_messages": chat.unread,
            "last_message": {
                "text": chat.last_body,
                "gift": chat.last_gift,
                "from_me": chat.last_from_me,
                "at": iso(chat.last_at),
            },
        }
        for chat in summaries
    ]
    return {"chats": chats, "total_unread_messages": total}


def _likes(member_id: int) -> dict:
    today = date.today()
    with db_session() as db:
        given = given_likes(db, member_id, today, LIST_LIMIT)
        received = received_likes(db, member_id, today, LIST_LIMIT)
        total_new = new_like_count(db, member_id)
    return {
        "likes": [{"id": like.member.id, "profile": profile_json(like.member)} for like in given],
        "liked_by": [
            {"id": like.member.id, "like_new": like.is_new, "profile": profile_json(like.member)}
            for like in received
        ],
        "total_new_likes": total_new,
    }


async def _answer(request: Request, build: Callable[[int], dict]) -> Response:
    member_id = await asyncio.to_thread(request_member_id, request)
    if member_id is None:
        return authentication_required()
    return JSONResponse(await asyncio.to_thread(build, member_id), headers=NO_STORE)


async def chats(request: Request) -> Response:
    return await _answer(request, _chats)


async def likes(request: Request) -> Response:
    return await _answer(request, _likes)


def _as_id(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _remove(member_id: int, data: dict) -> bool:
    """{"conversation": id} removes that chat, {"profile": id} every chat with that member."""
    with db_session() as db:
        if (conversation_id := _as_id(data.get("conversation"))) is not None:
            return remove_chat(db, member_id, conversation_id)
        if (profile_id := _as_id(data.get("profile"))) is not None:
            return bool(remove_chats_with(db, member_id, profile_id))
    return False


async def delete_chat(request: Request) -> Response:
    member_id = await asyncio.to_thread(request_member_id, request)
    if member_id is None:
        return authentication_required()
    data = await json_body(request)
    if data is None:
        return JSONResponse({"error": "invalid_request"}, status_code=400)
    if not await asyncio.to_thread(_remove, member_id, data):
        return JSONResponse({"error": "not_found"}, status_code=404, headers=NO_STORE)
    return Response(status_code=204)
