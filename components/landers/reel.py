"""What the two moving landers (video, transitionsvideolanding) share: the members in the
sequence's turns and their photos.

The sequences are CSS keyframes over server-written <img> elements (assets/site.css), timed for
TURNS turns: the first photo is the page's largest paint (eager, fetched first, never starting
invisible); the others are lazy and wait outside the sequence's clipped box until shortly
before their turn, so they do not take bandwidth from it. Only opacity and transform move, on
the compositor."""

from collections.abc import Mapping
from html import escape

from models.routes import member_signup_url

TURNS = 6  # the keyframes in assets/site.css are timed for six turns


def turns(members: list[Mapping]) -> list[tuple[Mapping, bool]]:
    """(member, repeat) for each turn: fewer members than TURNS come round again (a repeat is
    hidden from assistive technology and the tab order); a single member is shown alone."""
    if len(members) < 2:
        return [(member, False) for member in members]
    return [(members[i % len(members)], i >= len(members)) for i in range(TURNS)]


def turn_photo(member: Mapping, turn: int, sizes: str) -> str:
    first = turn == 0
    attributes = {
        "alt": member["name"],
        "src": member["photo"],
        "srcset": member["srcset"],
        "sizes": sizes,
        "width": "400",
        "height": "500",
        "loading": "eager" if first else "lazy",
        "fetchpriority": "high" if first else "low",
        "decoding": "auto" if first else "async",
    }
    return "<img " + " ".join(f'{key}="{escape(value)}"' for key, value in attributes.items()) + ">"


def hidden_if(repeat: bool) -> str:
    """A repeat's attribute: assistive technology reads each member once."""
    return ' aria-hidden="true"' if repeat else ""


def untabbed_if(repeat: bool) -> str:
    """A repeat's link stays out of the tab order."""
    return ' tabindex="-1"' if repeat else ""


def signup_href(member: Mapping) -> str:
    return escape(member_signup_url(member["id"]))


def name_and_age(member: Mapping) -> str:
    return f"{escape(member['name'])}, {member['age']}"


def fictional_badge(member: Mapping, label: str) -> str:
    """The settings' label on a fictional profile (as common.card_html writes it)."""
    return f'<span class="fictional-badge">{escape(label)}</span>' if member["fictional"] else ""
