"""`python -m services.move_photos to-bucket|to-disk`: copy the stored photos, evidence photos
and data-export archives from DATA_DIR/media to the bucket that OBJECT_STORE_URL names, or
back.

A file the target already holds is skipped, and every write is whole (a store's `put`), so an
interrupted run is resumed by running it again. Nothing is deleted from the source: remove it
by hand once the site runs on the target (docs/photos.md).
"""

import argparse
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from services.config import AppConfig, get_config
from services.photo_store import EVIDENCE, EXPORTS, PHOTOS, PhotoStore
from services.photo_store_local import LocalFolder
from services.photo_store_s3 import BucketFolder, bucket_client

log = logging.getLogger(__name__)
DIRECTIONS = ("to-bucket", "to-disk")
FOLDERS = (PHOTOS, EVIDENCE, EXPORTS)
PARALLEL = 8  # files in flight: a bucket's round trip, not the CPU, is the limit


@dataclass(frozen=True)
class Moved:
    copied: int
    skipped: int  # already in the target


def copy_missing(source: PhotoStore, target: PhotoStore) -> Moved:
    """Copy each file of `source` that `target` does not hold yet (hidden ones, such as the
    `.part` of an old export build, stay behind)."""
    names = [name for name in source.names() if not name.startswith(".")]
    with ThreadPoolExecutor(PARALLEL) as pool:
        copied = sum(pool.map(lambda name: _copy_one(source, target, name), names))
    return Moved(copied, len(names) - copied)


def move_photos(direction: str, config: AppConfig) -> dict[str, Moved]:
    """Every folder in `direction`; what happened to each."""
    if not config.object_store_url:
        raise SystemExit("OBJECT_STORE_URL is not set: there is no bucket to move to or from")
    client = bucket_client(config)
    moved = {}
    for folder in FOLDERS:
        disk = LocalFolder(config.media_dir / folder)
        bucket = BucketFolder(client, config.object_store_bucket, folder)
        source, target = (disk, bucket) if direction == "to-bucket" else (bucket, disk)
        done = moved[folder] = copy_missing(source, target)
        log.info("%s %s: %d copied, %d already there", direction, folder, done.copied, done.skipped)
    return moved


def _copy_one(source: PhotoStore, target: PhotoStore, name: str) -> bool:
    if target.exists(name):
        return False
    content = source.get(name)
    if content is None:  # deleted since it was listed
        return False
    target.put(name, content)
    return True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m services.move_photos", description=__doc__)
    parser.add_argument("direction", choices=DIRECTIONS)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    move_photos(parser.parse_args(argv).direction, get_config())


if __name__ == "__main__":
    main()
