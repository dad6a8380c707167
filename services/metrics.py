"""The Prometheus metrics the site exports at /metrics (app/ops_api.py, docs/operations.md).

Every label takes values from a bounded set: a registered event handler's name, an HTTP method
of a fixed list, a status class, a job's registered name, an order status. Under `reflex run`
each granian worker writes its counts to files in a folder the workers share
(`PROMETHEUS_MULTIPROC_DIR`, set by services/app_server.py before any worker starts), and the
worker that answers a scrape sums them all.
"""

import glob
import logging
import os
import re

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import REGISTRY, Collector
from sqlalchemy import text

from services import database
from services.app_server import process_alive
from services.outages import log_failure

log = logging.getLogger(__name__)
MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"
SECONDS_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
QUEUE_TIMEOUT_MS = 2000
JOB_STATUSES = ("todo", "doing", "failed")  # shown as 0 when the queue has none

EVENTS = Counter(
    "reflex_events", "Reflex events handled, by handler and outcome", ["handler", "outcome"]
)
EVENT_SECONDS = Histogram(
    "reflex_event_seconds",
    "Time from an event's start to its handler's end, state lock included",
    ["handler"],
    buckets=SECONDS_BUCKETS,
)
SOCKETS = Gauge(
    "reflex_websocket_connections", "Open Reflex websockets", multiprocess_mode="livesum"
)
HTTP_REQUESTS = Counter("http_requests", "HTTP requests answered", ["method", "status"])
JOBS_RUNNING = Gauge(
    "jobs_running_local", "Jobs running in this process (SQLite)", multiprocess_mode="livesum"
)
JOBS_FAILED = Counter("jobs_failed_local", "Jobs failed for good in this process (SQLite)", ["job"])
PAYMENTS = Counter("payments", "Orders moved to a new status after a payment", ["status"])
WEBHOOKS = Counter("payment_webhooks", "Payment webhooks received, by answer", ["outcome"])


def http_request(method: str, status: int) -> None:
    HTTP_REQUESTS.labels(method if method in HTTP_METHODS else "other", f"{status // 100}xx").inc()


class JobQueue(Collector):
    """procrastinate's jobs by status, read at each scrape (PostgreSQL only: on SQLite jobs run
    in the process that deferred them and are counted by JOBS_RUNNING and JOBS_FAILED)."""

    def describe(self) -> list[Metric]:
        return []  # nothing to read at registration

    def collect(self) -> list[Metric]:
        if database.get_engine().dialect.name != "postgresql":
            return []
        family = GaugeMetricFamily("jobs", "procrastinate jobs by status", labels=["status"])
        try:
            counts = dict.fromkeys(JOB_STATUSES, 0) | dict(_job_counts())
        except Exception as error:
            log_failure(log, "counting the job queue failed", error=error)
            return []
        for status, count in counts.items():
            family.add_metric([status], count)
        return [family]


def _job_counts() -> list[tuple[str, int]]:
    with database.get_engine().connect() as connection, connection.begin():
        connection.execute(text(f"SET LOCAL statement_timeout = {QUEUE_TIMEOUT_MS}"))
        rows = connection.execute(
            text("SELECT status::text, count(*) FROM procrastinate_jobs GROUP BY status")
        )
        return [(status, count) for status, count in rows]


def render() -> bytes:
    """The exposition text of every metric (the job queue read from the database: call it off
    the event loop)."""
    registry = CollectorRegistry()
    folder = os.environ.get(MULTIPROCESS_DIR)
    if folder:
        _forget_dead_workers(folder)
        MultiProcessCollector(registry, folder)
    else:
        registry.register(REGISTRY)
    registry.register(JobQueue())
    return generate_latest(registry)


_LIVE_FILE = re.compile(r"gauge_live\w*_(\d+)\.db")


def _forget_dead_workers(folder: str) -> None:
    """A worker that died (granian respawns it) leaves its live gauges' files behind: they would
    count its websockets forever. Counters and histograms keep its counts, as they should."""
    for path in glob.glob(os.path.join(folder, "gauge_live*_*.db")):
        found = _LIVE_FILE.fullmatch(os.path.basename(path))
        if found and not process_alive(int(found.group(1))):
            mark_process_dead(int(found.group(1)), folder)
