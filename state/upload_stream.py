"""Files as the browser streams them to a background upload handler (`rx.upload_files_chunk`).

Reflex runs an `rx.upload_files` handler as one event holding the tab's state lock, the photo
pipeline of every file included; a background handler holds it only inside `async with self`
(docs/deploy.md). Reflex gives such a handler the request's chunks as they arrive, each file's
from offset 0, and refuses the upload (400) when the handler returns before reading them all:
a handler that stops early drains the rest. Not after a failure or a cancellation (the browser
left): the rest may never come."""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import PurePosixPath

import reflex as rx


@dataclass(frozen=True)
class Received:
    name: str  # the file's own name, without the folders of a dropped folder
    data: bytes  # its first `limit` bytes


@dataclass
class _Gathering:
    path: str
    data: bytearray
    size: int = 0  # every byte received, also those past the limit

    def received(self) -> Received:
        return Received(PurePosixPath(self.path).name, bytes(self.data))


async def received_files(chunks: rx.UploadChunkIterator, limit: int) -> AsyncIterator[Received]:
    """Each file whole, in the order sent, cut at `limit` bytes (one past a rule's maximum
    keeps a too-large file refused)."""
    file: _Gathering | None = None
    async for chunk in chunks:
        if file is None or _starts_another(chunk, file):
            if file is not None:
                yield file.received()
            file = _Gathering(chunk.filename, bytearray())
        file.data += chunk.data[: max(0, limit - len(file.data))]
        file.size += len(chunk.data)
    if file is not None:
        yield file.received()


def _starts_another(chunk: rx.UploadChunk, file: _Gathering) -> bool:
    return chunk.offset == 0 and (file.size > 0 or chunk.filename != file.path)


async def drain(chunks: rx.UploadChunkIterator) -> None:
    """Read what is left of the upload, unused."""
    async for _chunk in chunks:
        pass
