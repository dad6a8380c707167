"""The production frontend the browser tests and the benches share (tests/e2e/server.py makes
and serves it; bench/options.py names one on the command line)."""

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class SiteBuild:
    """A production frontend built once for one port, which several servers serve in turn."""

    port: int
    web_dir: Path
