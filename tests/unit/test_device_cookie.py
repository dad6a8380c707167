"""The device cookie that lets a member's own browser past a lock of its shared address
(services/device_cookie.py): one per browser, made only with the server secret, void after a
year on the server and after a password change; the secret made once under DATA_DIR or given
to every instance as SERVER_SECRET."""

import hashlib
import hmac
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest

from models.member import Member, utcnow
from models.passwords import hash_password
from services import server_keys
from services.config import get_config
from services.device_cookie import issue, vouches
from tests.factories import make_member_with_password


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.delenv("SERVER_SECRET", raising=False)
    _fresh_process()
    yield tmp_path
    _fresh_process()


def _fresh_process() -> None:
    get_config.cache_clear()
    server_keys._file_secret.cache_clear()


def _member(db, email: str = "anna@example.com") -> Member:
    return make_member_with_password(db, email)


@pytest.mark.usefixtures("data_dir")
def test_each_browser_gets_its_own_cookie_that_fits_only_its_account(db) -> None:
    anna, bo = _member(db), _member(db, "bo@example.com")
    now = utcnow()
    phone, laptop = issue(anna, now), issue(anna, now + timedelta(minutes=3))
    assert phone != laptop
    assert vouches(phone, anna, now) and vouches(laptop, anna, now + timedelta(minutes=3))
    assert not vouches(phone, bo, now)
    issued = phone.partition(".")[0]
    for forged in ("", "x", f"{issued}.", f"{issued}.{'f' * 64}", f"²{issued}.x", phone + "0"):
        assert not vouches(forged, anna, now)


@pytest.mark.usefixtures("data_dir")
def test_the_server_refuses_a_cookie_older_than_a_year(db) -> None:
    anna = _member(db)
    issued = utcnow()
    cookie = issue(anna, issued)
    assert vouches(cookie, anna, issued + timedelta(days=364))
    assert not vouches(cookie, anna, issued + timedelta(days=366))


@pytest.mark.usefixtures("data_dir")
def test_a_new_password_voids_it(db) -> None:
    anna = _member(db)
    now = utcnow()
    cookie = issue(anna, now)
    anna.password_hash = hash_password("another passphrase")
    assert not vouches(cookie, anna, now)
    assert vouches(issue(anna, now), anna, now)  # what settings give the browser then


@pytest.mark.usefixtures("data_dir")
def test_only_the_server_secret_makes_one(db, monkeypatch: pytest.MonkeyPatch) -> None:
    """The password hash is database data, not a secret: a cookie keyed with it (as before)
    or with another server's secret fits nothing."""
    anna = _member(db)
    now = utcnow()
    issued = int(now.timestamp())
    text = f"{anna.id}|{anna.password_hash}|{issued}".encode()
    with_the_hash = hmac.new(anna.password_hash.encode(), text, hashlib.sha256).hexdigest()
    assert not vouches(f"{issued}.{with_the_hash}", anna, now)
    ours = issue(anna, now)
    monkeypatch.setenv("SERVER_SECRET", "another site's secret")
    _fresh_process()
    assert not vouches(ours, anna, now)


def test_the_secret_is_made_once_under_data_dir(data_dir: Path) -> None:
    def first_use(_: int) -> bytes:
        server_keys._file_secret.cache_clear()  # every thread a first use
        return server_keys.server_secret()

    with ThreadPoolExecutor(16) as pool:
        secrets = set(pool.map(first_use, range(16)))
    assert len(secrets) == 1 and len(secrets.pop()) == 64
    assert [p.name for p in data_dir.iterdir()] == ["server_secret"]  # no leftovers
    assert (data_dir / "server_secret").stat().st_mode & 0o777 == 0o600


def test_instances_given_one_server_secret_accept_each_others_cookies(
    db, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna = _member(db)
    now = utcnow()
    monkeypatch.setenv("SERVER_SECRET", "shared by every instance")
    _fresh_process()
    cookie = issue(anna, now)
    monkeypatch.setenv("DATA_DIR", str(data_dir / "another-instance"))
    _fresh_process()
    assert vouches(cookie, anna, now)
    assert not (data_dir / "server_secret").exists()
