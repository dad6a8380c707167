"""Builds the Reflex app: theme, head, every route of the table in its layout, HTTP routes."""

from collections.abc import Callable
from functools import partial

import reflex as rx

from app.http_api import http_api
from app.layouts import error_page, with_layout
from app.pages.account_pages import (
    account_deleted_page,
    activate_done_page,
    activate_error_page,
    mail_change_page,
)
from app.pages.chats import chats_page
from app.pages.landing import landing_page
from app.pages.likes import likes_page
from app.pages.login import login_page
from app.pages.members import members_page
from app.pages.notifications import notifications_page
from app.pages.password_reset import reset_do_page, reset_request_page
from app.pages.profile import profile_page
from app.pages.settings import settings_page
from app.pages.signup import signup_page
from app.pages.static_pages import static_page, token_page
from app.pages.titled import titled_page
from app.routes import ROUTES, STATIC_PAGES, Layout, Route
from components.i18n import t
from components.signup_modal import complete_signup_page
from services.account_purge import purge_periodically
from services.logs import show_our_logs
from state.account_settings import AccountSettingsState
from state.activation import ActivationState
from state.chats import ChatsState
from state.likes import LikeModalState, LikesState
from state.login import LoginState
from state.members import MembersState
from state.notifications import NotificationsState
from state.password_reset import ResetPasswordState, ResetRequestState
from state.photo_manager import PhotoManagerState
from state.profile_settings import ProfileSettingsState
from state.profile_view import ProfileViewState
from state.search import SearchState
from state.shell import ShellState
from state.signup import SignupState

_SCREENS: dict[str, Callable[[], rx.Component]] = {
    "index": landing_page,
    "members": members_page,
    "members-id": profile_page,
    "likes": likes_page,
    "chats": chats_page,
    "chats-id": chats_page,
    "members-id-chat": chats_page,
    "likes-type": likes_page,
    "likes-m-id": profile_page,
    "profile": profile_page,
    "token": token_page,
    "login": login_page,
    "reset-password": reset_request_page,
    "reset-password-do": reset_do_page,
    "settings": settings_page,
    "notifications": notifications_page,
    "signup": signup_page,
    "account-deleted": account_deleted_page,
    "activate-done": activate_done_page,
    "activate-error": activate_error_page,
    "mail-change-do": mail_change_page,
    "complete-signup": complete_signup_page,
    **{f"pages-{slug}": partial(static_page, slug) for slug in STATIC_PAGES},
}
_EXTRA_LOAD_EVENTS = {
    "index": [MembersState.load_newest],
    "members": [SearchState.load_search, LikeModalState.check],
    "members-id": [ProfileViewState.load_profile, LikeModalState.check],
    "likes-m-id": [ProfileViewState.load_profile, LikeModalState.check],
    "likes": [LikesState.load_page, LikeModalState.check],
    "likes-type": [LikesState.load_page, LikeModalState.check],
    "premium": [LikeModalState.check],
    "chats": [ChatsState.open_page],
    "chats-id": [ChatsState.open_page],
    "members-id-chat": [ChatsState.open_page],
    "profile": [ProfileViewState.load_profile],
    "activate-done": [MembersState.load_newest],
    "login": [LoginState.reset_form],
    "reset-password": [ResetRequestState.reset_form],
    "reset-password-do": [ResetPasswordState.check_link],
    "settings": [
        AccountSettingsState.reset_form,
        ProfileSettingsState.load,
        PhotoManagerState.load,
    ],
    "notifications": [NotificationsState.load],
    "mail-change-do": [ActivationState.confirm_mail_change],
    "signup": [SignupState.open_signup],
    "members-id-signup": [SignupState.open_for_member],
    "complete-signup": [SignupState.resume],
}

HEAD = [
    rx.el.link(rel="manifest", href="/manifest.webmanifest"),
    rx.el.link(rel="icon", href="/favicon.ico", sizes="any"),
    rx.el.link(rel="apple-touch-icon", href="/apple-touch-icon.png"),
    rx.el.meta(name="theme-color", content="#2a1248"),
    rx.el.meta(name="mobile-web-app-capable", content="yes"),
    rx.script(src="/shell.js"),
]


def _screen(route: Route) -> rx.Component:
    build = _SCREENS.get(route.name)
    return with_layout(route, build() if build else titled_page(route))


def _add_route(app: rx.App, route: Route) -> None:
    app.add_page(
        lambda: _screen(route),
        route=route.path,
        title=t(route.title),
        on_load=[
            ShellState.on_page_load(route.login_required),
            SignupState.capture_traffic_source,
            *_EXTRA_LOAD_EVENTS.get(route.name, []),
        ],
        image="/icon-512.png",
    )


show_our_logs()
app = rx.App(
    stylesheets=["/site.css"],
    head_components=HEAD,
    api_transformer=http_api(),
)
app.register_lifespan_task(purge_periodically)
for _route in ROUTES:
    _add_route(app, _route)
app.add_page(
    lambda: with_layout(Route("404", "/404", "Page not found", Layout.DEFAULT), error_page(404)),
    route="404",
    title=t("Page not found"),
    on_load=ShellState.on_page_load,
)
