"""/premium as a premium member sees it: no line on how to become one."""

from collections.abc import Iterator

import reflex as rx

from app.pages.premium import premium_page


def _with_conditions(component: rx.Component, conditions: tuple[str, ...] = ()) -> Iterator:
    """Every component of the tree with the conditions (rx.cond) it shows under."""
    yield component, conditions
    if type(component).__name__ == "Cond":
        conditions = (*conditions, str(component.cond))
    for child in component.children:
        yield from _with_conditions(child, conditions)


def test_the_how_to_become_premium_line_is_for_members_who_are_not() -> None:
    (conditions,) = [
        shown_if
        for component, shown_if in _with_conditions(premium_page())
        if "premium-lead" in str(getattr(component, "class_name", ""))
    ]
    assert any(c.startswith("!(") and "paid_user" in c for c in conditions)
