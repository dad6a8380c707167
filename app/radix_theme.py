"""Radix Themes with only the colour scales the site uses.

Radix's `styles.css` holds all 30 of its colour scales (177 KB of its 812 KB, a third of it
once zipped), each a hundred custom properties on the page's root that every element inherits.
The site uses its accent and gray colours and a few badge colours, so the stylesheet is Radix's
own split of the same file: the tokens' base, those scales, the components and the utilities
(https://www.radix-ui.com/themes/docs/overview/styling#custom-import). A `color_scheme` outside
`COLOUR_SCALES` fails `tests/unit/test_ui_source.py`."""

from collections.abc import Sequence
from typing import Any

import reflex as rx

ACCENT_COLOUR = "red"
GRAY_COLOUR = "mauve"
# The color_scheme= values of app/ and components/; "gray" is the scale the gray colour
# stands in for.
BADGE_COLOURS = ("amber", "blue", "gray", "green", "purple")
COLOUR_SCALES = tuple(sorted({ACCENT_COLOUR, GRAY_COLOUR, *BADGE_COLOURS}))
_PACKAGE = "@radix-ui/themes"


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


def radix_themes() -> RadixThemes:
    return RadixThemes(
        theme=rx.theme(accent_color=ACCENT_COLOUR, gray_color=GRAY_COLOUR, radius="large")
    )
