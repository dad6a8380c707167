"""GET /api/auto-like.php (spec section 7): the like to announce to the member, as a profile with
id and main_image.match (the path under the CDN prefix), or null."""

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from app.request_auth import authentication_required, request_member_id
from models.directory import MemberTile
from state.likes import like_to_announce


def profile_json(tile: MemberTile) -> dict:
    image = {"match": f"photos/{tile.thumb_filename}"} if tile.thumb_filename else None
    return {"id": tile.id, "name": tile.name, "main_image": image}


def _answer(request: Request) -> Response:
    member_id = request_member_id(request)
    if member_id is None:
        return authentication_required()
    found = like_to_announce(member_id)
    return JSONResponse(
        {"profile": profile_json(found.liker) if found else None},
        headers={"Cache-Control": "no-store"},
    )


async def auto_like(request: Request) -> Response:
    return await asyncio.to_thread(_answer, request)
