"""The global stylesheet as the production build writes it: Radix Themes cut to what the app
uses (app/radix_theme.py, app/postcss_radix_subset.js). Every page waits for this file before
its first paint; the whole of Radix's components and utilities made it 700 KB."""

import re
from pathlib import Path

from server import Server

# Radix components the site's pages use (buttons, the signup dialog, selects, the language menu,
# text fields, the settings' switches), and classes of components no page uses.
USED = ("rt-Button", "rt-BaseDialogContent", "rt-SelectContent", "rt-DropdownMenuContent",
        "rt-TextFieldRoot", "rt-SwitchRoot")  # fmt: skip
UNUSED = ("rt-AvatarRoot", "rt-TableRoot", "rt-Kbd", "rt-HoverCardContent")
BREAKPOINT_CLASS = re.compile(r"(?:xs|sm|md|lg|xl)\\:rt-")


def global_stylesheet(web_dir: Path) -> str:
    (path,) = (web_dir / "build" / "client" / "assets").glob("__reflex_global_styles-*.css")
    return path.read_text()


def test_the_global_stylesheet_holds_only_the_radix_rules_the_app_can_use(site: Server) -> None:
    assert site.web_dir is not None
    css = global_stylesheet(site.web_dir)
    assert [name for name in USED if f".{name}" not in css] == []
    assert [name for name in UNUSED if name in css] == []
    assert BREAKPOINT_CLASS.search(css) is None  # no page passes a responsive prop
    assert len(css) < 400_000
