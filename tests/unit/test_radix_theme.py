"""app/radix_theme.py puts the Radix subset plugin into Reflex's PostCSS config and names the
Radix classes the server writes itself."""

import re
from pathlib import Path

import pytest
from reflex.compiler.compiler import _get_window_libraries
from reflex_base.components.dynamic import _bundle_library
from reflex_components_radix.plugin import RADIX_THEMES_PACKAGE

from app.radix_theme import (
    SUBSET_PLUGIN_FILE,
    radix_themes,
    server_written_classes,
    with_subset_plugin,
)

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


def test_no_page_root_imports_all_of_radix_for_run_time_components() -> None:
    """Reflex's compile bundles the Radix package for components built at run time (the site has
    none); the plugin takes it off before the app root is written, so a page loads only the
    Radix parts it renders."""
    plugin = radix_themes()
    plugin.enabled = True
    _bundle_library(RADIX_THEMES_PACKAGE)  # as Reflex's compile does for the plugin
    assert "@radix-ui/themes" in root_libraries()
    plugin.pre_compile(add_save_task=lambda *_: None, add_modify_task=lambda *_: None)
    assert "@radix-ui/themes" not in root_libraries()
    assert "react" in root_libraries()  # Reflex's own stay


def root_libraries() -> list[str]:
    """What the app root puts on `window.__reflex`, as Reflex's compiler lists it."""
    return [library for _, library in _get_window_libraries()]
