"""Sort keys that order words the way each interface language orders them in its dictionaries
(the CLDR collation of the language, in a small form that covers the Latin letters our names use).

Every language ignores accents first and then compares them (é after e, ü after u in German),
except for the letters it counts as letters of their own: Polish ą ć ę ł ń ó ś ź ż after their
base letter, Spanish ñ after n, Swedish and Finnish å ä ö after z (æ ø sort as ä ö), Danish and
Norwegian æ ø å after z (ä ö sort as æ ø, "aa" as å). Spaces come before hyphens and other
punctuation, which come before digits and letters; lowercase before uppercase when all else ties."""

import unicodedata
from collections.abc import Callable
from functools import partial

# Letters that are their own letter in a language: letter -> (the letter it follows, rank).
_NORDIC_SV = {"å": ("z", 1), "ä": ("z", 2), "æ": ("z", 2), "ö": ("z", 3), "ø": ("z", 3)}
_NORDIC_DA = {"æ": ("z", 1), "ä": ("z", 1), "ø": ("z", 2), "ö": ("z", 2), "å": ("z", 3)}
_OWN_LETTERS: dict[str, dict[str, tuple[str, int]]] = {
    "pl": {
        "ą": ("a", 1), "ć": ("c", 1), "ę": ("e", 1), "ł": ("l", 1), "ń": ("n", 1),
        "ó": ("o", 1), "ś": ("s", 1), "ź": ("z", 1), "ż": ("z", 2),
    },
    "es": {"ñ": ("n", 1)},
    "sv": _NORDIC_SV,
    "fi": _NORDIC_SV,
    "da": {**_NORDIC_DA, "aa": ("z", 3)},
    "nb": {**_NORDIC_DA, "aa": ("z", 3)},
}  # fmt: skip
# Letters without a decomposition that every language sorts as other letters.
_SPELLED = {"ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "đ": "d", "ı": "i", "þ": "th"}

SortKey = tuple[tuple[tuple[int, ...], ...], tuple[str, ...], tuple[int, ...]]


def _tokens(text: str, own: dict[str, tuple[str, int]]) -> list[str]:
    """`text` in lowercase, split into characters, a digraph such as Danish "aa" kept whole."""
    lowered, found, index = text.casefold(), [], 0
    while index < len(lowered):
        pair = lowered[index : index + 2]
        step = 2 if len(pair) == 2 and pair in own else 1
        found.append(lowered[index : index + step])
        index += step
    return found


def _primary_and_accent(token: str, own: dict[str, tuple[str, int]]) -> list[tuple[tuple, str]]:
    """The primary weights of one token and the accents compared after them."""
    composed = unicodedata.normalize("NFC", token)
    if composed in own:
        base, rank = own[composed]
        return [((3, ord(base), rank), "")]
    decomposed = unicodedata.normalize("NFD", composed)
    base, accents = decomposed[0], decomposed[1:]
    if base in _SPELLED:
        return [((3, ord(letter), 0), accents) for letter in _SPELLED[base]]
    if base.isspace():
        return [((0, 0, 0), "")]
    if base.isalpha():
        return [((3, ord(base), 0), accents)]
    return [((2 if base.isdigit() else 1, ord(base), 0), "")]


def _key(locale: str, text: str) -> SortKey:
    own = _OWN_LETTERS.get(locale, {})
    weights = [w for token in _tokens(text, own) for w in _primary_and_accent(token, own)]
    cases = tuple(int(ch.isupper()) for ch in text if ch.isalpha())
    return tuple(p for p, _ in weights), tuple(a for _, a in weights), cases


def sort_key(locale: str) -> Callable[[str], SortKey]:
    """The sort key of `locale` (one of the interface languages; any other sorts like English)."""
    return partial(_key, locale)
