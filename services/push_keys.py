"""The VAPID key pair that signs our Web Push messages; browsers subscribe with its public half."""

import base64
import threading
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02

from services.config import get_config
from services.server_keys import write_once

_CREATING = threading.Lock()


@cache
def vapid() -> Vapid02:
    """The key pair, made on first use when the seed has not made it. Pushes are made in
    threads and the site runs in several processes: all must end up with one key."""
    path = get_config().vapid_key_file
    with _CREATING:
        if not path.exists():
            _create_key(path)
    return Vapid02.from_file(str(path))


def _create_key(path: Path) -> None:
    """A new key at `path`, unless another process puts one there first (theirs stays)."""
    key = Vapid02()
    key.generate_keys()
    write_once(path, key.save_key)


def vapid_public_key() -> str:
    """The application server key: the uncompressed P-256 point, base64url without padding."""
    raw = vapid().public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
