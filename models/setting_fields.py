"""The editor of one site setting as plain data (docs/admin.md): groups of inputs the console
draws (app/pages/staff_settings.py), and the error a rejected value raises.

A group has a title and inputs; an input a name (the key of the browser's form), a label, an
HTML input type, its value, and for a select its options. A label's `kind` says how the page
writes it: "msgid" translated, "country" and "language" named by the browser in the viewer's
language, "option" translated by models/setting_catalogue.OPTION_LABELS with the value beside it,
"raw" as it is (a currency, a bundle's tier)."""

from dataclasses import asdict, dataclass, field
from typing import Any

from models.account_errors import AccountError
from translations.catalog import N_

NUMBER, TEXT, CHECKBOX = "number", "text", "checkbox"
SELECT, TEXTAREA, DATE = "select", "textarea", "date"

VALUE = N_("Value")
CREDITS = N_("Credits")
COST = N_("Lowest price of a message")
CURRENCY = N_("Currency")
DERIVED = N_("Derived from the bundles")
ONE_PER_LINE = N_("One per line")
NETWORK = N_("Network")
POSTBACK_ADDRESS = N_("Postback address")
LABELS = (VALUE, CREDITS, COST, CURRENCY, DERIVED, ONE_PER_LINE, NETWORK, POSTBACK_ADDRESS)


class SettingRefused(AccountError):
    """A value the editor's rules refuse: `message` a msgid with `params`, about input `name`
    (the error's `field`; "" the whole setting)."""

    def __init__(self, name: str, message: str, **params: object) -> None:
        super().__init__(message, name, **params)


@dataclass(frozen=True)
class Input:
    name: str
    label: str
    kind: str = "msgid"  # how the label is written, see the module docstring
    input: str = TEXT
    value: str = ""
    checked: bool = False
    options: list[str] = field(default_factory=list)
    option_kind: str = "raw"  # how a select's options are named, as `kind`
    step: str = "1"


@dataclass(frozen=True)
class Group:
    title: str
    inputs: list[Input]
    kind: str = "raw"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
