"""The route table (spec section 2): every path, its name, layout and members-area flag, and
the URL builders every layer uses instead of path literals. A leaf: it imports only texts."""

from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlencode, urlsplit

from translations.catalog import N_


class Layout(StrEnum):
    DEFAULT = "default"
    CHAT = "chat"
    LANDER = "lander"
    EMPTY = "empty"
    STAFF = "staff"  # the console's own frame: no members' navigation, banners or modals


@dataclass(frozen=True)
class Route:
    name: str
    path: str  # Reflex syntax: [id] a segment, [[...splat]] an optional tail (slug?, id?, method?)
    title: str  # English msgid, translated at render time
    layout: Layout = Layout.DEFAULT
    members_area: bool = False
    back_button: bool = False  # shown only inside the installed app
    login_required: bool = False  # visitors get the log-in prompt first
    example: str = ""  # a concrete URL for tests and links; defaults to path
    staff: bool = False  # the staff console: every handler checks the role (state/staff_guard)

    @property
    def sample(self) -> str:
        return self.example or self.path


def _staff_route(name: str, path: str, title: str, example: str = "") -> Route:
    """A console page: in the staff frame, every handler behind it checking the role."""
    return Route(name, path, title, Layout.STAFF, example=example, staff=True)


LANDER_NAMES = (
    "alonetonight", "collagelanding", "gallery", "iconslanding",
    "maplanding", "socialnetwork", "transitionsvideolanding", "video",
)  # fmt: skip
STATIC_PAGES = ("ban", "cookies", "faq", "privacy", "return-policy", "service", "terms")

_STATIC_TITLES = {
    "ban": N_("Banned account"),
    "cookies": N_("Cookie policy"),
    "faq": N_("Frequently asked questions"),
    "privacy": N_("Privacy statement"),
    "return-policy": N_("Right of withdrawal"),
    "service": N_("Customer service"),
    "terms": N_("Terms and conditions"),
}

ROUTES: tuple[Route, ...] = (
    Route("index", "/", N_("Dating and chat for adults")),
    Route("likes", "/likes", N_("Likes"), members_area=True, back_button=True, login_required=True),
    Route(
        "likes-type",
        "/likes/[type]",
        N_("Likes"),
        back_button=True,
        example="/likes/received",
        login_required=True,
    ),
    Route(
        "likes-m-id",
        "/likes/m/[id]",
        N_("Profile"),
        members_area=True,
        back_button=True,
        example="/likes/m/1",
        login_required=True,
    ),
    Route("members", "/members", N_("Search members"), members_area=True),
    Route(
        "members-id",
        "/members/[id]",
        N_("Profile"),
        members_area=True,
        back_button=True,
        example="/members/1",
    ),
    Route(
        "members-id-chat",
        "/members/[id]/chat",
        N_("Chat"),
        Layout.CHAT,
        example="/members/1/chat",
        login_required=True,
    ),
    Route(
        "members-id-landing",
        "/members/[id]/landing",
        N_("Meet me"),
        Layout.LANDER,
        example="/members/1/landing",
    ),
    Route(
        "members-id-signup",
        "/members/[id]/signup",
        N_("Sign up"),
        Layout.EMPTY,
        example="/members/1/signup",
    ),
    Route(
        "members-id-landing2",
        "/members/[id]/landing2/[[...splat]]",
        N_("Meet me"),
        Layout.LANDER,
        example="/members/1/landing2/hello",
    ),
    Route(
        "members-id-landing3",
        "/members/[id]/landing3/[[...splat]]",
        N_("Meet me"),
        Layout.LANDER,
        example="/members/1/landing3",
    ),
    Route("chats", "/chats", N_("Messages"), Layout.CHAT, members_area=True, login_required=True),
    Route(
        "chats-id",
        "/chats/[id]",
        N_("Messages"),
        Layout.CHAT,
        example="/chats/1",
        login_required=True,
    ),
    Route("account-deleted", "/account-deleted", N_("Account deleted")),
    Route("complaints", "/complaints", N_("Complaints")),
    Route("complete-signup", "/complete-signup", N_("Complete your signup"), login_required=True),
    Route("credits", "/credits", N_("Buy credits"), back_button=True, login_required=True),
    Route(
        "credits-id-paymentmethod",
        "/credits/[id]/[[...splat]]",
        N_("Payment"),
        back_button=True,
        example="/credits/1/ideal",
        login_required=True,
    ),
    Route(
        "credits-repeat-order",
        "/credits/repeat-order",
        N_("Repeat order"),
        back_button=True,
        login_required=True,
    ),
    Route("directdebit", "/directdebit", N_("Direct debit"), back_button=True, login_required=True),
    Route("lang-config", "/lang-config", N_("Language")),
    Route("login", "/login", N_("Log in")),
    Route("match-finder", "/match-finder", N_("Matchfinder"), login_required=True),
    Route("notifications", "/notifications", N_("Notifications"), login_required=True),
    Route("premium", "/premium", N_("Premium"), members_area=True, login_required=True),
    Route("pricing", "/pricing", N_("Pricing")),
    Route("profile", "/profile", N_("My profile"), back_button=True, login_required=True),
    Route("reset-password", "/reset-password", N_("Reset password")),
    Route("settings", "/settings", N_("Settings"), login_required=True),
    Route("reset-password-do", "/reset-password/do", N_("Choose a new password")),
    Route("signup", "/signup", N_("Sign up")),
    Route("signup-matches", "/signup-matches", N_("Your matches"), login_required=True),
    Route("swipe-game", "/swipe-game", N_("Swipe game"), login_required=True),
    Route(
        "transactions", "/transactions", N_("Your purchases"), back_button=True, login_required=True
    ),
    Route(
        "transactions-id",
        "/transactions/[id]",
        N_("Payment status"),
        back_button=True,
        example="/transactions/1",
        login_required=True,
    ),
    Route("activate-done", "/activate/done", N_("Account activated")),
    Route("activate-error", "/activate/error", N_("Activation failed")),
    Route("mail-change-do", "/mail-change/do", N_("Confirm e-mail address")),
    Route("unsubscribe", "/unsubscribe", N_("Unsubscribe")),
    Route("landers-tinderswipe", "/landers/tinderswipe", N_("Swipe and meet"), Layout.LANDER),
    *(
        Route(
            f"landers-{name}",
            f"/landers/{name}/[[...splat]]",
            N_("Meet singles near you"),
            Layout.LANDER,
            example=f"/landers/{name}",
        )
        for name in LANDER_NAMES
    ),
    Route("appeal", "/appeal/[token]", N_("Contest a decision"), example="/appeal/x"),
    _staff_route("staff", "/staff", N_("Staff console")),
    _staff_route("staff-verify", "/staff/verify", N_("Staff sign-in")),
    _staff_route("staff-enrol", "/staff/enrol", N_("Set up two-step sign-in")),
    _staff_route("staff-reports", "/staff/reports", N_("Reports and notices")),
    _staff_route("staff-reports-id", "/staff/reports/[id]", N_("Report"), "/staff/reports/1"),
    _staff_route("staff-photos", "/staff/photos", N_("Photo review")),
    _staff_route("staff-appeals", "/staff/appeals", N_("Appeals")),
    _staff_route("staff-appeals-id", "/staff/appeals/[id]", N_("Appeal"), "/staff/appeals/1"),
    _staff_route(
        "staff-members-id", "/staff/members/[id]", N_("Member history"), "/staff/members/1"
    ),
    _staff_route("staff-transparency", "/staff/transparency", N_("Transparency report")),
    _staff_route("staff-audit", "/staff/audit", N_("Audit log")),
    _staff_route("staff-settings", "/staff/settings", N_("Site settings")),
    _staff_route("staff-discounts", "/staff/discounts", N_("Discount codes")),
    _staff_route("staff-support", "/staff/support", N_("Find a member")),
    _staff_route(
        "staff-support-member",
        "/staff/support/members/[id]",
        N_("Member account"),
        "/staff/support/members/1",
    ),
    _staff_route("staff-tickets", "/staff/tickets", N_("Customer service")),
    _staff_route("staff-payments", "/staff/payments", N_("Payments queue")),
    _staff_route("staff-postbacks", "/staff/postbacks", N_("Postbacks")),
    _staff_route("staff-landers", "/staff/landers", N_("Landers and variants")),
    _staff_route("staff-tickets-id", "/staff/tickets/[id]", N_("Ticket"), "/staff/tickets/1"),
    Route("token", "/[token]", N_("Information"), example="/terms"),
    *(Route(f"pages-{slug}", f"/pages/{slug}", _STATIC_TITLES[slug]) for slug in STATIC_PAGES),
)


_BY_NAME = {route.name: route for route in ROUTES}


def route_named(name: str) -> Route:
    """The route of that name; an unknown name fails where the page or link is built."""
    return _BY_NAME[name]


def url(name: str, **query: str | int) -> str:
    """The path of a route without dynamic segments, with an optional query string."""
    path = route_named(name).path
    if "[" in path:
        raise ValueError(f"route {name!r} has segments to fill: use its own builder")
    return path + (f"?{urlencode(query)}" if query else "")


def _filled(name: str, segment: str, value: object) -> str:
    # format() keeps a Reflex Var usable: it becomes part of the link's expression in the browser
    return route_named(name).path.replace(f"[{segment}]", format(value))


def member_url(member_id: object) -> str:
    return _filled("members-id", "id", member_id)


def member_chat_url(member_id: object, gift: bool = False) -> str:
    return _filled("members-id-chat", "id", member_id) + ("?gift=1" if gift else "")


def member_signup_url(member_id: object) -> str:
    return _filled("members-id-signup", "id", member_id)


def lander_url(kind: str, slug: str = "") -> str:
    """`/landers/gallery/milf-amsterdam` for ("gallery", "milf-amsterdam"), `/landers/gallery`
    without a slug."""
    return _filled(f"landers-{kind}", "[...splat]", slug).removesuffix("/")


def liked_member_url(member_id: object) -> str:
    """A profile opened from the likes screens (the same screen as member_url)."""
    return _filled("likes-m-id", "id", member_id)


RECEIVED, GIVEN, MATCHES = "received", "given", "matches"  # the likes screens (likes_url)


def likes_url(kind: str) -> str:
    return _filled("likes-type", "type", kind)


def chat_url(conversation_id: object) -> str:
    return _filled("chats-id", "id", conversation_id)


def transaction_url(order_id: object) -> str:
    """A payment's result page."""
    return _filled("transactions-id", "id", order_id)


def credits_method_url(tier: object, method: object = "") -> str:
    """The method choice for bundle `tier`, the method preselected when given."""
    path = _filled("credits-id-paymentmethod", "id", tier)
    return path.replace("[[...splat]]", format(method)).rstrip("/")


def appeal_url(token: object) -> str:
    """A statement of reasons and its appeal form (the token names decision and party)."""
    return _filled("appeal", "token", token)


def static_page_title(slug: str) -> str:
    return _STATIC_TITLES[slug]


def static_page_url(slug: str) -> str:
    return url(f"pages-{slug}")


def login_url(back: str) -> str:
    """The log-in prompt that leads back to `back` (path and query of a URL) afterwards."""
    parts = urlsplit(str(back))
    return url("login", next=parts.path + (f"?{parts.query}" if parts.query else ""))
