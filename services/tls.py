"""The one TLS context every outgoing connection verifies its server with.

Building a context loads the whole CA bundle, about 30 ms of CPU; an `httpx.AsyncClient` built
without one builds its own. Built once and shared (an SSLContext is safe to share across threads
and event loops), a push to ten browsers no longer pays for ten.
"""

import ssl
from functools import cache

import httpx


@cache
def tls_context() -> ssl.SSLContext:
    """Certificates and host names verified against certifi's CA bundle, as httpx does."""
    return httpx.create_ssl_context()
