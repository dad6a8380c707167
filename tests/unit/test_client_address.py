"""Throttles count an IPv4 client by its address and an IPv6 client by its /64."""

import pytest

from services.client_address import client_key


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
