"""A streamed upload's chunks become whole files, each cut at the limit, and a handler that
stops early still reads the rest (Reflex refuses the upload otherwise)."""

from state.upload_stream import Received, drain, received_files
from tests.state.test_signup_state import CHUNK, uploaded


async def test_chunks_become_whole_files_cut_at_the_limit() -> None:
    big, small = bytes(range(256)) * (CHUNK // 64), b"tiny"
    chunks = await uploaded(("a/big.jpg", big), ("empty.jpg", b""), ("small.jpg", small))
    files = [file async for file in received_files(chunks, len(big) - 1)]
    assert files == [
        Received("big.jpg", big[:-1]),
        Received("empty.jpg", b""),
        Received("small.jpg", small),
    ]


async def test_what_a_handler_left_is_drained() -> None:
    chunks = await uploaded(b"first" * CHUNK, b"second" * CHUNK)
    first = await anext(received_files(chunks, CHUNK))
    assert first == Received("photo.jpg", (b"first" * CHUNK)[:CHUNK])
    await drain(chunks)
    assert [chunk async for chunk in chunks] == []
