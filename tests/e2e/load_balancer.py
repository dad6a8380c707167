"""Several instances of this site's production build behind nginx, for the two-instance test and
bench/capacity.py (docs/deploy.md): the site's own proxy settings
(deploy/nginx/amorly-proxy.conf) and, for the tests only, a cookie that pins a client to one
instance while it is up (`pin=<n>`: that instance first, the others as backups), so that a test
can put two members on different instances and move one when its instance dies. Each response
names the instance that served it (`X-Served-By`).
"""

import datetime
import os
import shutil
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from server import (
    REPO_ROOT,
    ServerError,
    free_port,
    launch,
    log_tail,
    stop,
    wait_until_ready,
)

from tests.site_build import SiteBuild

PROXY_CONF = REPO_ROOT / "deploy" / "nginx" / "amorly-proxy.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"  # Debian's nginx-light (`make debian-packages`)


def _group(name: str, ports: Sequence[int], first: int | None = None) -> str:
    lines = [
        f"server 127.0.0.1:{port}{' backup' if first is not None and port != first else ''}"
        " max_fails=1 fail_timeout=10s;"
        for port in ports
    ]
    return f"upstream {name} {{\n" + "\n".join(lines) + "\n}\n"


def self_signed_certificate(prefix: Path) -> tuple[Path, Path]:
    """A certificate and key for localhost, valid for a day, written into prefix."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    certificate_path, key_path = prefix / "localhost.pem", prefix / "localhost.key"
    certificate_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return certificate_path, key_path


def _listen(listen: int, prefix: Path, tls: bool) -> str:
    if not tls:
        return f"listen 127.0.0.1:{listen};"
    certificate, key = self_signed_certificate(prefix)
    # nginx 1.25+ writes `http2 on;` apart; Debian's 1.22 takes it on the listen line
    return (
        f"listen 127.0.0.1:{listen} ssl http2;\n"
        f"        ssl_certificate {certificate}; ssl_certificate_key {key};"
    )


def nginx_conf(listen: int, ports: Sequence[int], prefix: Path, tls: bool = False) -> str:
    """A whole nginx.conf for `listen` in front of the instances on `ports`."""
    groups = _group("amorly", ports) + "".join(
        _group(f"pin{number}", ports, port) for number, port in enumerate(ports)
    )
    pins = "".join(f"    {number} pin{number};\n" for number in range(len(ports)))
    temp = " ".join(f"{kind}_temp_path {prefix / kind};" for kind in ("client_body", "proxy"))
    # Started by root, the workers would run as `nobody`, who may not enter pytest's private
    # temporary folders: a request body too large for memory (a photo upload) would fail (500).
    user = "user root;" if os.geteuid() == 0 else ""
    # nginx counts both sides of a proxied connection: a member holds two for the tab's websocket
    # and two for the page's keep-alive requests. At 512, bench/capacity.py's 240 members met
    # connections reset (docs/deploy.md).
    return f"""
{user}
worker_processes 1;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} info;
events {{ worker_connections 4096; }}
http {{
    access_log {prefix / "access.log"};
    {temp}
    fastcgi_temp_path {prefix / "fastcgi"}; uwsgi_temp_path {prefix / "uwsgi"};
    scgi_temp_path {prefix / "scgi"};
    map $http_upgrade $amorly_connection {{ default upgrade; '' ''; }}
    map $cookie_pin $amorly_pool {{
        default amorly;
{pins}    }}
{groups}
    server {{
        {_listen(listen, prefix, tls)}
        add_header X-Served-By $upstream_addr always;
        include {PROXY_CONF};
    }}
}}
"""


@contextmanager
def load_balancer(
    listen: int, ports: Sequence[int], prefix: Path, *, tls: bool = False
) -> Iterator[str]:
    """nginx on 127.0.0.1:`listen` in front of the instances on `ports`; its URL."""
    prefix.mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_conf(listen, ports, prefix, tls))
    log_path = prefix / "nginx.out"
    args = [NGINX, "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"]
    with log_path.open("w") as log:
        process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    try:
        url = f"{'https' if tls else 'http'}://localhost:{listen}"
        try:
            wait_until_ready(url, process, log_path, verify=not tls)
        except ServerError as error:
            raise ServerError(f"{error}\n{log_tail(prefix / 'error.log')}") from None
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def shared_settings(work_dir: Path, database_url: str, redis_url: str) -> dict[str, str]:
    """What every instance of one deployment shares besides the build (docs/deploy.md)."""
    return {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SERVER_SECRET": os.urandom(32).hex(),
        "VAPID_KEY_FILE": str(work_dir / "vapid_private.pem"),
        "TRUSTED_PROXY_HOPS": "1",
    }


@dataclass(frozen=True)
class Instance:
    port: int
    data_dir: Path  # its own DATA_DIR: outboxes, export archives
    process: subprocess.Popen
    log_path: Path


@dataclass(frozen=True)
class Cluster:
    url: str  # nginx's, the build's port
    instances: tuple[Instance, ...]


def start_instance(
    build: SiteBuild, env: Mapping[str, str], work_dir: Path, number: int
) -> Instance:
    """One instance serving `build` on a port of its own, its data in work_dir/instance<n>."""
    port, data_dir = free_port(), work_dir / f"instance{number}"
    env = {**env, "DATA_DIR": str(data_dir), "REFLEX_WEB_WORKDIR": str(build.web_dir)}
    log_path = work_dir / f"instance{number}.log"
    process = launch(REPO_ROOT, port, env, log_path, built=True)
    try:
        wait_until_ready(f"http://localhost:{port}", process, log_path)
    except BaseException:
        stop(process)
        raise
    return Instance(port, data_dir, process, log_path)


@contextmanager
def instances_behind_nginx(
    build: SiteBuild, env: Mapping[str, str], work_dir: Path, count: int
) -> Iterator[Cluster]:
    """`count` instances of `build` with `env` (a site_env for the build's port, migrated and
    seeded), nginx on the build's port in front of them; all stopped on exit."""
    with ExitStack() as stack:
        instances = []
        for number in range(count):
            instance = start_instance(build, env, work_dir, number)
            stack.callback(stop, instance.process)
            instances.append(instance)
        ports = [instance.port for instance in instances]
        url = stack.enter_context(load_balancer(build.port, ports, work_dir / "nginx"))
        yield Cluster(url, tuple(instances))
