"""Where photo files and the data-export archives made of them live: one interface, the local
folder by default (DATA_DIR/media/<folder>) or an S3-compatible bucket when OBJECT_STORE_URL is
set (keys `<folder>/<name>`).

Names are flat file names (`services/photo_pipeline.is_photo_filename`); callers check them
before they reach a store. Every method blocks: call them off the event loop.
"""

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import cache

from services.config import AppConfig, get_config

PHOTOS = "photos"
EVIDENCE = "evidence"  # reported photos their members deleted (docs/photos.md)
EXPORTS = "exports"  # members' data-export archives (docs/data-rights.md)


@dataclass(frozen=True)
class StoredFile:
    size: int
    modified: datetime  # UTC
    etag: str  # changes whenever the content does; quoted, as HTTP sends it


class PhotoStore(ABC):
    """One folder of photo files."""

    @abstractmethod
    def put(self, name: str, data: bytes) -> None:
        """Write the whole file at once: readers see the old content or the new, never half."""

    @abstractmethod
    def get(self, name: str) -> bytes | None:
        """The file's content; None when there is no such file."""

    @abstractmethod
    def stat(self, name: str) -> StoredFile | None:
        """Size, time and ETag without reading the content; None when missing."""

    @abstractmethod
    def delete(self, name: str) -> None:
        """Remove the file; a missing one is fine."""

    @abstractmethod
    def names(self) -> Iterator[str]:
        """The names of every file in the folder (no temporary files of a write under way)."""

    @abstractmethod
    def check(self) -> None:
        """Raise when the store cannot be written to or reached (/readyz)."""

    def exists(self, name: str) -> bool:
        return self.stat(name) is not None


def photo_store() -> PhotoStore:
    return store_for(PHOTOS)


def evidence_store() -> PhotoStore:
    return store_for(EVIDENCE)


def export_store() -> PhotoStore:
    return store_for(EXPORTS)


def store_for(folder: str) -> PhotoStore:
    """The configured store of `folder`."""
    return _store(get_config(), folder)


@cache
def _store(config: AppConfig, folder: str) -> PhotoStore:
    """One per configuration: the bucket's client is made once per process."""
    if config.object_store_url:
        from services.photo_store_s3 import BucketFolder, bucket_client  # boto3 only when used

        return BucketFolder(bucket_client(config), config.object_store_bucket, folder)
    from services.photo_store_local import LocalFolder

    return LocalFolder(config.media_dir / folder)
