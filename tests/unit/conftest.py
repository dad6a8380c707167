"""The HTTP routes as the browser reaches them (modules testing one route build their own)."""

import pytest
from starlette.testclient import TestClient

from app.http_api import http_api


@pytest.fixture
def client(engine) -> TestClient:
    return TestClient(http_api(), base_url="https://testserver")
