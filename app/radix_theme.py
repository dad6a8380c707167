"""Radix Themes with only the colour scales the site uses.

Radix's `styles.css` holds all 30 of its colour scales (177 KB of its 812 KB, a third of it
once zipped), each a hundred custom properties on the page's root that every element inherits.
The site uses its accent and gray colours and a few badge colours, so the stylesheet is Radix's
own split of the same file: the tokens' base, those scales, the components and the utilities
(https://www.radix-ui.com/themes/docs/overview/styling#custom-import). A `color_scheme` outside
`COLOUR_SCALES` fails `tests/unit/test_ui_source.py`.

The components and utilities are then cut to what the app can use when the frontend is built:
app/postcss_radix_subset.js, a PostCSS plugin after `postcss-import`, drops every rule for the
Radix components no page uses and, with no responsive prop on any page, the breakpoint variants
(700 KB of global stylesheet to 320 KB, docs/browser-shell.md). The Radix classes the server
writes into its HTML itself (components/first_results.py) are kept by name (`KEEP_FILE`).

Reflex also puts the whole Radix library on every page's root, for components built at run time
(dynamic components, which the site has none of): 25 KB of gzip JavaScript for the parts a page
does not show (menus, selects, tabs, switches) on every first load, a paid lander's included. The
plugin takes it off, so each page imports only the Radix parts it renders (docs/acquisition.md)."""

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import reflex as rx
from reflex_base.components.dynamic import reset_bundled_libraries
from reflex_base.constants.base import Dirs

ACCENT_COLOUR = "red"
GRAY_COLOUR = "mauve"
# The color_scheme= values of app/ and components/; "gray" is the scale the gray colour
# stands in for.
BADGE_COLOURS = ("amber", "blue", "gray", "green", "purple")
COLOUR_SCALES = tuple(sorted({ACCENT_COLOUR, GRAY_COLOUR, *BADGE_COLOURS}))
_PACKAGE = "@radix-ui/themes"
SUBSET_PLUGIN = Path(__file__).with_name("postcss_radix_subset.js")
SUBSET_PLUGIN_FILE = "postcss-radix-subset.js"  # in the web folder, beside postcss.config.js
_POSTCSS_IMPORT = '"postcss-import": {},'
KEEP_FILE = "radix-subset-keep.json"  # beside the plugin, which reads it
_SERVER_WRITTEN = ("app", "components")  # Python that writes HTML without the compiled pages
_COMPONENT_CLASS = re.compile(r"\brt-[A-Z][A-Za-z]*")


class RadixThemes(rx.plugins.RadixThemesPlugin):
    """Reflex's Radix Themes plugin, with the stylesheets split as above."""

    def get_stylesheet_paths(self, **context: Any) -> Sequence[str]:
        if not self.enabled:
            return ()
        return (
            f"{_PACKAGE}/tokens/base.css",
            *(f"{_PACKAGE}/tokens/colors/{scale}.css" for scale in COLOUR_SCALES),
            f"{_PACKAGE}/components.css",
            f"{_PACKAGE}/utilities.css",
        )

    def pre_compile(self, **context: Any) -> None:
        super().pre_compile(**context)
        if not self.enabled:
            return
        reset_bundled_libraries()  # runs before the app root is written: Reflex's own only
        context["add_save_task"](_subset_plugin)
        context["add_save_task"](_kept_classes)
        context["add_modify_task"](Dirs.POSTCSS_JS, with_subset_plugin)


def _subset_plugin() -> tuple[str, str]:
    return SUBSET_PLUGIN_FILE, SUBSET_PLUGIN.read_text()


def server_written_classes(root: Path) -> list[str]:
    """The Radix component classes the Python under root's app/ and components/ names."""
    sources = (path for folder in _SERVER_WRITTEN for path in (root / folder).rglob("*.py"))
    return sorted({name for path in sources for name in _COMPONENT_CLASS.findall(path.read_text())})


def _kept_classes() -> tuple[str, str]:
    return KEEP_FILE, json.dumps(server_written_classes(SUBSET_PLUGIN.parents[1]))


def with_subset_plugin(config: str) -> str:
    """Reflex's PostCSS config with the subset plugin run right after `postcss-import` (which
    inlines Radix's files); a config without that line fails the build rather than ship 700 KB."""
    if _POSTCSS_IMPORT not in config:
        raise ValueError(f"{Dirs.POSTCSS_JS} has no {_POSTCSS_IMPORT!r} to put the subset after")
    if SUBSET_PLUGIN_FILE in config:
        return config
    return config.replace(
        _POSTCSS_IMPORT, f'{_POSTCSS_IMPORT}\n    "./{SUBSET_PLUGIN_FILE}": {{}},', 1
    )


def radix_themes() -> RadixThemes:
    return RadixThemes(
        theme=rx.theme(accent_color=ACCENT_COLOUR, gray_color=GRAY_COLOUR, radius="large")
    )
