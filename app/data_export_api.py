"""The download of a member's data export: the mailed link's token AND the logged-in member it
belongs to; a visitor is asked to log in first and comes back here. An unknown, expired or
someone else's link leads to the account settings, where a new copy can be asked for."""

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from actions.data_export import export_download
from actions.runner import read
from app.request_auth import request_viewer
from models.data_export import DOWNLOAD_PATH
from models.routes import login_url, url

TOKEN_LENGTH = 64
ARCHIVE_NAME = "my-data.zip"


async def data_export(request: Request) -> Response:
    token = request.query_params.get("token", "")[:TOKEN_LENGTH]
    viewer = await request_viewer(request)
    if viewer is None:
        return RedirectResponse(login_url(f"{DOWNLOAD_PATH}?token={token}"), status_code=303)
    archive = await read(export_download, viewer, token)
    if archive is None:
        return RedirectResponse(url("settings", tab="account"), status_code=303)
    return Response(
        archive,
        media_type="application/zip",
        headers={
            "Content-Disposition": f'attachment; filename="{ARCHIVE_NAME}"',
            "Cache-Control": "no-store",
        },
    )


def data_export_routes() -> list[BaseRoute]:
    return [Route(DOWNLOAD_PATH, data_export, methods=["GET"])]
