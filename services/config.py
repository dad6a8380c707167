"""Every environment variable the site reads, with its embedded default, in one place."""

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _sqlalchemy_url(url: str) -> str:
    """Point plain PostgreSQL URLs at the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class AppConfig:
    data_dir: Path
    database_url: str
    redis_url: str | None
    port: int
    public_url: str
    demo_members: int
    smtp_url: str | None
    mail_from: str
    sms_url: str | None
    trusted_proxy_hops: int
    mollie_api_key: str | None
    mollie_api_url: str | None
    test_payments: bool
    push_service_hosts: frozenset[str] = frozenset()  # host[:port] posted to besides the known
    mail_events_secret: str | None = None  # the bearer token of the mail provider's webhook
    server_secret: str | None = None  # the MAC key; unset: DATA_DIR/server_secret
    settings_cache_seconds: float = 30.0  # how long a worker keeps the site settings
    job_worker: bool = True  # JOB_WORKER=off: jobs run in `python -m app.worker`, not here
    log_format: str = "text"  # LOG_FORMAT=json: one JSON object a line (services/logs.py)
    metrics_token: str | None = None  # the bearer token of /metrics (app/ops_api.py)
    # Photos in an S3-compatible bucket instead of DATA_DIR/media (services/photo_store.py)
    object_store_url: str | None = None  # the endpoint, e.g. https://s3.eu-west-1.amazonaws.com
    object_store_bucket: str = "photos"
    object_store_region: str = "us-east-1"
    object_store_key_id: str | None = None  # unset: boto3's own chain (AWS_*, instance role)
    object_store_secret: str | None = None

    @property
    def outbox_dir(self) -> Path:
        return self.data_dir / "outbox"

    @property
    def sms_outbox_dir(self) -> Path:
        return self.data_dir / "sms_outbox"

    @property
    def media_dir(self) -> Path:
        return self.data_dir / "media"

    @property
    def vapid_key_file(self) -> Path:
        """The push (VAPID) private key, PEM; created on first use when missing."""
        return Path(os.environ.get("VAPID_KEY_FILE") or self.data_dir / "vapid_private.pem")

    @property
    def public_origin(self) -> str:
        """`scheme://host[:port]` of PUBLIC_URL: what browsers send as Origin from our pages."""
        parts = urlsplit(self.public_url)
        return f"{parts.scheme}://{parts.netloc}".lower()

    @property
    def secure_cookies(self) -> bool:
        return self.public_url.startswith("https://")

    @property
    def uses_postgres(self) -> bool:
        return self.database_url.startswith("postgresql")


@cache
def get_config() -> AppConfig:
    data_dir = Path(os.environ.get("DATA_DIR") or PROJECT_ROOT / "data").resolve()
    port = int(os.environ.get("PORT") or 3000)
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{data_dir / 'app.db'}"
    return AppConfig(
        data_dir=data_dir,
        database_url=_sqlalchemy_url(database_url),
        redis_url=os.environ.get("REDIS_URL") or None,
        port=port,
        public_url=(os.environ.get("PUBLIC_URL") or f"http://localhost:{port}").rstrip("/"),
        demo_members=int(os.environ.get("DEMO_MEMBERS") or 300) if _flag("DEMO_DATA", True) else 0,
        smtp_url=os.environ.get("SMTP_URL") or None,
        mail_from=os.environ.get("MAIL_FROM") or "noreply@localhost",
        sms_url=os.environ.get("SMS_URL") or None,
        trusted_proxy_hops=int(os.environ.get("TRUSTED_PROXY_HOPS") or 0),
        mollie_api_key=os.environ.get("MOLLIE_API_KEY") or None,
        mollie_api_url=os.environ.get("MOLLIE_API_URL") or None,
        test_payments=_flag("TEST_PAYMENTS", False),
        push_service_hosts=frozenset(
            host.strip().lower()
            for host in (os.environ.get("PUSH_SERVICE_HOSTS") or "").split(",")
            if host.strip()
        ),
        mail_events_secret=os.environ.get("MAIL_EVENTS_SECRET") or None,
        server_secret=os.environ.get("SERVER_SECRET") or None,
        settings_cache_seconds=float(os.environ.get("SETTINGS_CACHE_SECONDS") or 30),
        job_worker=_flag("JOB_WORKER", True),
        log_format="json" if os.environ.get("LOG_FORMAT", "").strip().lower() == "json" else "text",
        metrics_token=os.environ.get("METRICS_TOKEN") or None,
        object_store_url=os.environ.get("OBJECT_STORE_URL") or None,
        object_store_bucket=os.environ.get("OBJECT_STORE_BUCKET") or "photos",
        object_store_region=os.environ.get("OBJECT_STORE_REGION") or "us-east-1",
        object_store_key_id=os.environ.get("OBJECT_STORE_ACCESS_KEY_ID") or None,
        object_store_secret=os.environ.get("OBJECT_STORE_SECRET_ACCESS_KEY") or None,
    )
