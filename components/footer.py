"""Footer (different for members and visitors), the age/fictional disclaimer and the US footer."""

import reflex as rx

from components.i18n import local_date, t
from models.routes import static_page_url, url
from state.i18n import shown_locale
from state.session import SessionState
from state.shell import ShellState
from state.site_info import site_text
from translations.catalog import N_

_LEGAL_LINKS = (
    (N_("Terms and conditions"), static_page_url("terms")),
    (N_("Privacy statement"), static_page_url("privacy")),
    (N_("Cookie policy"), static_page_url("cookies")),
    (N_("Banned account"), static_page_url("ban")),
    (N_("Pricing"), url("pricing")),
    (N_("Complaints"), url("complaints")),
    (N_("Right of withdrawal"), static_page_url("return-policy")),
    (N_("FAQ"), static_page_url("faq")),
    (N_("Customer service"), static_page_url("service")),
)
_MEMBER_LINKS = ((N_("My profile"), url("profile")), (N_("Buy credits"), url("credits")))
_VISITOR_LINKS = ((N_("Sign up"), url("signup")), (N_("Log in"), url("login")))


def _links(links: tuple[tuple[str, str], ...]) -> list[rx.Component]:
    return [rx.el.a(t(label), href=href) for label, href in links]


def contact_link(field: str) -> rx.Component:
    """The site's support e-mail address or phone number, as a link that writes or calls."""
    scheme = {"email": "mailto:", "phone": "tel:"}[field]
    return rx.el.a(site_text(field), href=scheme + site_text(field))


def footer() -> rx.Component:
    return rx.el.footer(
        rx.el.div(
            rx.el.nav(
                rx.cond(
                    SessionState.logged_in,
                    rx.fragment(*_links(_MEMBER_LINKS)),
                    rx.fragment(*_links(_VISITOR_LINKS)),
                ),
                *_links(_LEGAL_LINKS),
                class_name="footer-links",
                aria_label=t("Footer"),
            ),
            rx.el.div(
                rx.el.div(
                    "© ",
                    site_text("company"),
                    " · ",
                    site_text("address"),
                    ", ",
                    site_text("city"),
                ),
                rx.el.div(
                    t("Chamber of Commerce"),
                    " ",
                    site_text("kvk"),
                    " · ",
                    contact_link("email"),
                    " · ",
                    contact_link("phone"),
                ),
                rx.cond(  # the date arrives with the shell's state, after the first paint
                    ShellState.terms_date != "",
                    rx.el.div(t("Terms version"), " ", local_date(ShellState.terms_date)),
                ),
                class_name="footer-company",
            ),
            class_name="container",
        ),
        class_name="footer",
        data_testid=rx.cond(SessionState.logged_in, "footer-member", "footer-visitor"),
    )


def disclaimer() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.span(t("You must be 18 or older to use {site}.", site=site_text("name"))),
            rx.cond(
                ShellState.fictional_warning,
                rx.el.span(
                    " ",
                    t(
                        "This site also has {fictional}: they are marked with an icon and you "
                        "cannot meet them in person.",
                        fictional=ShellState.fictional_plural[shown_locale()],
                    ),
                ),
            ),
            class_name="container",
        ),
        class_name="disclaimer",
        data_testid="disclaimer",
    )


def us_footer() -> rx.Component:
    """Shown with the English interface (by the page's lang: the prerendered page has no
    locale): the US privacy variant and the opt-out link."""
    return rx.el.div(
        rx.el.div(
            rx.el.a(t("US privacy notice"), href=static_page_url("privacy") + "?region=us"),
            " · ",
            rx.el.a(
                t("Do not sell or share my personal information"),
                href=static_page_url("privacy") + "?region=us#opt-out",
            ),
            class_name="container",
        ),
        class_name="us-footer english-only",
        data_testid="us-footer",
    )
