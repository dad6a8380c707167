"""Every cookie and browser-storage key the site sets, in one table (`STORED_ITEMS`): the cookie
policy lists it, and tests/e2e/test_cookie_table.py fails on any key a member's journey leaves
in the browser that the table lacks. Add a row here with every new cookie or storage key."""

from dataclasses import dataclass
from enum import StrEnum

from models.legal.document import (
    Bullets,
    LegalDocument,
    LegalSection,
    Paragraph,
    Table,
    Verbatim,
)
from translations.catalog import N_, Message
from translations.locales import LOCALE_COOKIE


class Storage(StrEnum):
    COOKIE = "cookie"
    LOCAL = "localStorage"
    SESSION = "sessionStorage"


STORAGE_NAMES: dict[Storage, Message] = {
    Storage.COOKIE: N_("Cookie"),
    Storage.LOCAL: N_("Local storage"),
    Storage.SESSION: N_("Session storage"),
}


@dataclass(frozen=True)
class StoredItem:
    name: str  # the cookie's or key's name; with `per_page`, the part before the page's address
    storage: Storage
    purpose: Message
    lifetime: Message
    per_page: bool = False  # one key per page address: name + location.pathname

    def covers(self, storage: Storage, key: str) -> bool:
        if storage != self.storage:
            return False
        return key.startswith(self.name) if self.per_page else key == self.name

    @property
    def shown_name(self) -> str:
        return f"{self.name}/…" if self.per_page else self.name


_DAYS_365 = N_("365 days")
_UNTIL_CLEARED = N_("Until you clear your browser's data")
_UNTIL_TAB_CLOSED = N_("Until you close the tab")
_SIGNUP_DRAFT = N_(
    "Keeps what you typed in the signup form when the page is reloaded (the password only until "
    "your account exists)."
)


def _signup_draft(field: str) -> StoredItem:
    return StoredItem(f"signup_{field}", Storage.SESSION, _SIGNUP_DRAFT, _UNTIL_TAB_CLOSED)


STORED_ITEMS: tuple[StoredItem, ...] = (
    StoredItem(
        "auth.session",  # actions/viewer.SESSION_COOKIE (a test checks the names agree)
        Storage.COOKIE,
        N_("Keeps you logged in. Scripts on the page cannot read it."),
        N_("30 days, or until you log out"),
    ),
    StoredItem(
        "auth.device",  # actions/viewer.DEVICE_COOKIE
        Storage.COOKIE,
        N_(
            "Recognises a browser that logged in to your account before, so that a lock after "
            "wrong passwords from a shared address does not shut you out."
        ),
        _DAYS_365,
    ),
    StoredItem(
        "traffic.click",  # services/click_cookie.CLICK_COOKIE
        Storage.COOKIE,
        N_(
            "Names our record of the partner's link that brought you here, so that your signup "
            "is credited to that partner. Signed by us; scripts on the page cannot read it."
        ),
        N_("30 days"),
    ),
    StoredItem(
        "lander.variant",  # models/lander_variants.VARIANT_COOKIE
        Storage.COOKIE,
        N_(
            "Remembers which version of a landing page you were shown, so that it looks the "
            "same when you come back. It holds nothing about you."
        ),
        N_("90 days"),
    ),
    StoredItem(
        LOCALE_COOKIE,
        Storage.COOKIE,
        N_("Remembers the language you chose."),
        _DAYS_365,
    ),
    StoredItem(
        "token",
        Storage.SESSION,
        N_("Connects this tab to its page on our server."),
        _UNTIL_TAB_CLOSED,
    ),
    StoredItem(
        "reflex_last_reloaded_on_error",
        Storage.SESSION,
        N_("The time of the last automatic reload after an error, so that it cannot repeat."),
        _UNTIL_TAB_CLOSED,
    ),
    StoredItem(
        "react-router-scroll-positions",
        Storage.SESSION,
        N_("Where you had scrolled to on the pages of this tab, so that Back returns you there."),
        _UNTIL_TAB_CLOSED,
    ),
    StoredItem(
        "theme",
        Storage.LOCAL,
        N_("The colour scheme the pages are shown in."),
        _UNTIL_CLEARED,
    ),
    StoredItem(
        "chunk-reload-at",
        Storage.LOCAL,
        N_("The time of the last reload after an update of the site, so that it cannot repeat."),
        _UNTIL_CLEARED,
    ),
    StoredItem(
        "entry_warning_dismissed",
        Storage.LOCAL,
        N_("When you confirmed the warning that the site is for adults only."),
        _UNTIL_CLEARED,
    ),
    StoredItem(
        "activation_reminder_dismissed",
        Storage.LOCAL,
        N_("When you closed the reminder to activate your account."),
        _UNTIL_CLEARED,
    ),
    StoredItem(
        "time_bonus_dismissed",
        Storage.LOCAL,
        N_("When you closed the offer for new members."),
        _UNTIL_CLEARED,
    ),
    *(
        _signup_draft(field)
        for field in ("email", "name", "password", "date_of_birth", "message", "gender", "seeking")
    ),
    StoredItem(
        "paymentCountry",
        Storage.SESSION,
        N_("The country you chose on the credits page, for its prices and payment methods."),
        _UNTIL_TAB_CLOSED,
    ),
    StoredItem(
        "chat-draft:",
        Storage.SESSION,
        N_("The message you are writing in a chat, so that a reload does not lose it."),
        _UNTIL_TAB_CLOSED,
        per_page=True,
    ),
    StoredItem(
        "chat-gift:",
        Storage.SESSION,
        N_("Makes sure a gift is sent only once, even when you tap twice."),
        _UNTIL_TAB_CLOSED,
        per_page=True,
    ),
)


def listed(storage: Storage, key: str) -> bool:
    """Whether the table names this cookie or storage key."""
    return any(item.covers(storage, key) for item in STORED_ITEMS)


_TABLE = Table(
    (N_("Cookie or key"), N_("Kind"), N_("Purpose"), N_("How long")),
    tuple(
        (Verbatim(item.shown_name), STORAGE_NAMES[item.storage], item.purpose, item.lifetime)
        for item in STORED_ITEMS
    ),
)

COOKIES = LegalDocument(
    "cookies",
    N_("Cookie policy"),
    (
        LegalSection(
            "what-we-store",
            N_("What we store in your browser"),
            (
                Paragraph(
                    N_(
                        "A cookie is a small file a website leaves in your browser. Local storage "
                        "and session storage are similar: local storage stays until you clear "
                        "it, session storage until you close the tab. {site} uses them only for "
                        "what the site itself needs: logging in, your language, remembering what "
                        "you closed, and keeping what you type from getting lost."
                    )
                ),
                Paragraph(
                    N_(
                        "{site} uses no advertising cookies, no analytics services and no cookies "
                        "of other companies. Nothing we store is read by another website."
                    )
                ),
            ),
        ),
        LegalSection("the-list", N_("Every cookie and storage key"), (_TABLE,)),
        LegalSection(
            "push",
            N_("Push notifications"),
            (
                Paragraph(
                    N_(
                        "If you turn on push notifications, your browser registers a small "
                        "script of ours (a service worker) and a subscription with its push "
                        "service. They stay until you turn notifications off on the "
                        "Notifications page or in your browser."
                    )
                ),
            ),
        ),
        LegalSection(
            "your-choices",
            N_("Deleting cookies"),
            (
                Paragraph(
                    N_(
                        "You can delete cookies and stored data at any time in your browser's "
                        "settings, for this site alone or for all sites:"
                    )
                ),
                Bullets(
                    (
                        N_("without the session cookie you are logged out;"),
                        N_("without the language cookie the site follows your browser's language;"),
                        N_("warnings and offers you closed may show again."),
                    )
                ),
                Paragraph(
                    N_(
                        "Questions about cookies: write to {support_email}. How we handle your "
                        "personal data is explained in our privacy statement."
                    )
                ),
            ),
        ),
    ),
)
