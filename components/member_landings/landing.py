"""A member landing as its designs get it: the member, the request and the niche whose wording
the page may use (a landing2/3 slug's, when the member fits that niche)."""

from dataclasses import dataclass
from datetime import date

import reflex as rx

from actions.member_pages import LandingMember
from components.landers.common import HEADLINES
from components.member_landings.common import MEMBER, member_frame
from components.server_parts import PageRequest, server_html
from models.lander_slug import PLAIN, slug_of, slug_parts
from models.niches import fits_niche
from translations.catalog import gettext

PART = "landing"  # every design's one holder: ⟦member-landing⟧


@dataclass(frozen=True)
class Landing:
    member: LandingMember
    request: PageRequest
    niche: str

    @property
    def headline(self) -> str:
        """The niche's wording (components/landers/common.HEADLINES), true of this member."""
        return gettext(self.request.locale, HEADLINES[self.niche])


def landing_of(member: LandingMember, request: PageRequest, today: date) -> Landing:
    niche = slug_parts(slug_of(request.path) or "")[0]
    facts = member.niche_facts
    fits = niche != PLAIN and facts is not None and fits_niche(niche, facts, today)
    return Landing(member, request, niche if fits else PLAIN)


def landing_screen(kind: str) -> rx.Component:
    return member_frame(kind, server_html(MEMBER, PART))
