"""Which lander writes a page's `⟦lander-…⟧` marks: the design named by the address
(`/landers/{kind}/{slug?}`). Each design's module holds its screen and its writer."""

from components.landers import (
    alonetonight,
    collagelanding,
    gallery,
    iconslanding,
    maplanding,
    socialnetwork,
    tinderswipe,
    transitionsvideolanding,
    video,
)
from components.landers.common import LANDER, lander_kind
from components.server_parts import PageRequest, PartWriter, ServerParts

WRITERS: dict[str, PartWriter] = {
    alonetonight.KIND: alonetonight.write,
    tinderswipe.KIND: tinderswipe.write,
    collagelanding.KIND: collagelanding.write,
    iconslanding.KIND: iconslanding.write,
    socialnetwork.KIND: socialnetwork.write,
    maplanding.KIND: maplanding.write,
    gallery.KIND: gallery.write,
    video.KIND: video.write,
    transitionsvideolanding.KIND: transitionsvideolanding.write,
}


async def write_lander(request: PageRequest) -> dict[str, str]:
    writer = WRITERS.get(lander_kind(request.path))
    return await writer(request) if writer else {}


LANDER_PARTS = ServerParts(LANDER, write_lander)
