"""The console's tools and the roles that open each: one table for the pages' navigation, their
handlers' `@staff_event(...)` and the staff HTTP routes."""

from models.staff import Role

ANY_STAFF = (Role.MODERATOR, Role.SUPPORT, Role.ADMIN)
MODERATION = (Role.MODERATOR, Role.ADMIN)
ADMIN_ONLY = (Role.ADMIN,)
SUPPORT = (Role.SUPPORT, Role.ADMIN)
# Route name -> the roles that open it, in navigation order.
TOOLS: dict[str, tuple[Role, ...]] = {
    "staff": ANY_STAFF,
    "staff-reports": MODERATION,
    "staff-photos": MODERATION,
    "staff-appeals": MODERATION,
    "staff-transparency": MODERATION,
    "staff-support": SUPPORT,
    "staff-tickets": SUPPORT,
    "staff-payments": SUPPORT,
    "staff-postbacks": SUPPORT,
    "staff-landers": SUPPORT,
    "staff-settings": ADMIN_ONLY,
    "staff-discounts": ADMIN_ONLY,
    "staff-audit": ADMIN_ONLY,
}


def tools_for(roles: frozenset[Role]) -> list[str]:
    """The route names of the tools `roles` open, in navigation order."""
    return [name for name, allowed in TOOLS.items() if roles.intersection(allowed)]


TRANSPARENCY_CSV = "/api/staff/transparency.csv"  # app/staff_api.py, for the transparency page
EVIDENCE_PHOTO = "/api/staff/evidence/{report_id}"  # app/staff_api.py: a photo report's photo


def evidence_url(report_id: int) -> str:
    return EVIDENCE_PHOTO.format(report_id=report_id)
