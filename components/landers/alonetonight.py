"""The recently-active lander (`/landers/alonetonight/{slug?}`; the name is the trade's, the page
claims nobody is alone or free tonight): the niche's members nearest the visitor who were active
lately, counted and worded exactly as measured.

The site keeps no "online" presence; "active" is what it records anyway (a message, a like, a
swipe or a photo upload within the last 24 hours, else 7 days: actions/lander_reads
`lander_recently_active`). Too few of them: the newest members, saying so. The page says how many
were active, never when any one member was."""

from html import escape

import reflex as rx

from actions.lander_reads import (
    ACTIVE_WINDOWS,
    ActiveMembers,
    LanderMembers,
    lander_recently_active,
)
from components.landers.common import (
    LANDER,
    LanderView,
    grid_html,
    head_html,
    lander_frame,
    lander_mark,
    lander_view,
    signup_button,
)
from components.server_parts import PageRequest, server_html
from translations.catalog import N_, N_plural, gettext

KIND = "alonetonight"
SHOWN = 18  # three rows of six on a wide screen, nine of two on a phone
DAY, WEEK = ACTIVE_WINDOWS

# (window, "{place}:" first, more than the cap) -> the count's wording.
_ACTIVE = {
    (DAY, True, False): N_plural(
        "{place}: {count} member was active in the last 24 hours",
        "{place}: {count} members were active in the last 24 hours",
    ),
    (DAY, False, False): N_plural(
        "{count} member was active in the last 24 hours",
        "{count} members were active in the last 24 hours",
    ),
    (DAY, True, True): N_plural(
        "{place}: more than {count} member was active in the last 24 hours",
        "{place}: more than {count} members were active in the last 24 hours",
    ),
    (DAY, False, True): N_plural(
        "More than {count} member was active in the last 24 hours",
        "More than {count} members were active in the last 24 hours",
    ),
    (WEEK, True, False): N_plural(
        "{place}: {count} member was active in the last 7 days",
        "{place}: {count} members were active in the last 7 days",
    ),
    (WEEK, False, False): N_plural(
        "{count} member was active in the last 7 days",
        "{count} members were active in the last 7 days",
    ),
    (WEEK, True, True): N_plural(
        "{place}: more than {count} member was active in the last 7 days",
        "{place}: more than {count} members were active in the last 7 days",
    ),
    (WEEK, False, True): N_plural(
        "More than {count} member was active in the last 7 days",
        "More than {count} members were active in the last 7 days",
    ),
}
MEANING = N_("Active means: sent a message or a like, swiped or added a photo.")
NEWEST = N_("Few members have been active in the last 7 days, so these are the newest members.")


def active_head_html(view: LanderView, locale: str) -> str:
    """The niche's headline, how many were active and what that means; too few: that these
    are the newest."""
    within = view.found.within if isinstance(view.found, ActiveMembers) else None
    if within is None:
        return head_html(view, locale) + _note(NEWEST, locale)

    def active_count(found: LanderMembers, place: str, locale: str) -> str:
        text = _ACTIVE[(within, bool(place), found.capped)]
        return gettext(locale, text, count=found.counted, place=place)

    return head_html(view, locale, active_count) + _note(MEANING, locale)


def _note(text: str, locale: str) -> str:
    return f'<p class="lander-note">{escape(gettext(locale, text))}</p>'


async def write(request: PageRequest) -> dict[str, str]:
    view = await lander_view(request, SHOWN, lander_recently_active)
    return {
        lander_mark("head"): active_head_html(view, request.locale),
        lander_mark("grid"): grid_html(view.found, request.settings, request.locale),
    }


def alonetonight_lander() -> rx.Component:
    return lander_frame(
        KIND,
        rx.el.div(server_html(LANDER, "head"), signup_button(), class_name="active-hero"),
        server_html(LANDER, "grid"),
        rx.el.div(signup_button(), class_name="lander-cta-row"),
    )
