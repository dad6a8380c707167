"""A real S3 server for the photo-store tests: moto's server mode, started once per test
process on a free port (not a mock of the client: boto3 speaks HTTP to it)."""

import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from services.config import get_config
from services.photo_store_s3 import BucketFolder, bucket_client
from tests.network import free_port

START_SECONDS = 20
KEYS = {"OBJECT_STORE_ACCESS_KEY_ID": "testing", "OBJECT_STORE_SECRET_ACCESS_KEY": "testing"}


def _wait_until_up(url: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"moto_server exited with {server.returncode}")
        try:
            httpx.get(f"{url}/moto-api/", timeout=1)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError(f"moto_server did not answer at {url} within {START_SECONDS} s")


@pytest.fixture(scope="session")
def s3_server() -> Iterator[str]:
    """The endpoint URL of a moto S3 server running for this test session."""
    port = free_port()
    command = [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, server)
        yield url
    finally:
        server.terminate()
        server.wait(10)


def new_bucket(url: str, folder: str = "photos") -> tuple[dict[str, str], BucketFolder]:
    """A new, empty bucket on the S3 server at url: the OBJECT_STORE_* variables of a site (or
    of several instances) storing into it, and its `folder` as the tests read it."""
    bucket = f"photos-{uuid.uuid4().hex[:12]}"
    config = replace(
        get_config(),
        object_store_url=url,
        object_store_bucket=bucket,
        object_store_key_id=KEYS["OBJECT_STORE_ACCESS_KEY_ID"],
        object_store_secret=KEYS["OBJECT_STORE_SECRET_ACCESS_KEY"],
    )
    client = bucket_client(config)
    client.create_bucket(Bucket=bucket)
    env = {"OBJECT_STORE_URL": url, "OBJECT_STORE_BUCKET": bucket, **KEYS}
    return env, BucketFolder(client, bucket, folder)


@pytest.fixture
def bucket_site(s3_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The site configured for a new, empty bucket on the S3 server (DATA_DIR in tmp_path);
    the bucket's name."""
    env, _photos = new_bucket(s3_server)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    get_config.cache_clear()
    yield env["OBJECT_STORE_BUCKET"]
    get_config.cache_clear()
