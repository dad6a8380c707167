"""The production app server: granian, as `reflex run --env prod` starts it, with failed
workers respawned.

Reflex 0.10.1 builds granian's server without `respawn_failed_workers`, and granian's default
then stops every worker and exits when one dies (an out-of-memory kill, a crash in a native
library): the whole site goes down with it. Reflex imports `granian.server.Server` when it
starts the backend, after loading rxconfig.py, so rxconfig calls `respawn_failed_workers()`
first and Reflex picks up this subclass.
"""

import granian.server


def respawn_failed_workers() -> None:
    base = granian.server.Server
    if getattr(base, "respawns_failed_workers", False):
        return

    class RespawningServer(base):
        respawns_failed_workers = True

        def __init__(self, *args: object, **kwargs: object) -> None:
            kwargs.setdefault("respawn_failed_workers", True)
            super().__init__(*args, **kwargs)

    granian.server.Server = RespawningServer
