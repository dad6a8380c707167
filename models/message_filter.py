"""A first screen of chat texts: insults, explicit sexual requests, scams and, until the
recipient has written back, moving off the site (a phone number, an e-mail address, an app
handle). A flagged text is not refused: its sender is asked "Are you sure?" and its recipient
sees it behind "This message may be offensive".

The words are ours, one list per language in models/data/message_filter/ (README.md there says
why and the format); the lists that apply are English's and the members' languages'.
Phone numbers are found by `phonenumbers`, bank accounts checked by `schwifty`.
"""

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib.resources import files

import phonenumbers
from schwifty import IBAN
from schwifty.exceptions import SchwiftyException

from translations.locales import HOME_COUNTRY, LOCALES


class Reason(StrEnum):
    INSULT = "insult"
    SEXUAL = "sexual"
    SCAM = "scam"
    CONTACT = "contact"  # counted only until the recipient has written back


ORDINARY = "ordinary"
MONEY_VERB = "money_verb"  # send, transfer, lend: a scam beside an amount of money
CURRENCY = "currency"  # words after an amount ("200 euros", "500 kr")
EVERY_LANGUAGE = "all"  # the list of terms any language uses (apps, payment services)
_SECTIONS = {reason.value for reason in Reason} | {ORDINARY, MONEY_VERB, CURRENCY}
# Letters written as signs or digits; applied to the lists too, so they read the same.
_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
_LETTERS = str.maketrans({"ø": "o", "æ": "ae", "ß": "ss", "ł": "l", "đ": "d", "œ": "oe", "ı": "i"})
_INSIDE_WORD = re.compile(r"(?<=\w)[.*_](?=\w)")  # f.u.c.k, f*ck
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_HANDLE = re.compile(r"(?<![\w@])@[a-z0-9_.]{3,}")
_CONTACT_LINK = re.compile(r"\b(?:wa\.me|t\.me|snapchat\.com|instagram\.com)/")
_IBAN_START = re.compile(r"\b[A-Z]{2}\d{2}")
_NUMBER = r"\d+(?:[.,' ]\d{3})*(?:[.,]\d{1,2})?"
_SYMBOL = r"[€$£]"
_NEAR = 40  # characters between a money verb and an amount
_IBAN_MIN, _IBAN_MAX = 15, 34  # letters and digits (Norway's, Saint Lucia's)
# Home regions whose national phone numbers (without a + prefix) are recognised.
_PHONE_REGIONS = {**HOME_COUNTRY, "en": "GB"}


def _plain(text: str) -> str:
    """Lower case, no diacritics; digits and signs kept (amounts are read from it)."""
    lowered = text.lower().translate(_LETTERS)
    return "".join(
        c for c in unicodedata.normalize("NFKD", lowered) if not unicodedata.combining(c)
    )


def fold(text: str) -> str:
    """Text as the lists are matched: lower case, no diacritics, signs read as letters."""
    return _INSIDE_WORD.sub("", _plain(text).translate(_LEET))


def _term_pattern(term: str) -> str:
    """A term as a regex on folded text: whole words, each letter may repeat, `*` at either end
    for more letters, any run of spaces or punctuation between words."""
    words = re.findall(r"\*?\w+\*?", fold(term.replace("*", "\x00")).replace("\x00", "*"))
    return r"\W+".join(_word_pattern(word) for word in words)


def _word_pattern(word: str) -> str:
    core = word.strip("*")
    letters = "".join(re.escape(letter) + "+" for letter in core)
    return (
        (r"\w*" if word.startswith("*") else "") + letters + (r"\w*" if word.endswith("*") else "")
    )


def _compiled(terms: list[str]) -> re.Pattern[str] | None:
    if not terms:
        return None
    alternatives = "|".join(_term_pattern(term) for term in terms)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")


@dataclass(frozen=True)
class WordList:
    """One language's patterns per reason, and its ordinary words."""

    patterns: dict[Reason, re.Pattern[str]]
    ordinary: re.Pattern[str] | None
    money_verbs: re.Pattern[str] | None
    currencies: tuple[str, ...]


def parse(source: str) -> dict[str, list[str]]:
    """Terms per section of a list file (see the README beside the files)."""
    sections: dict[str, list[str]] = {name: [] for name in _SECTIONS}
    current: list[str] | None = None
    for raw in source.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections[line[1:-1]]
        elif current is None:
            raise ValueError(f"a term before any section: {line!r}")
        else:
            current.append(line)
    return sections


@cache
def word_list(name: str) -> WordList:
    """The list `name` (a locale or EVERY_LANGUAGE), read once per process."""
    path = files("models").joinpath("data", "message_filter", f"{name}.txt")
    sections = parse(path.read_text(encoding="utf-8"))
    patterns = {reason: _compiled(sections[reason.value]) for reason in Reason}
    return WordList(
        {reason: pattern for reason, pattern in patterns.items() if pattern is not None},
        _compiled(sections[ORDINARY]),
        _compiled(sections[MONEY_VERB]),
        tuple(sections[CURRENCY]),
    )


@cache
def _amount(languages: tuple[str, ...]) -> re.Pattern[str]:
    """An amount of money: a currency sign or word before or after a number."""
    lists = [word_list(EVERY_LANGUAGE), *(word_list(code) for code in languages)]
    words = "|".join(_term_pattern(word) for found in lists for word in found.currencies)
    unit = rf"(?:{_SYMBOL}|(?<!\w)(?:{words})(?!\w))"
    return re.compile(rf"{_SYMBOL}\s?{_NUMBER}|(?<![\w.,]){_NUMBER}\s?{unit}")


def asks_for_an_amount(text: str, languages: tuple[str, ...]) -> bool:
    """An amount of money near a verb that sends, transfers or lends it ("can you send me
    200 euros", "kun je 100 euro overmaken")."""
    plain = _plain(text)
    verbs = [
        found.money_verbs
        for found in (word_list(code) for code in (EVERY_LANGUAGE, *languages))
        if found.money_verbs is not None
    ]
    return any(
        verb.search(plain[max(0, amount.start() - _NEAR) : amount.end() + _NEAR])
        for amount in _amount(languages).finditer(plain)
        for verb in verbs
    )


def languages_in_play(*locales: str) -> tuple[str, ...]:
    """English, then the given locales we have lists for, each once."""
    return tuple(dict.fromkeys(code for code in ("en", *locales) if code in LOCALES))


def _word_reasons(text: str, languages: tuple[str, ...]) -> set[Reason]:
    folded = fold(text)
    lists = [word_list(EVERY_LANGUAGE), *(word_list(code) for code in languages)]
    ordinary = [found.ordinary for found in lists if found.ordinary is not None]
    found: set[Reason] = set()
    for listed in lists:
        for reason, pattern in listed.patterns.items():
            if reason not in found and any(
                not any(word.fullmatch(match.group()) for word in ordinary)
                for match in pattern.finditer(folded)
            ):
                found.add(reason)
    return found


def has_bank_account(text: str) -> bool:
    """An IBAN that passes its check digits (in groups or not, any case)."""
    upper = text.upper()
    return any(
        _valid_iban(candidate)
        for start in _IBAN_START.finditer(upper)
        for candidate in _iban_candidates(upper[start.start() : start.start() + 50])
    )


def _iban_candidates(text: str) -> list[str]:
    """Every run of letters and digits from the start of `text`, spaces left out, that ends
    at a word's end and is as long as an IBAN can be."""
    words = re.match(r"[A-Z0-9]+(?: [A-Z0-9]+)*", text)
    runs, compact = [], ""
    for word in words.group().split(" ") if words else []:
        compact += word
        if _IBAN_MIN <= len(compact) <= _IBAN_MAX:
            runs.append(compact)
    return runs


def _valid_iban(candidate: str) -> bool:
    try:
        IBAN(candidate)
    except SchwiftyException:
        return False
    return True


def has_contact(text: str, languages: tuple[str, ...]) -> bool:
    """A phone number (international, or national in a language's home country), an e-mail
    address, an @handle or a link to a messaging app."""
    lowered = text.lower()
    if _EMAIL.search(lowered) or _HANDLE.search(lowered) or _CONTACT_LINK.search(lowered):
        return True
    regions = dict.fromkeys(_PHONE_REGIONS[code] for code in languages if code in _PHONE_REGIONS)
    return any(
        phonenumbers.PhoneNumberMatcher(text, region, phonenumbers.Leniency.VALID).has_next()
        for region in regions
    )


def screen(text: str, languages: Iterable[str], first: bool) -> frozenset[Reason]:
    """Why `text` should be confirmed by its sender and veiled for its recipient (empty: it
    is not). `languages`: the sender's page and account and the recipient's account locales
    (English always applies);
    `first`: the recipient has not written in the conversation yet."""
    in_play = languages_in_play(*languages)
    reasons = _word_reasons(text, in_play)
    if has_bank_account(text) or asks_for_an_amount(text, in_play):
        reasons.add(Reason.SCAM)
    if first and has_contact(text, in_play):
        reasons.add(Reason.CONTACT)
    if not first:
        reasons.discard(Reason.CONTACT)
    return frozenset(reasons)
