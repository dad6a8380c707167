"""The VAPID key is made once, however many threads ask for it first, and a key already there
is never replaced."""

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from services import push_keys


@pytest.fixture
def key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "keys" / "vapid_private.pem"
    monkeypatch.setenv("VAPID_KEY_FILE", str(path))
    push_keys.vapid.cache_clear()
    yield path
    push_keys.vapid.cache_clear()


def test_threads_asking_at_once_get_one_key(key_file: Path) -> None:
    with ThreadPoolExecutor(16) as pool:
        keys = set(pool.map(lambda _: _public(), range(16)))
    assert len(keys) == 1
    assert [p.name for p in key_file.parent.iterdir()] == ["vapid_private.pem"]  # no leftovers
    assert key_file.stat().st_mode & 0o777 == 0o600


def test_a_key_made_elsewhere_first_stays(key_file: Path) -> None:
    key_file.parent.mkdir(parents=True)
    push_keys._create_key(key_file)
    theirs = key_file.read_bytes()
    push_keys._create_key(key_file)  # another process, a moment later
    assert key_file.read_bytes() == theirs


def _public() -> str:
    push_keys.vapid.cache_clear()  # every thread a first use
    return push_keys.vapid_public_key()
