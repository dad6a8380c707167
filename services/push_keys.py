"""The VAPID key pair that signs our Web Push messages; browsers subscribe with its public half."""

import base64
import os
from functools import cache

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02

from services.config import get_config


@cache
def vapid() -> Vapid02:
    path = get_config().vapid_key_file
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        key = Vapid02()
        key.generate_keys()
        temporary = path.with_suffix(".tmp")
        key.save_key(str(temporary))
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    return Vapid02.from_file(str(path))


def vapid_public_key() -> str:
    """The application server key: the uncompressed P-256 point, base64url without padding."""
    raw = vapid().public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
