"""The production app server: granian, as `reflex run --env prod` starts it, with failed
workers respawned.

Reflex 0.10.1 builds granian's server without `respawn_failed_workers`, and granian's default
then stops every worker and exits when one dies (an out-of-memory kill, a crash in a native
library): the whole site goes down with it. Reflex imports `granian.server.Server` when it
starts the backend, after loading rxconfig.py, so rxconfig calls `respawn_failed_workers()`
first and Reflex picks up this subclass.
"""

import os
import shutil
import sys
from pathlib import Path

import granian.server

# prometheus-client's own variable; services/metrics.py must not be imported before it is set.
METRICS_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"


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


def share_metrics_between_workers(data_dir: Path, argv: list[str] = sys.argv) -> None:
    """Under `reflex run`, before granian starts its workers: each worker counts its own metrics
    in files of a folder all of them read at a scrape (services/metrics.py). One folder per
    server run, `DATA_DIR/metrics/<pid>`, emptied at the start; those of runs that ended are
    removed. A folder the operator set in PROMETHEUS_MULTIPROC_DIR is left as it is."""
    if os.environ.get(METRICS_DIR_VARIABLE) or argv[1:2] != ["run"] or "reflex" not in argv[0]:
        return
    root = data_dir / "metrics"
    for folder in root.glob("*"):
        if folder.name.isdigit() and not process_alive(int(folder.name)):
            shutil.rmtree(folder, ignore_errors=True)
    own = root / str(os.getpid())
    shutil.rmtree(own, ignore_errors=True)
    own.mkdir(parents=True)
    os.environ[METRICS_DIR_VARIABLE] = str(own)


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
