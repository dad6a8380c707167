"""Outgoing HTTPS verifies the server, with one TLS context built once for every client."""

import ssl

import httpx

from services.tls import tls_context
from services.web_push import push_client


def _context_of(client: httpx.AsyncClient) -> ssl.SSLContext:
    return client._transport._pool._ssl_context  # httpcore's pool keeps the client's context


def test_the_context_verifies_the_certificate_and_the_host_name() -> None:
    context = tls_context()
    assert context.verify_mode is ssl.CERT_REQUIRED
    assert context.check_hostname
    assert context.get_ca_certs()  # a CA bundle is loaded


async def test_every_push_client_shares_the_one_context() -> None:
    async with push_client() as first, push_client() as second:
        assert _context_of(first) is _context_of(second) is tls_context()
