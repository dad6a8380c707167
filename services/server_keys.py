"""Keys the server keeps in files under DATA_DIR, each made once on first use (or by the seed):
the server secret here, the VAPID key in services/push_keys.py. The site runs in several
processes with threads: all must end up with one key, and a key already there stays."""

import hashlib
import hmac
import os
import secrets
import tempfile
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path

from services.config import get_config

_CREATING = threading.Lock()


def write_once(path: Path, write: Callable[[str], None]) -> None:
    """`write` a new key to a private temporary file and put it at `path`, unless another
    process put one there first (theirs stays)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")  # mode 0600
    os.close(handle)
    try:
        write(temporary)
        os.link(temporary, path)  # never replaces: fails if the key is already there
    except FileExistsError:
        pass
    finally:
        os.unlink(temporary)


def server_secret() -> bytes:
    """The key of the MACs the server hands out (the device cookie): SERVER_SECRET, which
    instances that do not share DATA_DIR must all be given, or DATA_DIR/server_secret."""
    config = get_config()
    return config.server_secret.encode() if config.server_secret else _file_secret(config.data_dir)


def derived_key(purpose: str) -> bytes:
    """A 32-byte key of its own for each `purpose` (the TOTP secrets' encryption, the banned
    identities' hashes), derived from the server secret: one leaked key tells nothing of another."""
    return hmac.new(server_secret(), purpose.encode(), hashlib.sha256).digest()


@cache
def _file_secret(data_dir: Path) -> bytes:
    path = data_dir / "server_secret"
    with _CREATING:
        if not path.exists():
            write_once(path, lambda temporary: Path(temporary).write_text(secrets.token_hex(32)))
    return path.read_bytes().strip()
