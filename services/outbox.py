"""The outbox folders that stand in for SMTP and an SMS gateway without configuration: one file
per message, named by time so they sort in sending order."""

import os
import secrets
import tempfile
from datetime import UTC, datetime
from pathlib import Path


def write_to_outbox(folder: Path, suffix: str, content: bytes) -> Path:
    """`content` as a new file `<time>-<random><suffix>` in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    target = folder / f"{stamp}-{secrets.token_hex(4)}{suffix}"
    # A temp file in the same folder, renamed into place: readers never see half a message.
    handle, temp_name = tempfile.mkstemp(dir=folder, prefix=".outbox-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as temp:
            temp.write(content)
        os.replace(temp_name, target)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    return target


def outbox_files(folder: Path, suffix: str) -> list[Path]:
    """The messages in `folder`, oldest first; none when it does not exist yet."""
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"*{suffix}"), key=lambda path: path.name)
