"""`python bench/geocode.py [--smoke]`: how long "use my location" waits on our side once the
browser has the position: GET /api/geocode.php's lookup in a fresh process, cold (the city index
is built on the first call) and after the settings page warmed it up
(`services.geocoding.warm_up`). The best of 3 processes each way, with the budget verdict;
`--smoke`: one each, no verdict."""

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.options import bench_parser, parse

ROOT = Path(__file__).resolve().parents[1]
BUDGET_SECONDS = 1.0
PROCESSES = 3
PROBE = """
import sys, time
from services import geocoding
if sys.argv[1] == "warm":
    geocoding.warm_up()
start = time.perf_counter()
geocoding.reverse_geocode(52.37, 4.89)
print(time.perf_counter() - start)
"""


def lookup_seconds(mode: str) -> float:
    """The first lookup's time in a new process (`mode` "cold" or "warm")."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, mode], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip())


def main() -> None:
    smoke = parse(bench_parser(__doc__)).smoke
    print(f"{'first lookup':<28}{'seconds':>10}{'' if smoke else 'budget':>10}")
    for mode, label in (("cold", "cold (before)"), ("warm", "after the page's warm-up")):
        seconds = min(lookup_seconds(mode) for _ in range(1 if smoke else PROCESSES))
        verdict = "" if smoke else "ok" if seconds <= BUDGET_SECONDS else "over"
        print(f"{label:<28}{seconds:>10.3f}{verdict:>10}")


if __name__ == "__main__":
    main()
