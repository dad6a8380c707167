"""Only our own origin: CORS and the websocket refuse other sites' pages, and every response
carries the security headers (pages, photos, our API and what Reflex serves)."""

from collections.abc import Iterator

import pytest
from reflex.app import App
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.http_api import http_api
from services.config import get_config

FOREIGN = "http://localhost:3001"  # another port of the same host is another site
EVENT_SOCKET = "/_event/?EIO=4&transport=websocket"


@pytest.fixture
def ours() -> str:
    return get_config().public_origin


@pytest.fixture
def reflex_backend(engine) -> TestClient:
    """Reflex's own backend app (its /ping, its websocket), with the CORS Reflex adds."""
    from app.app import app as reflex_app  # builds every page: only the tests that need it

    return TestClient(reflex_app._api)


@pytest.fixture
def site(engine) -> TestClient:
    """Our routes with Reflex's app mounted inside, as Reflex mounts it (`api_transformer`)."""
    api = http_api()
    App._add_cors(api)
    api.mount("", Starlette(routes=[Route("/index.html", lambda _r: PlainTextResponse("page"))]))
    return TestClient(api)


@pytest.fixture
def https_site(monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("PUBLIC_URL", "https://dates.example")
    get_config.cache_clear()
    yield TestClient(Starlette(routes=[Mount("", http_api())]))
    get_config.cache_clear()


def test_the_public_origin_is_scheme_host_and_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUBLIC_URL", "https://Dates.Example:8443/app/")
    get_config.cache_clear()
    try:
        assert get_config().public_origin == "https://dates.example:8443"
    finally:
        get_config.cache_clear()


@pytest.mark.parametrize("path", ["/api/chats.php", "/api/likes.php", "/index.html"])
def test_another_origin_gets_no_cors_answer(site: TestClient, ours: str, path: str) -> None:
    refused = site.get(path, headers={"origin": FOREIGN})
    assert "access-control-allow-origin" not in refused.headers
    preflight = {"origin": FOREIGN, "access-control-request-method": "DELETE"}
    assert "access-control-allow-origin" not in site.options(path, headers=preflight).headers
    allowed = site.get(path, headers={"origin": ours})
    assert allowed.headers["access-control-allow-origin"] == ours


def test_reflex_backend_answers_cors_for_our_origin_only(reflex_backend, ours: str) -> None:
    assert (
        "access-control-allow-origin"
        not in reflex_backend.get("/ping", headers={"origin": FOREIGN}).headers
    )
    assert (
        reflex_backend.get("/ping", headers={"origin": ours}).headers["access-control-allow-origin"]
        == ours
    )


def test_the_websocket_refuses_another_origin(reflex_backend: TestClient, ours: str) -> None:
    upgrade = {"upgrade": "websocket"}  # what a browser sends; the test client does not
    foreign = reflex_backend.websocket_connect(EVENT_SOCKET, headers={**upgrade, "origin": FOREIGN})
    with pytest.raises(WebSocketDisconnect), foreign as ws:
        ws.receive_text()
    with reflex_backend.websocket_connect(EVENT_SOCKET, headers={**upgrade, "origin": ours}) as ws:
        assert ws.receive_text().startswith("0{")  # engine.io's open packet


@pytest.mark.parametrize(
    "path", ["/index.html", "/api/chats.php", "/api/logout.php", "/media/photos/x.jpg"]
)
def test_every_response_carries_the_security_headers(site: TestClient, path: str) -> None:
    headers = site.get(path, follow_redirects=False).headers
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert "default-src 'self'" in policy and "connect-src 'self' ws://localhost" in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "strict-origin-when-cross-origin"
    assert "geolocation=(self)" in headers["permissions-policy"]
    assert "camera=()" in headers["permissions-policy"]
    assert "strict-transport-security" not in headers  # PUBLIC_URL is http here


def test_hsts_only_behind_https(https_site: TestClient) -> None:
    headers = https_site.get("/api/chats.php").headers
    assert headers["strict-transport-security"].startswith("max-age=")
    assert "connect-src 'self' wss://dates.example" in headers["content-security-policy"]
