"""The social network lander (`/landers/socialnetwork/{slug?}`): a feed of what the niche's
members near the visitor did lately (a new photo, joining), the most recent first, each with
its real time written in the visitor's language ("3 hours ago"), beside (on phones below) the
headline, the counted number and the signup. Each member leads to the signup aimed at them."""

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from html import escape

import reflex as rx
from babel.dates import format_timedelta

from actions.lander_reads import JOINED, NEW_PHOTO, LanderMembers, lander_activity
from components.landers.common import (
    LANDER,
    NOBODY,
    card_html,
    head_html,
    lander_frame,
    lander_mark,
    lander_view,
    signup_button,
)
from components.member_card import EAGER_CARDS
from components.server_parts import PageRequest, server_html
from models.routes import member_signup_url
from models.site_settings import SiteSettings
from translations.catalog import N_, gettext

KIND = "socialnetwork"
SHOWN = 20
# One item a row on phones (its photo 40% of it), two from 768 px, beside the headline from 992.
SIZES = "(min-width: 992px) 150px, (min-width: 768px) 20vw, 40vw"
# Every photo lazy (`card_html`'s index past EAGER_CARDS): the headline is the largest paint, and
# photos fetched before it would hold it back (Lighthouse's LCP 1.9 s with the first six eager).
EVENTS = {JOINED: N_("New member"), NEW_PHOTO: N_("New photo")}
FEED_TITLE = N_("Recent activity")
SAY_HELLO = N_("Say hello")
# Babel rounds up to a minute and would write "in 0 minutes" for now.
SHORTEST = timedelta(minutes=1)


def time_ago(at: datetime, now: datetime, locale: str) -> str:
    """`at` as "3 hours ago" in `locale` (Babel's CLDR wording, rounded)."""
    return format_timedelta(
        -max(now - at, SHORTEST), granularity="minute", add_direction=True, locale=locale
    )


def _item_html(member: Mapping, index: int, label: str, now: datetime, locale: str) -> str:
    kind, at = member["event"], member["at"]
    event = escape(gettext(locale, EVENTS[kind]))
    return (
        f'<li class="feed-item feed-{escape(kind)}">'
        f"{card_html(member, EAGER_CARDS + index, label, SIZES)}"
        f'<div class="feed-body"><p class="feed-event">{event}</p>'
        f'<time datetime="{at.astimezone(UTC).isoformat(timespec="minutes")}">'
        f"{escape(time_ago(at, now, locale))}</time>"
        f'<p class="feed-place">{escape(member["place"])}</p>'
        f'<a class="feed-hello" href="{escape(member_signup_url(member["id"]))}">'
        f"{escape(gettext(locale, SAY_HELLO))}</a></div></li>"
    )


def feed_html(found: LanderMembers, settings: SiteSettings, locale: str, now: datetime) -> str:
    """The members' latest events, the most recent first."""
    if not found.members:
        return f'<p class="muted">{escape(gettext(locale, NOBODY))}</p>'
    label = settings.fictional_singular.get(locale, "")
    items = "".join(
        _item_html(member, i, label, now, locale) for i, member in enumerate(found.members)
    )
    return (
        f'<h2 class="feed-title">{escape(gettext(locale, FEED_TITLE))}</h2>'
        f'<ol class="feed" data-testid="lander-feed">{items}</ol>'
    )


async def write(request: PageRequest) -> dict[str, str]:
    view = await lander_view(request, SHOWN, lander_activity)
    now = datetime.now(UTC)
    return {
        lander_mark("head"): head_html(view, request.locale),
        lander_mark("feed"): feed_html(view.found, request.settings, request.locale, now),
    }


def social_lander() -> rx.Component:
    return lander_frame(
        KIND,
        rx.el.div(
            rx.el.div(
                server_html(LANDER, "head"),
                signup_button(),
                class_name="lander-panel",
            ),
            rx.el.div(server_html(LANDER, "feed"), class_name="social-feed"),
            class_name="social-stage",
        ),
        rx.el.div(signup_button(), class_name="lander-cta-row"),
    )
