"""Translated text for the frontend. The compiled pages name each text by a short key; the
browser looks it up in the catalogue of the visitor's language only, which the page's head
loads (app/catalogue_api.py), and every component that shows a text redraws when another
catalogue arrives (a language switch).

`t("text")` is a plain text, `tp("context", "text")` a text in a context (a gendered form, a
word that means one thing for hair and another for eyes) and `tn("{count} credit",
"{count} credits", count)` a counted text whose plural form the browser picks with the locale's
gettext plural expression, the same one the server uses."""

import json
from collections.abc import Iterable, Mapping

import reflex as rx
from reflex_base.vars.base import VarData

from state.document_values import REACT_HOOK_IMPORTS, prerendered_or
from state.i18n import format_locale, hydrated, text_locale
from translations.catalog import (
    CATALOGUE_PARTS,
    Counted,
    Message,
    browser_key,
    in_catalogues,
    part_global,
    plural_rule,
    text_part,
)
from translations.locales import LOCALES
from translations.prerender_marks import LOCALE_MARK, mark

Param = rx.Var | str | int
_MOST_FORMS = max(plural_rule(locale)[0] for locale in LOCALES)
Label = str | tuple[str | None, str]  # a msgid, or (context, msgid)


def _arrivals(kind: str) -> rx.Var:
    """The number of `kind` catalogues (i18n: texts, i18nRegions: region names) that arrived:
    reading it redraws the component when another does (assets/shell.js); in the server's
    prerender, where there is no window, it never changes."""
    hook = (
        f"const {kind}Version = useSyncExternalStore("
        f"(listener) => globalThis.{kind}Subscribe?.(listener) ?? (() => {{}}), "
        f"() => globalThis.{kind}Version?.() ?? 0, () => 0);"
    )
    return rx.Var(
        f"{kind}Version", _var_data=VarData(hooks={hook: None}, imports=REACT_HOOK_IMPORTS)
    )


_CATALOGUES = _arrivals("i18n")
_PART_KINDS = {part: part_global(part) for part in CATALOGUE_PARTS}
_PART_CATALOGUES = {part: _arrivals(kind) for part, kind in _PART_KINDS.items()}
_REGION_NAMES = _arrivals("i18nRegions")


def browser_text(
    context: str | None, msgid: str, plural: str | None = None, fills: Iterable[str] = ()
) -> rx.Var:
    """The text in the visitor's language, as the browser finds it by its key: the one place
    that decides how translations travel to the browser. A text with no catalogue entry (a brand
    name) is the same in every language and is written in as it is. In the prerendered page it
    is a mark the server replaces with the visitor's text (`fills`: the {name}s the page fills)."""
    if not in_catalogues(context, msgid):
        return rx.Var.create(msgid if plural is None else [msgid, plural])
    key = browser_key(context, msgid)
    prerendered = json.dumps(mark(key, tuple(dict.fromkeys(fills))))
    if plural is not None:
        prerendered = f"Array({_MOST_FORMS}).fill({prerendered})"
    empty = "[]" if plural is not None else '""'
    part = text_part(context, msgid)
    kind, arrivals = (_PART_KINDS[part], _PART_CATALOGUES[part]) if part else ("i18n", _CATALOGUES)
    lookup = f"globalThis.{kind}Text?.({json.dumps(key)}, {text_locale()})"
    return rx.Var(f"(({arrivals}), {prerendered_or(prerendered, lookup)} ?? {empty})")


def _region_entry(prefix: str, code: rx.Var[str], empty: str) -> rx.Var:
    """The entry `prefix` + `code` of the visitor's region names (app/catalogue_api.py), which
    the first page that shows a region loads (assets/shell.js), else `empty`. Nothing for no
    code, and in the prerender, whose pages have none (a region comes with a page's state)."""
    key = f"{json.dumps(prefix)} + {code}"
    lookup = f"({code} ? globalThis.i18nRegion?.({key}, {text_locale()}) : undefined)"
    return rx.Var(f"(({_REGION_NAMES}), {prerendered_or('undefined', lookup)} ?? {empty})")


def region_name(code: rx.Var[str]) -> rx.Var[str]:
    """The region's name in the visitor's language; "" for none."""
    return _region_entry("region:", code, '""').to(str)


def region_codes(country: rx.Var[str]) -> rx.Var[list[str]]:
    """The country's regions, in the order the visitor's language sorts their names."""
    return _region_entry("regions:", country, "[]").to(list[str])


def filled_in(text: rx.Var, params: Mapping[str, Param]) -> rx.Var[str]:
    """`text` with its {name} placeholders replaced by `params`, each value as it is written: a
    replacement string would read `$&`, `$'` and `` $` `` in it as patterns (a member named
    "$&"), a replacement function's result is taken literally."""
    for name, value in params.items():
        placeholder = json.dumps("{" + name + "}")
        fill = f"(s, v) => s.replaceAll({placeholder}, () => v)"
        text = rx.Var(f"({fill})({text}, String({rx.Var.create(value)}))")
    return text.to(str)


def plural_index_js() -> str:
    """JavaScript `(n, l) => index`: which plural form count `n` takes in locale `l`, by the
    locales' gettext plural expressions (locales sharing one share its code)."""
    groups: dict[str, list[str]] = {}
    for locale in LOCALES:
        groups.setdefault(plural_rule(locale)[1], []).append(locale)
    *special, (most_common, _) = sorted(groups.items(), key=lambda group: len(group[1]))
    body = f"({most_common})"
    for expression, locales in special:
        body = f"({json.dumps(locales)}.includes(l) ? ({expression}) : {body})"
    return f"(n, l) => Number({body})"


def tp(context: str | None, msgid: str, **params: Param) -> rx.Var[str]:
    """The text of `msgid` in `context` in the visitor's locale; {name}s take `params`."""
    return filled_in(browser_text(context, msgid, fills=params), params)


def tn(singular: str, plural: str, count: rx.Var | int, /, **params: Param) -> rx.Var[str]:
    """The counted text in the plural form `count` takes in the visitor's locale; {count} is
    the count written the visitor's way (`number`), other {name}s take `params`."""
    values = {"count": number(count), **params}
    table = browser_text(None, singular, plural, fills=values)
    index = f"({plural_index_js()})(Math.abs(Number({rx.Var.create(count)})), {text_locale()})"
    return filled_in(rx.Var(f"{table}[{index}]"), values)


def t(msgid: Message, **params: Param) -> rx.Var[str]:
    """The text of `msgid` in the visitor's locale; {name} placeholders take `params`. A counted
    text (`N_plural`) takes its form from the parameter it names."""
    if isinstance(msgid, Counted):
        count = params[msgid.count]
        return tn(msgid.singular, msgid.plural, count, **{**params, msgid.count: number(count)})
    return tp(None, msgid, **params)


def locale_code() -> rx.Var[str]:
    """The code of the language texts are shown in, as the language menu shows it (NL)."""
    code = f"{text_locale()}.toUpperCase()"
    return rx.Var(prerendered_or(json.dumps(LOCALE_MARK), code)).to(str)


def intl_object(kind: str, options: str = "", vary: rx.Var | None = None) -> str:
    """Browser code for the `Intl.<kind>` object with `options` (a JavaScript object's body,
    which may use `vary`, e.g. a currency) in `format_locale()`, the one locale everything but
    texts is written in; made once per page and locale (and `vary`): making one costs more than
    using it, and a grid, a chat or a country list uses one per card, message or option."""
    key = f"{json.dumps(f'{kind}|{options}|')} + locale + '|' + vary"
    made = f"new Intl.{kind}([locale], {{{options}}})"
    cached = f"(globalThis.__intl ??= {{}})[{key}] ??= {made}"
    return f"((locale, vary) => {cached})({format_locale()}, {vary if vary is not None else '0'})"


def intl_format(iso: rx.Var[str], options: str) -> str:
    """Browser code writing an ISO date or time in the visitor's language with
    `Intl.DateTimeFormat` options (a JavaScript object's body); empty before the date arrives."""
    format_ = f"{intl_object('DateTimeFormat', options)}.format(d)"
    return f"((d) => (isNaN(d) ? '' : {format_}))(new Date({iso}))"


def local_date(iso_date: rx.Var[str]) -> rx.Var[str]:
    """A YYYY-MM-DD date written the way the visitor's language writes dates."""
    return rx.Var(intl_format(iso_date, "dateStyle: 'long', timeZone: 'UTC'")).to(str)


def number(value: rx.Var | int) -> rx.Var[str]:
    """A count written the visitor's way (de 1.500, fr 1 500, en 1,500); as the prerender
    wrote it (1500) until React has taken over the prerendered page."""
    value = rx.Var.create(value)
    written = f"{intl_object('NumberFormat')}.format(n)"
    return rx.Var(f"((n) => ({hydrated()} ? {written} : String(n)))(Number({value}))").to(str)


def percent(value: rx.Var | int, decimals: int = 0) -> rx.Var[str]:
    """A percentage (25 for 25 %) written the visitor's way: de "25 %", en "25%", fr "25 %";
    with up to `decimals` decimals."""
    digits = f", maximumFractionDigits: {decimals}" if decimals else ""
    format_ = intl_object("NumberFormat", f"style: 'percent'{digits}")
    return rx.Var(f"{format_}.format(Number({rx.Var.create(value)}) / 100)").to(str)


def money(cents: rx.Var, currency: rx.Var) -> rx.Var[str]:
    """An amount in cents of `currency` written the visitor's way: "€ 19,95" (nl), "€19.95"
    (en), "19,95 €" (de), "PLN 89.00" (en); empty before the amount arrives."""
    format_ = intl_object("NumberFormat", "style: 'currency', currency: vary", currency)
    written = f"((c) => (c ? {format_}.format(Number({cents}) / 100) : ''))({currency})"
    return rx.Var(written).to(str)


# Browser code `(text, params) => text` with its {name}s replaced by `params`' values, as they
# are written (a replacement function: a string would read `$&` as a pattern).
_FILL = (
    "((text, params) => Object.entries(params ?? {}).reduce("
    "(s, [k, v]) => s.replaceAll('{' + k + '}', () => String(v)), text))"
)


def _message_text(message: str) -> str:
    """Browser code writing the message `message` (the name of a JavaScript value holding a
    translations.catalog.browser_message) in the visitor's language; '' for none."""
    kinds = ("i18n", *_PART_KINDS.values())
    lookup = " ?? ".join(
        f"globalThis.{kind}Text?.({message}.key, {text_locale()})" for kind in kinds
    )
    written = f"{_FILL}({lookup} ?? '', {message}.params)"
    arrivals = ", ".join(f"({a})" for a in (_CATALOGUES, *_PART_CATALOGUES.values()))
    return f"({arrivals}, {message}?.key ? {written} : '')"


def t_message(message: rx.Var) -> rx.Var[str]:
    """A text the server picked at runtime (translations.catalog.browser_message: an error, a
    refusal) in the visitor's language, again after a language switch; '' for none ({})."""
    return rx.Var(f"((m) => {_message_text('m')})({message})").to(str)


def t_messages(messages: rx.Var) -> rx.Var[dict[str, str]]:
    """A name -> browser_message map (a form's errors by field) as name -> text."""
    each = f"([name, m]) => [name, {_message_text('m')}]"
    return rx.Var(f"Object.fromEntries(Object.entries({messages}).map({each}))").to(dict[str, str])


def t_label(label: Label) -> rx.Var[str]:
    """The text of a label chosen in the code: a msgid, or (context, msgid)."""
    return t(label) if isinstance(label, str) else tp(*label)


def t_choice(labels: Mapping[str, Label], key: rx.Var[str]) -> rx.Var[str]:
    """The translated label of a runtime value (e.g. an interest), from a value -> msgid (or
    (context, msgid)) map."""
    texts = {value: browser_text(*_pair(label)) for value, label in labels.items()}
    return rx.Var(f"{rx.Var.create(texts)}?.[{key}]").to(str)


def _pair(label: Label) -> tuple[str | None, str]:
    return (None, label) if isinstance(label, str) else label
