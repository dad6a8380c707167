"""The command line every bench shares.

`--smoke`: a tiny run (a few members, a second or two, no budget verdict) that only proves the
bench still works; tests/e2e/test_benches.py runs every bench so in CI. `--site-build
PORT:WEB_DIR`: a bench that serves this site serves that production build, made for PORT by
tests/e2e/server.build_site (the browser tests' `fault_build`), instead of building its own.
"""

import argparse
from pathlib import Path
from typing import Any

from tests.site_build import SiteBuild

SMOKE_HELP = "a tiny run that only proves the bench works: a few members, no budget verdict"
SMOKE_BANNER = "Smoke run (--smoke): a tiny load that only proves the bench works; no budget."


def bench_parser(doc: str) -> argparse.ArgumentParser:
    """A parser described by the doc's first line, with --smoke."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    return parser


def site_build(text: str) -> SiteBuild:
    """PORT:WEB_DIR, as site_build_argument() writes it."""
    port, _, web_dir = text.partition(":")
    if not port.isdigit() or not Path(web_dir).is_dir():
        raise argparse.ArgumentTypeError(f"not PORT:WEB_DIR of a build: {text!r}")
    return SiteBuild(int(port), Path(web_dir))


def site_build_argument(build: SiteBuild) -> str:
    return f"{build.port}:{build.web_dir}"


def add_site_build(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--site-build",
        type=site_build,
        metavar="PORT:WEB_DIR",
        help="serve this production build of the site, made for PORT, instead of building one",
    )


def parse(
    parser: argparse.ArgumentParser, smoke: dict[str, Any] | None = None
) -> argparse.Namespace:
    """The arguments; with --smoke, `smoke` replaces the defaults (options given still count)."""
    args = parser.parse_args()
    if args.smoke:
        print(SMOKE_BANNER, flush=True)
        if smoke:
            parser.set_defaults(**smoke)
            args = parser.parse_args()
    return args
