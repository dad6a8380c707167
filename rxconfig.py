import reflex as rx

from app.radix_theme import radix_themes
from app.stand_in_pages import StandInPrerender
from services.app_server import respawn_failed_workers, share_metrics_between_workers
from services.config import get_config

LOCK_EXPIRATION_MS = 5000

respawn_failed_workers()

_config = get_config()
_config.data_dir.mkdir(parents=True, exist_ok=True)
share_metrics_between_workers(_config.data_dir)

config = rx.Config(
    app_name="app",
    db_url=_config.database_url,
    redis_url=_config.redis_url,
    state_manager_mode="redis" if _config.redis_url else "disk",
    frontend_port=_config.port,
    backend_port=_config.port,
    deploy_url=_config.public_url,
    api_url=_config.public_url,
    # Only our own pages: Reflex gives this list to its CORS middleware (our HTTP routes
    # included) and to socket.io, which refuses a websocket from any other Origin.
    cors_allowed_origins=[_config.public_origin],
    # Behind N reverse proxies the client's address is the Nth from the right of
    # X-Forwarded-For; with 0 it is the socket's peer (the log-in and reset throttles count it).
    trusted_proxy_hops=_config.trusted_proxy_hops,
    # A tab's state lock dies with the instance holding it; until it expires the tab cannot go
    # on through another instance. Every slow handler is a background event that holds the
    # lock only briefly (docs/deploy.md). The warning names an event nearing the expiry.
    redis_lock_expiration=LOCK_EXPIRATION_MS,
    redis_lock_warning_threshold=LOCK_EXPIRATION_MS // 2,
    telemetry_enabled=False,
    show_built_with_reflex=False,
    plugins=[
        radix_themes(),
        rx.plugins.SitemapPlugin(),
        StandInPrerender(),  # landers and member pages prerendered at a stand-in path
    ],
)
