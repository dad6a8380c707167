"""app/radix_theme.py puts the Radix subset plugin into Reflex's PostCSS config and names the
Radix classes the server writes itself."""

import re
from pathlib import Path

import pytest

from app.radix_theme import SUBSET_PLUGIN_FILE, server_written_classes, with_subset_plugin

REFLEX_CONFIG = """export default {
  plugins: {
    "postcss-import": {},
    autoprefixer: noVendorPrefix ? false : {},
  },
};"""


def plugin_names(config: str) -> list[str]:
    return [line.split(":")[0] for line in map(str.strip, config.splitlines()) if line[0] != "}"]


def test_the_subset_runs_right_after_the_imports_are_inlined() -> None:
    config = with_subset_plugin(REFLEX_CONFIG)
    plugins = plugin_names(config)[2:]
    assert plugins == ['"postcss-import"', f'"./{SUBSET_PLUGIN_FILE}"', "autoprefixer"]


def test_a_config_that_has_it_is_left_as_it_is() -> None:
    once = with_subset_plugin(REFLEX_CONFIG)
    assert with_subset_plugin(once) == once


def test_a_config_without_postcss_import_fails_the_build() -> None:
    with pytest.raises(ValueError, match="postcss-import"):
        with_subset_plugin("export default { plugins: { autoprefixer: {} } };")


def test_the_radix_classes_the_server_writes_itself_are_kept() -> None:
    """/members' first results are HTML the server writes with rx.link's classes."""
    kept = server_written_classes(Path(__file__).resolve().parents[2])
    assert {"rt-Text", "rt-Link"} <= set(kept)
    assert all(re.fullmatch(r"rt-[A-Z][A-Za-z]*", name) for name in kept)  # no "...rt-Security"
