"""The routes of the load balancer and the monitoring (docs/operations.md):

- `/healthz`: the process answers (nothing else is asked);
- `/readyz`: the database, Redis and the photo store answer (services/health.py), else 503
  naming what failed;
- `/metrics`: Prometheus' text (services/metrics.py), only for `Authorization: Bearer
  METRICS_TOKEN` or a request from this machine that no proxy relayed; 404 for anyone else.
"""

import asyncio
import hmac
from ipaddress import ip_address

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from services.client_address import forwarded_client
from services.config import get_config
from services.health import OK, readiness
from services.metrics import render

NO_STORE = {"Cache-Control": "no-store"}
PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8"


async def healthz(_request: Request) -> Response:
    return JSONResponse({"status": "ok"}, headers=NO_STORE)


async def readyz(_request: Request) -> Response:
    checks = await readiness()
    failed = {name: state for name, state in checks.items() if state != OK}
    if failed:
        body = {"status": "unavailable", "failed": failed, "checks": checks}
        return JSONResponse(body, status_code=503, headers=NO_STORE)
    return JSONResponse({"status": "ok", "checks": checks}, headers=NO_STORE)


async def metrics(request: Request) -> Response:
    if not (_bearer_token_matches(request) or _from_this_machine(request)):
        return Response(status_code=404)
    text = await asyncio.to_thread(render)
    return Response(text, media_type=PROMETHEUS_TEXT, headers=NO_STORE)


def _bearer_token_matches(request: Request) -> bool:
    token = get_config().metrics_token
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if not token or scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode(), token.encode())


def _from_this_machine(request: Request) -> bool:
    """The client is a loopback address: the peer itself when no proxy relayed the request,
    else the address the outermost of TRUSTED_PROXY_HOPS proxies saw. A proxy on this machine
    relays the world from 127.0.0.1: its X-Forwarded-For decides, and without trusted hops a
    relayed request is never local."""
    peer = request.client.host if request.client else ""
    forwarded = ", ".join(request.headers.getlist("x-forwarded-for"))
    hops = get_config().trusted_proxy_hops
    if not forwarded.strip() and "forwarded" not in request.headers:
        return _loopback(peer)
    listed = [address for address in forwarded.split(",") if address.strip()]
    if hops == 0 or len(listed) < hops:
        return False
    return _loopback(forwarded_client(peer, forwarded, hops))


def _loopback(address: str) -> bool:
    try:
        parsed = ip_address(address.strip())
    except ValueError:
        return False
    mapped = getattr(parsed, "ipv4_mapped", None)
    return (mapped or parsed).is_loopback


def ops_routes() -> list[Route]:
    return [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
    ]
