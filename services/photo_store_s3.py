"""The S3-compatible photo store: one bucket, a key prefix per folder (`photos/<name>`).

boto3 is thread-safe per client, so one client serves every worker thread; it signs with the
configured key pair, or boto3's own chain (AWS_* variables, an instance role) without one.
"""

import mimetypes
from collections.abc import Iterator
from datetime import UTC
from functools import cache

import boto3
from botocore.client import BaseClient
from botocore.config import Config
from botocore.exceptions import ClientError

from services.config import AppConfig
from services.photo_store import PhotoStore, StoredFile

MISSING = {"404", "NoSuchKey", "NotFound"}
CLIENT_CONFIG = Config(
    connect_timeout=3,
    read_timeout=10,
    retries={"max_attempts": 3, "mode": "standard"},
    s3={"addressing_style": "path"},  # works with any S3-compatible server and dotted buckets
)


@cache
def bucket_client(config: AppConfig) -> BaseClient:
    # A session of its own: boto3's default session is not safe to create clients from threads.
    return boto3.session.Session().client(
        "s3",
        endpoint_url=config.object_store_url,
        region_name=config.object_store_region,
        aws_access_key_id=config.object_store_key_id,
        aws_secret_access_key=config.object_store_secret,
        config=CLIENT_CONFIG,
    )


class BucketFolder(PhotoStore):
    def __init__(self, client: BaseClient, bucket: str, folder: str) -> None:
        self.client, self.bucket, self.prefix = client, bucket, f"{folder}/"

    def put(self, name: str, data: bytes) -> None:
        self.client.put_object(
            Bucket=self.bucket,
            Key=self.prefix + name,
            Body=data,
            ContentType=mimetypes.guess_type(name)[0] or "application/octet-stream",
        )

    def get(self, name: str) -> bytes | None:
        try:
            answer = self.client.get_object(Bucket=self.bucket, Key=self.prefix + name)
        except ClientError as error:
            return _none_if_missing(error)
        return answer["Body"].read()

    def stat(self, name: str) -> StoredFile | None:
        try:
            head = self.client.head_object(Bucket=self.bucket, Key=self.prefix + name)
        except ClientError as error:
            return _none_if_missing(error)
        modified = head["LastModified"].astimezone(UTC)
        return StoredFile(head["ContentLength"], modified, head["ETag"])

    def delete(self, name: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=self.prefix + name)

    def names(self) -> Iterator[str]:
        pages = self.client.get_paginator("list_objects_v2").paginate(
            Bucket=self.bucket, Prefix=self.prefix
        )
        for page in pages:
            for item in page.get("Contents", ()):
                name = item["Key"].removeprefix(self.prefix)
                if name and "/" not in name:
                    yield name

    def check(self) -> None:
        self.client.head_bucket(Bucket=self.bucket)


def _none_if_missing(error: ClientError) -> None:
    if error.response.get("Error", {}).get("Code") not in MISSING:
        raise error
    return None
