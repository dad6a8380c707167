"""/healthz, /readyz and /metrics (app/ops_api.py), the request and event ids of the log lines
(services/logs.py) and the counters behind the metrics (docs/operations.md)."""

import asyncio
import io
import json
import logging
import os
import socket
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
import reflex as rx
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from reflex.istate.manager import StateManager
from reflex_base.registry import RegistrationContext
from sqlalchemy import Engine
from sqlmodel import Session
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

import app.job_modules  # noqa: F401 - registers the jobs
import services.database
import services.health
from actions.payment_flow import start_checkout
from actions.viewer import Viewer
from app.event_metrics import handler_label, measure_events, measured
from app.http_api import http_api
from app.request_ids import HEADER, RequestIds
from models.db import make_engine
from models.member import utcnow
from services import jobs
from services.app_server import METRICS_DIR_VARIABLE, share_metrics_between_workers
from services.config import get_config
from services.logs import log_handler
from services.payments.provider import WEBHOOK_PATH
from services.request_ids import EVENT_ID
from tests.event_socket import HYDRATE, NAMESPACE, EventSocketSite
from tests.factories import make_member
from tests.payments_fixtures import Shop

TOKEN = "s3cret-metrics-token"


@pytest.fixture
def site(engine: Engine, outbox, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The site's HTTP routes with METRICS_TOKEN set, reached from a non-local address."""
    monkeypatch.setenv("METRICS_TOKEN", TOKEN)
    get_config.cache_clear()
    yield TestClient(http_api(), base_url="https://testserver", client=("203.0.113.9", 40000))
    get_config.cache_clear()


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _sample(client: TestClient, name: str, **labels: str) -> float:
    """A sample's value from /metrics (0 when absent)."""
    answer = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return sample.value
    return 0.0


def test_healthz_answers_without_asking_anything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.database, "get_engine", lambda: pytest.fail("asked the db"))
    answer = TestClient(http_api()).get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok"}
    assert answer.headers["cache-control"] == "no-store"


def test_readyz_names_every_dependency_when_ready(site: TestClient) -> None:
    answer = site.get("/readyz")
    assert answer.status_code == 200, answer.text
    expected = {"database": "ok", "photos": "ok"}
    if get_config().redis_url:
        expected["redis"] = "ok"
    assert answer.json() == {"status": "ok", "checks": expected}


def test_readyz_503_names_an_unreachable_redis(
    site: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{_closed_port()}/0")
    get_config.cache_clear()
    answer = site.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["failed"] == {"redis": "unreachable"}
    assert answer.json()["checks"]["database"] == "ok"


def test_readyz_503_names_an_unreachable_database(
    site: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    away = make_engine(f"postgresql+psycopg://postgres@127.0.0.1:{_closed_port()}/nowhere")
    monkeypatch.setattr(services.database, "get_engine", lambda: away)
    answer = site.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["failed"] == {"database": "unreachable"}


def test_readyz_bounds_a_dependency_that_never_answers(
    site: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Redis that takes the connection and says nothing: timed out, not a hung probe."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{silent.getsockname()[1]}/0")
        monkeypatch.setattr(services.health, "CHECK_SECONDS", 0.3)
        get_config.cache_clear()
        answer = site.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["failed"] == {"redis": "timed out"}


def test_metrics_are_hidden_from_strangers(site: TestClient) -> None:
    assert site.get("/metrics").status_code == 404
    assert site.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 404
    assert site.get("/metrics", headers={"Authorization": f"Basic {TOKEN}"}).status_code == 404


def test_metrics_for_the_token(site: TestClient) -> None:
    answer = site.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert "reflex_websocket_connections" in answer.text


def test_metrics_without_a_token_need_a_local_address_no_proxy_relayed(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("METRICS_TOKEN", raising=False)
    get_config.cache_clear()
    local = TestClient(http_api(), client=("127.0.0.1", 40000))
    assert local.get("/metrics").status_code == 200
    assert TestClient(http_api(), client=("::1", 40000)).get("/metrics").status_code == 200
    relayed = {"X-Forwarded-For": "198.51.100.7"}
    assert local.get("/metrics", headers=relayed).status_code == 404
    monkeypatch.setenv("TRUSTED_PROXY_HOPS", "1")
    get_config.cache_clear()
    assert local.get("/metrics", headers=relayed).status_code == 404
    assert local.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"}).status_code == 200
    spoofed = {"X-Forwarded-For": "127.0.0.1, 198.51.100.7"}
    assert local.get("/metrics", headers=spoofed).status_code == 404
    get_config.cache_clear()


def test_requests_and_webhooks_are_counted(site: TestClient) -> None:
    requests = _sample(site, "http_requests_total", method="GET", status="2xx")
    webhooks = _sample(site, "payment_webhooks_total", outcome="malformed")
    assert site.post(WEBHOOK_PATH, content=b"id=nonsense").status_code == 400
    assert _sample(site, "http_requests_total", method="GET", status="2xx") > requests
    assert _sample(site, "payment_webhooks_total", outcome="malformed") == webhooks + 1


def test_an_event_is_counted_timed_and_given_an_id(site: TestClient) -> None:
    seen: list[str | None] = []

    async def execute(*, entry: object, registered_handler: object) -> None:
        seen.append(EVENT_ID.get())

    async def fail(*, entry: object, registered_handler: object) -> None:
        raise ValueError("boom")

    def send() -> None:
        pass

    handler = SimpleNamespace(handler=SimpleNamespace(fn=send))
    entry = SimpleNamespace(ctx=SimpleNamespace(txid="a1b2c3d4e5f6"))
    name = f"{__name__}.test_an_event_is_counted_timed_and_given_an_id.<locals>.send"
    counts = [
        _sample(site, "reflex_events_total", handler=name, outcome="ok"),
        _sample(site, "reflex_events_total", handler=name, outcome="error"),
        _sample(site, "reflex_event_seconds_count", handler=name),
    ]
    asyncio.run(measured(execute)(entry=entry, registered_handler=handler))
    with pytest.raises(ValueError):
        asyncio.run(measured(fail)(entry=entry, registered_handler=handler))
    assert seen == ["a1b2c3d4e5f6"]
    assert [
        _sample(site, "reflex_events_total", handler=name, outcome="ok"),
        _sample(site, "reflex_events_total", handler=name, outcome="error"),
        _sample(site, "reflex_event_seconds_count", handler=name),
    ] == [counts[0] + 1, counts[1] + 1, counts[2] + 2]


@pytest.fixture(scope="module")
def served() -> Iterator[EventSocketSite]:
    """One event loop for the module: the state manager's Redis client stays on it. Its event
    processor wrapped as app/app.py wraps it."""
    served = EventSocketSite()
    fresh_state_manager(served.app)  # not one whose Redis client another module's loop holds
    with served.client:
        measure_events(served.app)
        yield served
    fresh_state_manager(served.app)


def fresh_state_manager(app: rx.App) -> None:
    app._state_manager = StateManager.create()


def test_a_tabs_events_and_socket_are_counted(served: EventSocketSite, engine: Engine) -> None:
    """Through Reflex's own websocket and event processor."""
    hydrate = handler_label(_registered(HYDRATE))
    before = _value("reflex_events_total", handler=hydrate, outcome="ok")
    sockets = _value("reflex_websocket_connections")
    with served.tab() as tab:
        tab.hydrate("/")
        assert _value("reflex_websocket_connections") == sockets + 1
        # the tab leaves the namespace (the test client cancels the socket on close
        # before socket.io could see it go)
        tab.send(f"41{NAMESPACE},")
        tab.barrier()
        assert _value("reflex_websocket_connections") == sockets
    assert _value("reflex_events_total", handler=hydrate, outcome="ok") == before + 1
    assert _value("reflex_event_seconds_count", handler=hydrate) >= 1


def _registered(name: str) -> object:
    return RegistrationContext.get().event_handlers[name]


def _value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_the_job_queue_is_counted(site: TestClient, db: Session) -> None:
    """PostgreSQL: procrastinate's jobs by status; SQLite: the failures of this process."""
    if db.get_bind().dialect.name == "postgresql":
        scraped = site.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
        assert 'jobs{status="failed"} 0.0' in scraped  # present before any job failed
        jobs.defer(db, "purge")
        db.commit()
        assert _sample(site, "jobs", status="todo") == 1
        return
    before = _sample(site, "jobs_failed_local_total", job="purge")
    jobs._kinds["purge"], real = jobs.JobKind("purge", _failing, ()), jobs._kinds["purge"]
    try:
        assert asyncio.run(jobs.run_now(jobs.Call("purge"))) is False
    finally:
        jobs._kinds["purge"] = real
    assert _sample(site, "jobs_failed_local_total", job="purge") == before + 1


async def _failing() -> None:
    raise RuntimeError("the job failed")


def _logged(_request: Request) -> PlainTextResponse:
    logging.getLogger("app.ops_test").info("served %s", "it", extra={"member_id": 7})
    return PlainTextResponse("ok")


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    handler, stream = log_handler("json"), io.StringIO()
    handler.setStream(stream)
    logger = logging.getLogger("app.ops_test")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield stream
    logger.removeHandler(handler)


def test_a_json_log_line_carries_the_request_id(json_log: io.StringIO) -> None:
    client = TestClient(
        Starlette(routes=[Route("/", _logged)], middleware=[Middleware(RequestIds)])
    )
    answer = client.get("/", headers={HEADER: "req-0123456789"})
    assert answer.headers[HEADER] == "req-0123456789"
    line = json.loads(json_log.getvalue().splitlines()[-1])
    assert line["request_id"] == "req-0123456789"
    assert line["message"] == "served it"
    assert line["logger"] == "app.ops_test"
    assert line["level"] == "INFO"
    assert line["member_id"] == 7
    assert line["timestamp"].endswith("+00:00")


def test_a_malformed_request_id_is_replaced(json_log: io.StringIO) -> None:
    client = TestClient(
        Starlette(routes=[Route("/", _logged)], middleware=[Middleware(RequestIds)])
    )
    answer = client.get("/", headers={HEADER: 'x" injected'})
    fresh = answer.headers[HEADER]
    assert fresh != 'x" injected' and len(fresh) == 32
    assert json.loads(json_log.getvalue().splitlines()[-1])["request_id"] == fresh


async def test_a_paid_order_and_its_webhook_are_counted(db: Session, shop: Shop) -> None:
    member = make_member(db, signup_date=utcnow() - timedelta(days=2))
    paid = _value("payments_total", status="paid")
    applied = _value("payment_webhooks_total", outcome="applied")
    viewer = Viewer(member.id, member.status, "en", member.paid_user)
    started = await start_checkout(viewer, "p1", "ideal", "NL", None)
    await shop.pay(started.checkout_url)
    assert _value("payments_total", status="paid") == paid + 1
    assert _value("payment_webhooks_total", outcome="applied") >= applied + 1


def test_reflex_run_gives_its_workers_one_metrics_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(METRICS_DIR_VARIABLE, "")  # so that the variable is removed afterwards
    monkeypatch.delenv(METRICS_DIR_VARIABLE)
    share_metrics_between_workers(tmp_path, ["/srv/.venv/bin/python", "-m", "pytest"])
    assert METRICS_DIR_VARIABLE not in os.environ  # not the server: nothing to share
    ended = tmp_path / "metrics" / "4194999"  # above Linux's largest pid: a run that ended
    ended.mkdir(parents=True)
    share_metrics_between_workers(tmp_path, ["/srv/.venv/bin/reflex", "run", "--env", "prod"])
    own = tmp_path / "metrics" / str(os.getpid())
    assert os.environ[METRICS_DIR_VARIABLE] == str(own)
    assert own.is_dir() and not ended.exists()
