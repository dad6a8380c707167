"""A translated sentence with links inside it: the translation decides where the links go."""

import json
import re

import reflex as rx

from components.i18n import t
from state.i18n import hydrated


def linked_text(msgid: str, **links: tuple[str, str]) -> rx.Component:
    """`msgid` in the visitor's locale with each `{name}` placeholder a link; `links[name]` is
    (the link text's msgid, its address). Translators move the placeholders as their grammar
    needs and translate the link texts in the case the sentence puts them in. The prerendered
    page holds the sentence with the link texts in it, the links come once React took over."""
    placeholders = {"{" + name + "}": link for name, link in links.items()}
    pattern = json.dumps("(" + "|".join(map(re.escape, placeholders)) + ")")
    parts = rx.Var(f"({t(msgid)}).split(new RegExp({pattern}))").to(list[str])
    sentence = t(msgid, **{name: t(label) for name, (label, _) in links.items()})
    return rx.cond(
        hydrated(),
        rx.foreach(
            parts,
            lambda part: rx.match(
                part,
                *(
                    (placeholder, rx.link(t(label), href=href, target="_blank", underline="always"))
                    for placeholder, (label, href) in placeholders.items()
                ),
                rx.text.span(part),
            ),
        ),
        rx.text.span(sentence),
    )
