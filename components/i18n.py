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
from state.i18n import shown_locale, text_locale
from translations.catalog import Counted, Message, browser_key, in_catalogues, plural_rule
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
    lookup = f"globalThis.i18nText?.({json.dumps(key)}, {text_locale()})"
    return rx.Var(f"(({_CATALOGUES}), {prerendered_or(prerendered, lookup)} ?? {empty})")


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


def _filled(text: rx.Var, params: Mapping[str, Param]) -> rx.Var[str]:
    """`text` with its {name} placeholders replaced by `params`."""
    for name, value in params.items():
        placeholder = json.dumps("{" + name + "}")
        text = rx.Var(f"({text}).replaceAll({placeholder}, String({rx.Var.create(value)}))")
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
    return _filled(browser_text(context, msgid, fills=params), params)


def tn(singular: str, plural: str, count: rx.Var | int, /, **params: Param) -> rx.Var[str]:
    """The counted text in the plural form `count` takes in the visitor's locale; {count} is
    the count, other {name}s take `params`."""
    values = {"count": count, **params}
    table = browser_text(None, singular, plural, fills=values)
    index = f"({plural_index_js()})(Math.abs(Number({rx.Var.create(count)})), {text_locale()})"
    return _filled(rx.Var(f"{table}[{index}]"), values)


def t(msgid: Message, **params: Param) -> rx.Var[str]:
    """The text of `msgid` in the visitor's locale; {name} placeholders take `params`. A counted
    text (`N_plural`) takes its form from the parameter it names."""
    if isinstance(msgid, Counted):
        return tn(msgid.singular, msgid.plural, params[msgid.count], **params)
    return tp(None, msgid, **params)


def locale_code() -> rx.Var[str]:
    """The code of the language texts are shown in, as the language menu shows it (NL)."""
    code = f"{text_locale()}.toUpperCase()"
    return rx.Var(prerendered_or(json.dumps(LOCALE_MARK), code)).to(str)


def intl_object(kind: str, locale: rx.Var[str] | str, options: str = "") -> str:
    """Browser code for the `Intl.<kind>` object of `locale` with `options` (a JavaScript
    object's body), made once per page: making one costs more than using it, and a grid, a
    chat or a country list uses one per card, message or option."""
    key = f"{json.dumps(f'{kind}|{options}|')} + locale"
    made = f"new Intl.{kind}([locale], {{{options}}})"
    return f"((locale) => (globalThis.__intl ??= {{}})[{key}] ??= {made})({locale})"


def intl_format(iso: rx.Var[str], options: str) -> str:
    """Browser code writing an ISO date or time in the visitor's language with
    `Intl.DateTimeFormat` options (a JavaScript object's body); empty before the date arrives."""
    format_ = f"{intl_object('DateTimeFormat', shown_locale(), options)}.format(d)"
    return f"((d) => (isNaN(d) ? '' : {format_}))(new Date({iso}))"


def local_date(iso_date: rx.Var[str]) -> rx.Var[str]:
    """A YYYY-MM-DD date written the way the visitor's language writes dates."""
    return rx.Var(intl_format(iso_date, "dateStyle: 'long', timeZone: 'UTC'")).to(str)


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
