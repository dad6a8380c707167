"""Message times written in the member's own time zone and language, by the browser."""

import reflex as rx

from components.i18n import intl_format

TIME, DATE = "timeStyle: 'short'", "dateStyle: 'short'"


def message_time(iso: rx.Var[str]) -> rx.Var[str]:
    return rx.Var(intl_format(iso, TIME)).to(str)


def list_time(iso: rx.Var[str]) -> rx.Var[str]:
    """The time for a message of today, otherwise the date."""
    today = f"(new Date({iso}).toDateString() === new Date().toDateString())"
    return rx.Var(f"({today} ? {intl_format(iso, TIME)} : {intl_format(iso, DATE)})").to(str)
