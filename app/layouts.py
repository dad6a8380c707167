"""The page frames of spec section 2: default, chat, lander, empty; the staff console's; and the
error page."""

from collections.abc import Callable

import reflex as rx

from components.activation_reminder import activation_reminder
from components.entry_warning import entry_warning
from components.footer import disclaimer, footer, us_footer
from components.i18n import t
from components.like_modal import like_modal
from components.link_button import link_button
from components.live_status import live_status
from components.match_modal import match_modal
from components.navigation import top_navigation
from components.signup_modal import signup_modal
from components.staff_shell import staff_header
from components.terms_update import terms_update
from components.time_bonus import time_bonus_banner, time_bonus_modal, time_bonus_watch
from models.routes import Layout, Route, url
from state.i18n import I18nState, locale_known
from state.site_info import site_text
from translations.errors import BACK_TO_HOME, ERROR_DEFAULT_MESSAGE, PAGE_NOT_FOUND

NO_ACTIVATION_REMINDER = ("signup", "members-id-signup", "settings", "notifications")
# The purchase pages show the welcome discount themselves.
NO_TIME_BONUS = ("credits", "credits-id-paymentmethod", "credits-repeat-order", "transactions-id")


def _page_ready_marker() -> rx.Component:
    """Rendered once the server resolved the language and ran every on_load of the page (Reflex
    flips `is_hydrated` after the last of them); tests and the loading bar wait for it."""
    return rx.cond(
        I18nState.ready & rx.State.is_hydrated,
        rx.el.span(data_testid="page-ready", data_path=rx.State.router.url.path, hidden=True),
    )


def _until_ready(frame: rx.Component) -> rx.Component:
    """Show the frame only in the visitor's language: at once when the server's HTML named it
    (cookie or browser language), else once the server resolved it."""
    return rx.cond(
        locale_known(),
        rx.fragment(_page_ready_marker(), frame),
        rx.center(rx.spinner(size="3"), height="100vh", background="var(--page)"),
    )


def _time_bonus_watch(route: Route) -> rx.Component:
    """Entering the members area starts the welcome time bonus (spec section 4)."""
    return time_bonus_watch() if route.members_area else rx.fragment()


def _default(route: Route, content: rx.Component) -> rx.Component:
    time_bonus = route.name not in NO_TIME_BONUS
    return rx.fragment(
        top_navigation(show_back=route.back_button),
        rx.el.div(
            activation_reminder(route.name not in NO_ACTIVATION_REMINDER),
            time_bonus_banner() if time_bonus else rx.fragment(),
            id="banners",
            class_name="banner-area container",
        ),
        rx.el.main(content, class_name="page-main"),
        footer(),
        disclaimer(),
        us_footer(),
        entry_warning(only_nl_de=False),
        signup_modal(only_nl_de_warning=False),
        time_bonus_modal() if time_bonus else rx.fragment(),
        like_modal(),
        match_modal(),
        terms_update(),
        live_status(),
        _time_bonus_watch(route),
    )


def _chat(route: Route, content: rx.Component) -> rx.Component:
    """Bare: the navigation and a full-height chat, no footer."""
    return rx.fragment(
        top_navigation(show_back=False),
        rx.el.main(content, class_name="chat-frame"),
        terms_update(),
        live_status(),
        entry_warning(only_nl_de=True),
        _time_bonus_watch(route),
    )


def _lander(_route: Route, content: rx.Component) -> rx.Component:
    return rx.fragment(
        rx.el.header(
            rx.el.div(
                rx.link(
                    rx.image(src="/logo.svg", alt="", width="34px", height="34px"),
                    href=url("index"),
                    aria_label=site_text("name"),  # the logo alone names nothing
                ),
                class_name="container",
            ),
            class_name="lander-bar",
        ),
        rx.el.main(content, class_name="page-main"),
        footer(),
        disclaimer(),
        entry_warning(only_nl_de=True),
    )


def _empty(_route: Route, content: rx.Component) -> rx.Component:
    return rx.fragment(
        rx.el.main(content), entry_warning(only_nl_de=True), signup_modal(only_nl_de_warning=True)
    )


def _staff(route: Route, content: rx.Component) -> rx.Component:
    """The console's own header and nothing of the members' frame: no member navigation,
    banners, modals or footer."""
    return rx.fragment(staff_header(route.name), rx.el.main(content, class_name="page-main"))


_FRAMES: dict[Layout, Callable[[Route, rx.Component], rx.Component]] = {
    Layout.DEFAULT: _default,
    Layout.CHAT: _chat,
    Layout.LANDER: _lander,
    Layout.EMPTY: _empty,
    Layout.STAFF: _staff,
}


def with_layout(route: Route, content: rx.Component) -> rx.Component:
    return _until_ready(_FRAMES[route.layout](route, content))


def error_page(status: int = 500, message: str = ERROR_DEFAULT_MESSAGE) -> rx.Component:
    """The error screen; 404 says the page is missing and links home."""
    not_found = status == 404
    return rx.el.section(
        rx.el.div(str(status), class_name="error-code"),
        rx.heading(t(PAGE_NOT_FOUND if not_found else message), size="6", margin_y="12px"),
        link_button(t(BACK_TO_HOME), href=url("index"), size="3") if not_found else rx.fragment(),
        class_name="error-page",
        data_testid=f"error-{status}",
    )
