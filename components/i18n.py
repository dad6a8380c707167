"""Translated text for the frontend: every locale's text compiled in, picked by the locale var."""

import json

import reflex as rx

from state.i18n import I18nState
from translations.catalog import all_translations


def t(msgid: str, **params: rx.Var | str | int) -> rx.Var[str]:
    """The text of `msgid` in the visitor's locale; {name} placeholders take `params`."""
    lookup = rx.Var.create(all_translations(msgid))[I18nState.locale].to(str)
    for name, value in params.items():
        placeholder = json.dumps("{" + name + "}")
        lookup = rx.Var(f"({lookup}).replaceAll({placeholder}, String({rx.Var.create(value)}))").to(
            str
        )
    return lookup


def intl_format(iso: rx.Var[str], options: str) -> str:
    """Browser code writing an ISO date or time in the visitor's language with
    `Intl.DateTimeFormat` options (a JavaScript object's body)."""
    return f"new Intl.DateTimeFormat({I18nState.locale}, {{{options}}}).format(new Date({iso}))"


def local_date(iso_date: rx.Var[str]) -> rx.Var[str]:
    """A YYYY-MM-DD date written the way the visitor's language writes dates."""
    return rx.Var(intl_format(iso_date, "dateStyle: 'long', timeZone: 'UTC'")).to(str)


def t_choice(labels: dict[str, str], key: rx.Var[str]) -> rx.Var[str]:
    """The translated label of a runtime value (e.g. an interest), from a value -> msgid map."""
    table = {value: all_translations(msgid) for value, msgid in labels.items()}
    return rx.Var.create(table)[key].to(dict)[I18nState.locale].to(str)
