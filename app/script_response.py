"""A script the server makes once per process and names by version: gzipped when the browser
takes it, kept for a year when asked for by its current version (`?v=`), else revalidated."""

import gzip
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import Response

_KEEP_A_YEAR = "public, max-age=31536000, immutable"


def zipped(script: str) -> bytes:
    return gzip.compress(script.encode(), compresslevel=9, mtime=0)


def script_response(request: Request, version: str, body: Callable[[bool], bytes]) -> Response:
    """`body(zipped)`: the script's bytes, gzipped or not (cached by the caller)."""
    current = request.query_params.get("v") == version
    wants_gzip = "gzip" in request.headers.get("accept-encoding", "")
    headers = {"Cache-Control": _KEEP_A_YEAR if current else "no-cache", "Vary": "Accept-Encoding"}
    if wants_gzip:
        headers["Content-Encoding"] = "gzip"
    return Response(body(wants_gzip), media_type="text/javascript; charset=utf-8", headers=headers)
