"""`GET /shell.js`: assets/shell.js minified (rjsmin), once per process. The file stays
readable in the repository; the browser gets a third less to download (a shell of 20 KB is
6.9 KB gzipped as written, 4.6 KB minified). It overrides the copy Reflex serves from assets."""

import hashlib
from functools import cache

import rjsmin
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.script_response import script_response, zipped
from services.config import PROJECT_ROOT

SHELL_PATH = "/shell.js"
_SOURCE = PROJECT_ROOT / "assets" / "shell.js"


@cache
def _minified() -> str:
    return rjsmin.jsmin(_SOURCE.read_text(encoding="utf-8"))


@cache
def shell_version() -> str:
    return hashlib.blake2b(_SOURCE.read_bytes(), digest_size=6).hexdigest()


def shell_url() -> str:
    return f"{SHELL_PATH}?v={shell_version()}"


@cache
def _body(gzipped: bool) -> bytes:
    return zipped(_minified()) if gzipped else _minified().encode()


async def shell(request: Request) -> Response:
    return script_response(request, shell_version(), _body)


def shell_routes() -> list[Route]:
    return [Route(SHELL_PATH, shell, methods=["GET"])]
