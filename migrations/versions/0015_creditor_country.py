"""the creditor's country as a code, named in the reader's language: a stored creditor address
that ends in a country's name ("…, Netherlands", "…, The Netherlands", "…, Deutschland") in any
of the site's languages loses it to `creditor_country`; one that names no country it knows is
kept whole, with an empty `creditor_country` (nothing is added after it)

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27 17:00:00.000000
"""

from collections.abc import Sequence

import pycountry
import sqlalchemy as sa
from alembic import op
from babel import Locale

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SETTINGS = sa.table("sitesetting", sa.column("key", sa.String), sa.column("value", sa.JSON))
# The site's languages when this revision was written (translations/locales.py).
LANGUAGES = ("nl", "en", "de", "it", "fr", "es", "pl", "da", "fi", "nb", "sv")
# English names CLDR does not give but addresses use.
ENGLISH_VARIANTS = {"holland": "NL", "czech republic": "CZ", "great britain": "GB", "uk": "GB"}


def _countries(locale: str) -> dict[str, str]:
    """Code -> name of every country (no "European Union", "Unknown Region") in `locale`."""
    names = Locale.parse(locale).territories
    return {code: names[code] for code in names if pycountry.countries.get(alpha_2=code)}


def _key(name: str) -> str:
    """A name as it is compared: case and spaces aside, "The Netherlands" as "Netherlands"."""
    words = name.split()
    if words and words[0].casefold() == "the":
        words = words[1:]
    return " ".join(words).casefold()


def _codes_by_name() -> dict[str, str]:
    """Each country's name in any of the languages -> its code; a name two countries share
    in some language (de "Kongo") names neither."""
    codes: dict[str, set[str]] = {}
    for locale in LANGUAGES:
        for code, name in _countries(locale).items():
            codes.setdefault(_key(name), set()).add(code)
    named = {name: found.pop() for name, found in codes.items() if len(found) == 1}
    return {**named, **ENGLISH_VARIANTS}


def _stored(key: str) -> object:
    query = sa.select(SETTINGS.c.value).where(SETTINGS.c.key == key)
    return op.get_bind().execute(query).scalar()


def _store(key: str, value: str) -> None:
    bind = op.get_bind()
    bind.execute(sa.delete(SETTINGS).where(SETTINGS.c.key == key))
    bind.execute(sa.insert(SETTINGS).values(key=key, value=value))


def upgrade() -> None:
    address = _stored("creditor_address")
    if not isinstance(address, str) or _stored("creditor_country") is not None:
        return  # the seeded defaults hold the address without its country, and "NL"
    street, _, last = address.rpartition(",")
    code = _codes_by_name().get(_key(last)) if street.strip() else None
    if code:
        _store("creditor_address", street.strip())
    _store("creditor_country", code or "")


def downgrade() -> None:
    address, code = _stored("creditor_address"), _stored("creditor_country")
    english = _countries("en")
    if isinstance(address, str) and isinstance(code, str) and code in english:
        _store("creditor_address", f"{address}, {english[code]}")
    op.get_bind().execute(sa.delete(SETTINGS).where(SETTINGS.c.key == "creditor_country"))
