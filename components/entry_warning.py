"""The site-entry warning for logged-out visitors (spec section 2)."""

import reflex as rx

from components.gate_dialog import gate_dialog
from components.i18n import t
from state.i18n import I18nState
from state.session import SessionState
from state.shell import ENTRY_WARNING_LOCALES, ShellState

LEAVE_URL = "https://www.google.com"
# Asked by the page itself, not left to /shell.js: that script loads after the page mounts, so
# a page that asked for its mark first took the installed app for the web. The mark shows the
# back button (site.css).
INSTALLED_APP = """(() => {
  const installed = window.matchMedia("(display-mode: standalone)").matches
    || window.navigator.standalone === true;
  if (installed) document.documentElement.dataset.app = "installed";
  return installed;
})()"""


def entry_warning_shown(only_nl_de: bool) -> rx.Var[bool]:
    """Whether the layout's entry warning is up (the chat, lander and empty layouts: NL, DE)."""
    show = ShellState.show_entry_warning & ~SessionState.logged_in
    if only_nl_de:
        show = show & rx.Var.create(list(ENTRY_WARNING_LOCALES)).contains(I18nState.locale)
    return show


def entry_warning(only_nl_de: bool) -> rx.Component:
    show = entry_warning_shown(only_nl_de)
    report_app_mode = rx.el.span(
        hidden=True,
        on_mount=rx.call_script(INSTALLED_APP, callback=ShellState.set_in_app),
    )
    return rx.fragment(report_app_mode, _dialog(show))


def _dialog(show: rx.Var[bool]) -> rx.Component:
    return gate_dialog(
        t("Adults only"),
        t(
            "This website contains content for adults. By entering you confirm that "
            "you are at least 18 years old and accept our terms and conditions."
        ),
        rx.el.a(rx.button(t("Leave"), variant="soft", color_scheme="gray"), href=LEAVE_URL),
        rx.button(
            t("I am 18 or older"),
            on_click=ShellState.dismiss_entry_warning,
            data_testid="entry-warning-accept",
        ),
        open=show,
        testid="entry-warning",
    )
