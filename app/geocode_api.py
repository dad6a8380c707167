"""GET /api/geocode.php?lat=..&lon=..: the city at the member's location, for the settings'
"use my location" button. The coordinates are neither stored nor logged."""

import asyncio
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from app.request_auth import authentication_required, request_viewer
from services.geocoding import Place, reverse_geocode, valid_coordinates

NO_STORE = {"Cache-Control": "private, no-store"}
NOWHERE = {"country": None, "region": None, "city": None}


def _json(body: dict, status_code: int = 200) -> Response:
    return JSONResponse(body, status_code=status_code, headers=NO_STORE)


def _coordinates(query: Mapping[str, str]) -> tuple[float, float] | None:
    """(lat, lon) from the query string, or None when either is missing or no coordinate."""
    try:
        lat, lon = float(query["lat"]), float(query["lon"])
    except (KeyError, ValueError):
        return None
    return (lat, lon) if valid_coordinates(lat, lon) else None


def _place_json(place: Place | None) -> dict:
    if place is None:
        return NOWHERE
    return {"country": place.country, "region": place.region, "city": place.city}


async def geocode(request: Request) -> Response:
    if await request_viewer(request) is None:
        return authentication_required()
    point = _coordinates(request.query_params)
    if point is None:
        return _json({"error": "invalid_coordinates"}, 400)
    place = await asyncio.to_thread(reverse_geocode, *point)  # the first call builds the index
    return _json(_place_json(place))
