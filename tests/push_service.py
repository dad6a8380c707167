"""A local Web Push service, as browsers' push services behave, for tests: it checks each push's
VAPID token (RFC 8292) and decrypts its aes128gcm body (RFC 8291) with the keys of a browser
subscription the tests made, so a test sees what a real browser would have received."""

import base64
import json
import os
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

HOST = "push.test"  # PUSH_SERVICE_HOSTS lets the sender post here


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class BrowserSubscription:
    """What a browser makes when it subscribes: an endpoint and its own key pair and secret."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)


@dataclass(frozen=True)
class ReceivedPush:
    subscription: str  # the endpoint's last path part
    payload: dict
    headers: dict[str, str]
    vapid_claims: dict


class VapidError(ValueError):
    pass


def verified_claims(authorization: str, audience: str) -> dict:
    """The claims of a `vapid t=<jwt>, k=<key>` header whose signature, audience and expiry
    hold."""
    scheme, _, params = authorization.partition(" ")
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    if scheme != "vapid" or not {"t", "k"} <= fields.keys():
        raise VapidError("not a vapid authorization")
    header, claims, signature = fields["t"].split(".")
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(fields["k"]))
    raw = b64url_decode(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    decoded = json.loads(b64url_decode(claims))
    if decoded.get("aud") != audience:
        raise VapidError(f"audience {decoded.get('aud')} is not {audience}")
    if not time.time() < decoded["exp"] <= time.time() + 24 * 3600:
        raise VapidError("expired or too long-lived")
    return decoded


class LocalPushService:
    """Answers each push with the next status of `answers` (then 201) and keeps what it
    received; a subscription it does not know is answered 404 (Gone is 410, as services do).
    `app` serves it in process (httpx's ASGI transport); `serving()` over real HTTP."""

    def __init__(self, origin: str = f"https://{HOST}") -> None:
        self.origin = origin
        self.subscriptions: dict[str, BrowserSubscription] = {}
        self.received: list[ReceivedPush] = []
        self.answers: deque[int] = deque()
        self.app = Starlette(routes=[Route("/push/{name}", self._push, methods=["POST"])])

    def subscribe(self, name: str) -> BrowserSubscription:
        subscription = BrowserSubscription(f"{self.origin}/push/{name}")
        self.subscriptions[name] = subscription
        return subscription

    def receive(self, url: str, headers: dict[str, str], body: bytes) -> int:
        """One push to `url` (headers in lower case): the status the service answers."""
        parts = urlsplit(url)
        claims = verified_claims(headers["authorization"], f"{parts.scheme}://{parts.netloc}")
        if self.answers:
            return self.answers.popleft()
        name = parts.path.rsplit("/", 1)[-1]
        subscription = self.subscriptions.get(name)
        if subscription is None:
            return 404
        assert headers["content-encoding"] == "aes128gcm"
        decrypted = http_ece.decrypt(
            body,
            private_key=subscription.private_key,
            auth_secret=subscription.auth_secret,
            version="aes128gcm",
        )
        self.received.append(ReceivedPush(name, json.loads(decrypted), headers, claims))
        return 201

    async def _push(self, request: Request) -> Response:
        headers = {key.lower(): value for key, value in request.headers.items()}
        return Response(status_code=self.receive(str(request.url), headers, await request.body()))


class _BusyServer(ThreadingHTTPServer):
    request_queue_size = 1024  # a burst of pushes connects at once, as at a real push service
    daemon_threads = True


@contextmanager
def serving() -> Iterator[LocalPushService]:
    """A LocalPushService over real HTTP on 127.0.0.1 (a free port), in a background thread, for
    a server in another process to post to."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            headers = {key.lower(): value for key, value in self.headers.items()}
            try:
                status = service.receive(service.origin + self.path, headers, body)
            except (VapidError, KeyError, AssertionError, ValueError, http_ece.ECEException):
                status = 400
            self.send_response(status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    server = _BusyServer(("127.0.0.1", 0), Handler)
    service = LocalPushService(f"http://127.0.0.1:{server.server_port}")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
