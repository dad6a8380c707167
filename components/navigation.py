"""The top navigation in its logged-in and logged-out variants (spec section 2)."""

import reflex as rx

from components.i18n import locale_code, number, t
from components.link_button import link_button
from models.routes import url
from state.i18n import I18nState
from state.session import SessionState
from state.site_info import site_text
from translations.catalog import N_
from translations.locales import LANGUAGE_NAMES, LOCALES

LOGOUT_URL = "/api/logout.php"


def _badge(text: rx.Var[str]) -> rx.Component:
    return rx.cond(text != "", rx.el.span(text, class_name="nav-badge", data_testid="badge"))


def _nav_link(
    href: str, icon: str, label: str, badge: rx.Component | None = None, **props
) -> rx.Component:
    return rx.link(
        rx.icon(icon, size=20),
        rx.el.span(t(label), class_name="nav-link-label"),
        badge or rx.fragment(),
        href=href,
        class_name="nav-link " + props.pop("extra_class", ""),
        aria_label=t(label),
        underline="none",
        **props,
    )


def language_menu() -> rx.Component:
    return rx.dropdown_menu.root(
        rx.dropdown_menu.trigger(
            rx.button(
                rx.icon("globe", size=18),
                rx.el.span(locale_code()),
                variant="ghost",
                class_name="nav-button",
                aria_label=t("Language"),
                data_testid="language-menu",
            )
        ),
        rx.dropdown_menu.content(
            *(
                rx.dropdown_menu.item(
                    LANGUAGE_NAMES[code],
                    on_select=I18nState.switch(code),
                    data_testid=f"language-{code}",
                    lang=code,
                )
                for code in LOCALES
            ),
        ),
    )


def account_menu() -> rx.Component:
    return rx.dropdown_menu.root(
        rx.dropdown_menu.trigger(
            rx.button(
                rx.icon("circle-user-round", size=22),
                variant="ghost",
                class_name="nav-button",
                aria_label=t("Account"),
                data_testid="account-menu",
            )
        ),
        rx.dropdown_menu.content(
            rx.box(SessionState.name, padding="6px 12px", font_weight="700"),
            rx.dropdown_menu.item(rx.link(t("My profile"), href=url("profile"), underline="none")),
            rx.dropdown_menu.item(rx.link(t("Settings"), href=url("settings"), underline="none")),
            rx.dropdown_menu.item(
                rx.link(t("Swipe game"), href=url("swipe-game"), underline="none")
            ),
            rx.dropdown_menu.item(
                rx.link(t("Matchfinder"), href=url("match-finder"), underline="none")
            ),
            rx.dropdown_menu.separator(),
            rx.dropdown_menu.item(
                # shell.js turns the click into a same-origin POST (a GET cannot log out).
                rx.el.a(
                    t("Logout"),
                    href=LOGOUT_URL,
                    data_logout="post",
                    data_testid="logout",
                    reload_document=True,
                ),
                color="red",
            ),
        ),
    )


def _member_links() -> rx.Component:
    return rx.fragment(
        _nav_link(url("members"), "search", N_("Search members")),
        _nav_link(
            url("chats"), "message-circle", N_("Messages"), _badge(SessionState.unread_badge)
        ),
        _nav_link(url("likes"), "heart", N_("Likes"), _badge(SessionState.likes_badge)),
        rx.cond(
            SessionState.paid_user,
            _nav_link(
                url("credits"),
                "coins",
                N_("Credits"),
                rx.cond(
                    SessionState.show_credits_badge,
                    rx.el.span(
                        number(SessionState.credits),
                        class_name=rx.cond(
                            SessionState.credits_badge_color == "red",
                            "nav-badge danger",
                            "nav-badge warning",
                        ),
                        data_testid="credits-badge",
                    ),
                ),
            ),
            _nav_link(url("premium"), "crown", N_("Get Premium"), extra_class="premium-link"),
        ),
    )


def back_button() -> rx.Component:
    return rx.button(
        rx.icon("chevron-left", size=22),
        on_click=rx.call_script("window.history.back()"),
        variant="ghost",
        class_name="nav-button back-button",
        aria_label=t("Back"),
    )


def top_navigation(show_back: bool) -> rx.Component:
    return rx.el.header(
        rx.el.nav(
            back_button() if show_back else rx.fragment(),
            rx.link(
                rx.image(src="/logo.svg", alt=""),
                rx.el.span(site_text("name"), class_name="brand-name"),
                href=rx.cond(SessionState.logged_in, url("members"), url("index")),
                class_name="brand",
                underline="none",
            ),
            rx.el.div(class_name="nav-spacer"),
            rx.cond(SessionState.logged_in, _member_links()),
            language_menu(),
            rx.cond(
                SessionState.logged_in,
                account_menu(),
                rx.cond(  # painted before the server said who this is: no "Log in" for a member
                    I18nState.ready,
                    link_button(
                        t("Log in"), href=url("login"), size="2", data_testid="login-button"
                    ),
                ),
            ),
            class_name="container topnav-inner",
        ),
        class_name="topnav",
    )
