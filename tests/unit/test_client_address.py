"""Throttles count an IPv4 client by its address and an IPv6 client by its /64."""

from collections.abc import Iterator

import pytest

from services.client_address import client_key, forwarded_client, scope_client
from services.config import get_config


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("", ""),
        ("not an address" * 20, ("not an address" * 20)[:64]),
    ],
)
def test_the_key_of_a_client(address: str, key: str) -> None:
    assert client_key(address) == key


@pytest.mark.parametrize(
    ("forwarded", "hops", "client"),
    [
        ("", 0, "10.0.0.1"),
        ("203.0.113.7", 0, "10.0.0.1"),  # no trusted proxy: the header is the sender's say
        ("198.51.100.1, 203.0.113.7", 1, "203.0.113.7"),  # what our proxy saw, not the claim
        ("198.51.100.1, 203.0.113.7", 2, "198.51.100.1"),
        ("203.0.113.7", 2, "10.0.0.1"),  # fewer entries than proxies: the peer
    ],
)
def test_a_websockets_client_behind_trusted_proxies(forwarded: str, hops: int, client: str) -> None:
    assert forwarded_client("10.0.0.1", forwarded, hops) == client


@pytest.fixture
def behind_one_proxy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TRUSTED_PROXY_HOPS", "1")
    get_config.cache_clear()
    yield
    get_config.cache_clear()


def test_repeated_forwarded_for_lines_are_one_list(behind_one_proxy: None) -> None:
    """As Reflex reads a websocket's: a proxy that adds its own line is the one trusted."""
    scope = {
        "type": "http",
        "client": ("10.0.0.1", 5000),
        "headers": [(b"x-forwarded-for", b"198.51.100.1"), (b"x-forwarded-for", b"203.0.113.7")],
    }
    assert scope_client(scope) == "203.0.113.7"
    assert scope_client({"type": "http", "headers": []}) == ""
