"""Message times written in the member's own time zone and language, by the browser."""

import reflex as rx

from state.i18n import I18nState


def _format(iso: rx.Var[str], options: str) -> str:
    return f"new Intl.DateTimeFormat({I18nState.locale}, {{{options}}}).format(new Date({iso}))"


def message_time(iso: rx.Var[str]) -> rx.Var[str]:
    return rx.Var(_format(iso, "timeStyle: 'short'")).to(str)


def list_time(iso: rx.Var[str]) -> rx.Var[str]:
    """The time for a message of today, otherwise the date."""
    today = f"(new Date({iso}).toDateString() === new Date().toDateString())"
    time, day = _format(iso, "timeStyle: 'short'"), _format(iso, "dateStyle: 'short'")
    return rx.Var(f"({today} ? {time} : {day})").to(str)
