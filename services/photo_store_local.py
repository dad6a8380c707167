"""The local-folder photo store: DATA_DIR/media/<folder>, the embedded default."""

import hashlib
import os
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from services.photo_store import PhotoStore, StoredFile

TEMP_PREFIX = ".upload-"


class LocalFolder(PhotoStore):
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def put(self, name: str, data: bytes) -> None:
        """Write to a temporary file in the folder, then rename it over `name`."""
        self.folder.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=self.folder, prefix=TEMP_PREFIX, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temp, self.folder / name)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise

    def get(self, name: str) -> bytes | None:
        try:
            return (self.folder / name).read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None

    def stat(self, name: str) -> StoredFile | None:
        try:
            found = (self.folder / name).stat()
        except (FileNotFoundError, NotADirectoryError):
            return None
        # Starlette's FileResponse validator: the same ETag browsers got before the store.
        etag = hashlib.md5(f"{found.st_mtime}-{found.st_size}".encode(), usedforsecurity=False)
        modified = datetime.fromtimestamp(found.st_mtime, UTC)
        return StoredFile(found.st_size, modified, f'"{etag.hexdigest()}"')

    def delete(self, name: str) -> None:
        (self.folder / name).unlink(missing_ok=True)

    def names(self) -> Iterator[str]:
        if not self.folder.is_dir():
            return
        for path in self.folder.iterdir():
            if path.is_file() and not path.name.startswith(TEMP_PREFIX):
                yield path.name

    def check(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if not os.access(self.folder, os.W_OK | os.X_OK):
            raise PermissionError(f"{self.folder} is not writable")
