"""The browser can call any public method of an rx.State by name over the websocket, so every
public method a state defines must be a deliberate event handler (`@rx.event`); helpers start
with `_`. Computed vars (`@rx.var`) and the other decorated members Reflex exposes are read,
not called, so they are allowed too."""

import ast
from pathlib import Path

import pytest

STATE_DIR = Path(__file__).resolve().parents[2] / "state"
# Reflex wraps only plain functions as events: static and class methods are not callable.
ALLOWED_DECORATORS = {
    *("event", "var", "cached_var", "computed_var"),
    "staff_event",  # state/staff_guard.py: an rx.event behind the staff check
    *("property", "staticmethod", "classmethod"),
}


def _decorator_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """`rx.event`, `rx.event(...)`, `event` and `rx.var(cache=...)` all count by last name."""
    names = set()
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute):
            names.add(target.attr)
        elif isinstance(target, ast.Name):
            names.add(target.id)
    return names


def _is_state(node: ast.ClassDef, states: set[str]) -> bool:
    """A subclass of rx.State, or of a state class of the same module."""
    for base in node.bases:
        name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
        if name == "State" or name in states or name.endswith("State"):
            return True
    return False


def _undecorated_public_methods(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    states: set[str] = set()
    found = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or not _is_state(node, states):
            continue
        states.add(node.name)
        for item in node.body:
            if not isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if item.name.startswith("_") or _decorator_names(item) & ALLOWED_DECORATORS:
                continue
            found.append(f"{path.name}:{item.lineno} {node.name}.{item.name}")
    return found


@pytest.mark.parametrize("path", sorted(STATE_DIR.glob("*.py")), ids=lambda path: path.name)
def test_every_public_state_method_is_a_deliberate_event(path: Path) -> None:
    assert _undecorated_public_methods(path) == []


def test_the_audit_catches_an_undecorated_helper(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text(
        "import reflex as rx\n"
        "class SampleState(rx.State):\n"
        "    @rx.event\n"
        "    def open(self): ...\n"
        "    @rx.var\n"
        "    def label(self) -> str: ...\n"
        "    def _helper(self): ...\n"
        "    async def catch_up(self): ...\n"
        "class Plain:\n"
        "    def anything(self): ...\n"
    )
    assert _undecorated_public_methods(module) == ["sample.py:8 SampleState.catch_up"]
