"""Checks on the screens' source that no browser test would name: Radix layout gaps that the
browser drops silently, modals without an accessible name, forms that would send a password
in the address."""

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.radix_theme import COLOUR_SCALES

ROOT = Path(__file__).resolve().parents[2]
UI_FILES = sorted([*ROOT.glob("components/*.py"), *ROOT.glob("app/**/*.py")])
LAYOUTS = {"flex", "grid", "hstack", "vstack", "stack"}
MODAL_BODIES = {"dialog.content", "alert_dialog.content"}
TITLES = {"dialog.title", "alert_dialog.title"}


def calls(path: Path) -> Iterator[ast.Call]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            yield node


def name_of(call: ast.Call) -> str:
    return ast.unparse(call.func).removeprefix("rx.")


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def where(path: Path, call: ast.Call) -> str:
    return f"{path.relative_to(ROOT)}:{call.lineno}"


@pytest.mark.parametrize("path", UI_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_layouts_space_with_spacing_not_a_bare_gap_number(path: Path) -> None:
    """gap="3" becomes the CSS `gap: 3`, which browsers ignore: buttons then touch."""
    wrong = [
        where(path, call)
        for call in calls(path)
        if name_of(call) in LAYOUTS
        and isinstance(gap := keyword(call, "gap"), ast.Constant)
        and str(gap.value).isdigit()
    ]
    assert wrong == []


@pytest.mark.parametrize("path", UI_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_modal_has_an_accessible_name(path: Path) -> None:
    """A dialog's title names it for screen readers; an element that calls itself a dialog
    without one needs an aria-label."""
    unnamed = []
    for call in calls(path):
        if name_of(call) in MODAL_BODIES:
            named = keyword(call, "aria_label") is not None or any(
                isinstance(inner, ast.Call) and name_of(inner) in TITLES for inner in ast.walk(call)
            )
            if not named:
                unnamed.append(where(path, call))
        role = keyword(call, "role")
        says_dialog = isinstance(role, ast.Constant) and role.value in ("dialog", "alertdialog")
        if says_dialog and not {"aria_label", "aria_labelledby"} & {k.arg for k in call.keywords}:
            unnamed.append(where(path, call))
    assert unnamed == []


@pytest.mark.parametrize("path", UI_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_colour_scheme_has_its_scale_in_the_stylesheet(path: Path) -> None:
    """The stylesheet holds only the colour scales of app/radix_theme.py: a component in any
    other colour would show without one. Each colour is a literal, so this can see it."""
    missing = [
        where(path, call)
        for call in calls(path)
        if (value := keyword(call, "color_scheme")) is not None
        and not (isinstance(value, ast.Constant) and value.value in COLOUR_SCALES)
    ]
    assert missing == []


@pytest.mark.parametrize("path", UI_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_form_posts(path: Path) -> None:
    """A form sent before the app runs goes as its method says: without one, a GET with the
    fields (a password too) in the address. components/forms.post_form makes forms that post."""
    if path == ROOT / "components" / "forms.py":
        return
    assert [where(path, call) for call in calls(path) if name_of(call) == "el.form"] == []


@pytest.mark.parametrize("path", UI_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_button_inside_a_link(path: Path) -> None:
    """<a><button> is invalid HTML and two tab stops for one action: a link that looks like a
    button is components/link_button.link_button, one <a>."""
    nested = [
        where(path, call)
        for call in calls(path)
        if name_of(call) == "link"
        and any(
            isinstance(inner, ast.Call) and name_of(inner) in {"button", "el.button", "icon_button"}
            for inner in ast.walk(call)
            if inner is not call
        )
    ]
    assert nested == []


# Lucide icons that draw a currency sign: beside prices in euros (or any other) they mislead.
CURRENCY_ICONS = {"receipt", "dollar-sign", "circle-dollar-sign", "badge-dollar-sign", "euro"}


@pytest.mark.parametrize("path", UI_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_icon_shows_one_currency(path: Path) -> None:
    """Prices are in the member's currency; "receipt" is a bill with a dollar sign on it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in CURRENCY_ICONS
    ]
    assert found == []


@pytest.mark.parametrize("path", UI_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_placeholder_looks_typed_in(path: Path) -> None:
    """A placeholder of digits ("000000") looks like a code already entered."""
    typed = [
        where(path, call)
        for call in calls(path)
        if isinstance(value := keyword(call, "placeholder"), ast.Constant)
        and str(value.value).replace(" ", "").isdigit()
    ]
    assert typed == []
