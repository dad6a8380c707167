"""Which part a member's page has written (`⟦member-…⟧` marks): the landing's design, the
signup's teaser or the profile's first paint, by the address. Landings and the signup show only
a member listed to the viewer; the profile follows its own access rules."""

from datetime import date

from components.member_landings import invitation, portrait, profile_paint, signup_page, spotlight
from components.member_landings.common import MEMBER, listed_member, member_mark, member_page
from components.member_landings.landing import PART, landing_of
from components.server_parts import PageRequest, ServerParts

DESIGNS = {design.KIND: design.html for design in (portrait, spotlight, invitation)}


async def write_member(request: PageRequest) -> dict[str, str]:
    page = member_page(request.path)
    if page is None:
        return {}
    member_id, kind = page
    if not kind:
        return {
            member_mark(profile_paint.PART): await profile_paint.write_profile(request, member_id)
        }
    if kind != signup_page.PART and kind not in DESIGNS:
        return {}
    member = await listed_member(request, member_id)
    if member is None:
        return {}
    if kind == signup_page.PART:
        return {member_mark(signup_page.PART): signup_page.signup_html(member, request)}
    landing = landing_of(member, request, date.today())
    return {member_mark(PART): DESIGNS[kind](landing)}


MEMBER_PARTS = ServerParts(MEMBER, write_member)
