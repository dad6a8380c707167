"""GET /api/auto-like.php (spec section 7): the like to announce to the member, as a profile with
id and main_image.match (the path under the CDN prefix), or null."""

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from actions.likes import like_to_announce
from actions.runner import act
from app.request_auth import authentication_required, request_viewer
from models.directory import MemberTile


def profile_json(tile: MemberTile) -> dict:
    image = {"match": f"photos/{tile.thumb_filename}"} if tile.thumb_filename else None
    return {"id": tile.id, "name": tile.name, "main_image": image}


async def auto_like(request: Request) -> Response:
    viewer = await request_viewer(request)
    if viewer is None:
        return authentication_required()
    found = await act(like_to_announce, viewer)
    return JSONResponse(
        {"profile": profile_json(found.liker) if found else None},
        headers={"Cache-Control": "no-store"},
    )
