"""This machine's network for tests: a free port, and a TCP proxy that can be cut and restored
(a service away for as long as a test wants: tests/e2e/test_service_faults.py,
tests/unit/test_loop_database.py)."""

import asyncio
import socket
import threading
from contextlib import suppress


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class CuttableProxy:
    """A TCP proxy in a thread of its own, to be cut and restored."""

    def __init__(self, target_port: int) -> None:
        self.port, self.target_port = free_port(), target_port
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        threading.Thread(target=self._loop.run_forever, daemon=True).start()

    def _call(self, coroutine) -> None:
        asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout=10)

    def restore(self) -> None:
        self._call(self._listen())

    def cut(self) -> None:
        self._call(self._cut())

    def close(self) -> None:
        self.cut()
        self._loop.call_soon_threadsafe(self._loop.stop)

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._link, "127.0.0.1", self.port)

    async def _cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.transport.abort()
            return
        if self._server is None:  # cut while this link was being made
            writer.transport.abort()
            up_writer.transport.abort()
            return
        self._writers |= {writer, up_writer}
        await asyncio.gather(_copy(reader, up_writer), _copy(up_reader, writer))


async def _copy(source: asyncio.StreamReader, target: asyncio.StreamWriter) -> None:
    with suppress(OSError):
        while data := await source.read(65536):
            target.write(data)
            await target.drain()
    target.transport.abort()
