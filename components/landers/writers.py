"""Which lander writes a page's `⟦lander-…⟧` marks: the design named by the address
(`/landers/{kind}/{slug?}`). Each design's module holds its screen and its writer."""

from components.landers import gallery
from components.landers.common import LANDER
from components.server_parts import PageRequest, PartWriter, ServerParts

WRITERS: dict[str, PartWriter] = {gallery.KIND: gallery.write}


def lander_kind(path: str) -> str:
    """`gallery` for `/landers/gallery/milf-amsterdam`; "" for an address outside /landers."""
    segments = path.strip("/").split("/")
    return segments[1] if len(segments) > 1 and segments[0] == "landers" else ""


async def write_lander(request: PageRequest) -> dict[str, str]:
    writer = WRITERS.get(lander_kind(request.path))
    return await writer(request) if writer else {}


LANDER_PARTS = ServerParts(LANDER, write_lander)
