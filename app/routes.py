"""The route table (spec section 2): every path, its name, layout and members-area flag."""

from dataclasses import dataclass
from enum import StrEnum


class Layout(StrEnum):
    DEFAULT = "default"
    CHAT = "chat"
    LANDER = "lander"
    EMPTY = "empty"


@dataclass(frozen=True)
class Route:
    name: str
    path: str  # Reflex syntax: [id] a segment, [[...slug]] an optional tail
    title: str  # English msgid, translated at render time
    layout: Layout = Layout.DEFAULT
    members_area: bool = False
    back_button: bool = False  # shown only inside the installed app
    example: str = ""  # a concrete URL for tests and links; defaults to path

    @property
    def sample(self) -> str:
        return self.example or self.path


LANDER_NAMES = (
    "alonetonight", "collagelanding", "gallery", "iconslanding",
    "maplanding", "socialnetwork", "transitionsvideolanding", "video",
)  # fmt: skip
STATIC_PAGES = ("ban", "cookies", "faq", "privacy", "return-policy", "service", "terms")

_STATIC_TITLES = {
    "ban": "Banned account",
    "cookies": "Cookie policy",
    "faq": "Frequently asked questions",
    "privacy": "Privacy statement",
    "return-policy": "Return policy",
    "service": "Customer service",
    "terms": "Terms and conditions",
}

ROUTES: tuple[Route, ...] = (
    Route("index", "/", "Dating and chat for adults"),
    Route("likes", "/likes", "Likes", members_area=True, back_button=True),
    Route("likes-type", "/likes/[type]", "Likes", back_button=True, example="/likes/received"),
    Route("likes-m-id", "/likes/m/[id]", "Profile", members_area=True, back_button=True,
          example="/likes/m/1"),
    Route("members", "/members", "Search members", members_area=True),
    Route("members-id", "/members/[id]", "Profile", members_area=True, back_button=True,
          example="/members/1"),
    Route("members-id-chat", "/members/[id]/chat", "Chat", Layout.CHAT, example="/members/1/chat"),
    Route("members-id-landing", "/members/[id]/landing", "Meet me", Layout.LANDER,
          example="/members/1/landing"),
    Route("members-id-signup", "/members/[id]/signup", "Sign up", Layout.EMPTY,
          example="/members/1/signup"),
    Route("members-id-landing2", "/members/[id]/landing2/[[...slug]]", "Meet me", Layout.LANDER,
          example="/members/1/landing2/hello"),
    Route("members-id-landing3", "/members/[id]/landing3/[[...slug]]", "Meet me", Layout.LANDER,
          example="/members/1/landing3"),
    Route("chats", "/chats", "Messages", Layout.CHAT, members_area=True),
    Route("chats-id", "/chats/[id]", "Messages", Layout.CHAT, example="/chats/1"),
    Route("account-deleted", "/account-deleted", "Account deleted"),
    Route("complaints", "/complaints", "Complaints"),
    Route("complete-signup", "/complete-signup", "Complete your signup"),
    Route("credits", "/credits", "Buy credits", back_button=True),
    Route("credits-id-paymentmethod", "/credits/[id]/[[...paymentmethod]]", "Payment",
          back_button=True, example="/credits/1/ideal"),
    Route("credits-repeat-order", "/credits/repeat-order", "Repeat order", back_button=True),
    Route("directdebit", "/directdebit", "Direct debit", back_button=True),
    Route("lang-config", "/lang-config", "Language"),
    Route("login", "/login", "Log in"),
    Route("match-finder", "/match-finder", "Matchfinder"),
    Route("notifications", "/notifications", "Notifications"),
    Route("premium", "/premium", "Premium", members_area=True),
    Route("pricing", "/pricing", "Pricing"),
    Route("profile", "/profile", "My profile", back_button=True),
    Route("reset-password", "/reset-password", "Reset password"),
    Route("reset-password-do", "/reset-password/do", "Choose a new password"),
    Route("signup", "/signup", "Sign up"),
    Route("signup-matches", "/signup-matches", "Your matches"),
    Route("swipe-game", "/swipe-game", "Swipe game"),
    Route("transactions-id", "/transactions/[[...id]]", "Payment status", back_button=True,
          example="/transactions/1"),
    Route("activate-done", "/activate/done", "Account activated"),
    Route("activate-error", "/activate/error", "Activation failed"),
    Route("mail-change-do", "/mail-change/do", "Confirm e-mail address"),
    Route("landers-tinderswipe", "/landers/tinderswipe", "Swipe and meet", Layout.LANDER),
    *(
        Route(f"landers-{name}", f"/landers/{name}/[[...slug]]", "Meet singles near you",
              Layout.LANDER, example=f"/landers/{name}")
        for name in LANDER_NAMES
    ),
    Route("token", "/[token]", "Information", example="/terms"),
    *(
        Route(f"pages-{slug}", f"/pages/{slug}", _STATIC_TITLES[slug])
        for slug in STATIC_PAGES
    ),
)  # fmt: skip

ROUTES_BY_NAME = {route.name: route for route in ROUTES}


def static_page_title(slug: str) -> str | None:
    return _STATIC_TITLES.get(slug)


def member_url(member_id: int) -> str:
    return f"/members/{member_id}"


def chat_url(member_id: int) -> str:
    return f"/members/{member_id}/chat"


def static_page_url(slug: str) -> str:
    return f"/pages/{slug}"
