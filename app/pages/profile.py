"""Profile screens: /members/{id}, /likes/m/{id} and the member's own /profile."""

import reflex as rx

from app.pages.registry import page
from components.confirm_dialog import confirm_content
from components.i18n import region_name, t, t_choice
from components.link_button import link_button
from components.member_card import country_name
from components.member_landings.profile_paint import profile_first_paint
from components.photo_gallery import photo_gallery
from components.report_dialog import complaint_link, report_dialog
from models.attribute_labels import every_label
from models.moderation import ContentType
from models.routes import member_signup_url, url
from state.likes import NEWS_CHECKS
from state.profile_view import (
    LOGIN_TO_CHAT,
    LOGIN_TO_GIFT,
    LOGIN_TO_LIKE,
    LOGIN_TO_SEE_PHOTOS,
    LOGIN_TO_SEE_PROFILE,
)
from state.profile_view import ProfileViewState as S
from state.report import ReportState
from translations.catalog import N_

_LABELS = every_label()


def _label(msgid: rx.Var[str]) -> rx.Var[str]:
    return t_choice(_LABELS, msgid)


def _place() -> rx.Component:
    region = region_name(S.region)
    return rx.el.p(
        rx.icon("map-pin", size=15, flex_shrink="0"),
        rx.el.span(  # one text, so that a long place wraps as words do
            rx.cond(S.city != "", S.city + ", ", ""),
            rx.cond(  # "Lublin, Lublin": a region named as its city is said once
                (region != "") & (region.lower() != S.city.lower()),
                region + ", ",
                "",
            ),
            country_name(S.country),
        ),
        class_name="profile-place",
    )


def _action(icon: str, label: rx.Var[str], on_click, testid: str, **props) -> rx.Component:
    return rx.button(
        rx.icon(icon, size=18), label, on_click=on_click, size="3", data_testid=testid, **props
    )


def _actions() -> rx.Component:
    return rx.flex(
        _action(
            "heart",
            rx.cond(S.liked, t("Liked"), t("Like")),
            S.toggle_like,
            "like-button",
            variant=rx.cond(S.liked, "solid", "outline"),
            data_liked=S.liked,
        ),
        _action("message-circle", t("Message"), S.open_chat(False), "message-button"),
        _action("gift", t("Gift"), S.open_chat(True), "gift-button", variant="soft"),
        _more_menu(),
        spacing="2",
        wrap="wrap",
        class_name="profile-actions",
    )


def _more_menu() -> rx.Component:
    return rx.dropdown_menu.root(
        rx.dropdown_menu.trigger(
            rx.button(
                rx.icon("ellipsis", size=18),
                variant="soft",
                color_scheme="gray",
                size="3",
                aria_label=t("More"),
                data_testid="profile-more",
            )
        ),
        rx.dropdown_menu.content(
            rx.dropdown_menu.item(
                rx.icon("ban", size=15),
                t("Block {name}", name=S.name),
                color="red",
                on_select=S.ask_block(True),
                data_testid="block-button",
            ),
            rx.dropdown_menu.item(
                rx.icon("flag", size=15),
                t("Report {name}", name=S.name),
                on_select=ReportState.open_report(ContentType.PROFILE, S.member_id),
                data_testid="report-profile",
            ),
        ),
    )


def _blocked_notice() -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.icon("ban")),
        rx.callout.text(
            t("You blocked {name}. They cannot see your profile or contact you.", name=S.name)
        ),
        rx.button(
            t("Unblock"),
            on_click=S.set_blocked(False),
            variant="soft",
            size="2",
            data_testid="unblock-button",
        ),
        color="gray",
        data_testid="blocked-notice",
    )


def _block_dialog() -> rx.Component:
    return rx.alert_dialog.root(
        confirm_content(
            t("Block {name}?", name=S.name),
            t(
                "{name} will no longer see your profile and cannot contact you. "
                "You can unblock them later.",
                name=S.name,
            ),
            N_("Block"),
            S.set_blocked(True),
            "block-confirm",
        ),
        open=S.confirm_block,
        on_open_change=S.ask_block,
    )


def _prompt_text() -> rx.Component:
    return rx.match(
        S.login_prompt,
        (LOGIN_TO_CHAT, t(LOGIN_TO_CHAT, name=S.name)),
        (LOGIN_TO_GIFT, t(LOGIN_TO_GIFT, name=S.name)),
        (LOGIN_TO_SEE_PHOTOS, t(LOGIN_TO_SEE_PHOTOS, name=S.name)),
        (LOGIN_TO_SEE_PROFILE, t(LOGIN_TO_SEE_PROFILE, name=S.name)),
        t(LOGIN_TO_LIKE, name=S.name),
    )


def _prompt_buttons() -> rx.Component:
    return rx.flex(
        link_button(
            t("Sign up free"),
            href=member_signup_url(S.member_id),
            size="3",
            data_testid="prompt-signup",
        ),
        rx.button(t("Log in"), variant="soft", size="3", on_click=S.go_to_login),
        spacing="3",
        wrap="wrap",
        margin_top="16px",
    )


def _login_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(t("Members only")),
            rx.dialog.description(_prompt_text()),
            _prompt_buttons(),
            max_width="420px",
            data_testid="login-prompt",
        ),
        open=(S.login_prompt != "") & (S.status == "visible"),
        on_open_change=S.close_login_prompt,
    )


def _section(title: rx.Var[str], *children: rx.Component) -> rx.Component:
    return rx.el.section(rx.heading(title, size="4"), *children, class_name="card profile-section")


def _detail_row(pair: rx.Var[list[str]]) -> rx.Component:
    return rx.el.div(
        rx.el.dt(_label(pair[0])), rx.el.dd(_label(pair[1])), class_name="profile-detail"
    )


def _details() -> rx.Component:
    return rx.fragment(
        rx.cond(
            S.about_me != "",
            _section(t("About me"), rx.el.p(S.about_me, class_name="profile-about")),
        ),
        rx.cond(
            S.details.length() > 0,
            _section(
                t("Details"),
                rx.el.dl(rx.foreach(S.details, _detail_row), class_name="profile-details"),
            ),
        ),
        rx.cond(
            S.interest_labels.length() > 0,
            _section(
                t("Interests"),
                rx.flex(
                    rx.foreach(S.interest_labels, lambda i: rx.badge(_label(i), size="2")),
                    spacing="2",
                    wrap="wrap",
                ),
            ),
        ),
    )


def _own_bar() -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.icon("eye")),
        rx.callout.text(t("This is how other members see your profile.")),
        rx.flex(
            link_button(t("Edit profile"), href=url("settings"), size="2"),
            link_button(
                t("Manage photos"), href=url("settings", tab="photos"), size="2", variant="soft"
            ),
            spacing="2",
            wrap="wrap",
        ),
        data_testid="own-profile",
    )


def _profile() -> rx.Component:
    return rx.el.div(
        photo_gallery(),
        rx.el.div(
            rx.cond(S.status == "own", _own_bar()),
            rx.el.div(
                rx.el.h1(
                    S.name,
                    rx.el.span(", ", S.age),
                    class_name="profile-name",
                    data_testid="profile-name",
                ),
                rx.cond(S.show_place, _place()),
                rx.cond(
                    S.status == "visible",
                    rx.cond(S.blocked, _blocked_notice(), _actions()),
                    rx.cond(
                        S.chat_refusal != "",
                        rx.callout(
                            S.chat_refusal, icon="message-circle-off", data_testid="chat-refusal"
                        ),
                    ),
                ),
                class_name="card profile-head",
            ),
            _details(),
            rx.cond(S.status == "visible", complaint_link("/members/" + S.member_id.to(str))),
            class_name="profile-info",
        ),
        _block_dialog(),
        report_dialog(),
        _login_dialog(),
        class_name="profile-layout",
    )


def _not_found() -> rx.Component:
    return rx.el.div(
        rx.heading(t("This profile is not available"), size="5"),
        rx.el.p(t("The member may have left or hidden the profile."), class_name="muted"),
        link_button(t("Search members"), href=url("members")),
        class_name="card form-stack",
        data_testid="profile-not-found",
    )


def _members_only() -> rx.Component:
    return rx.el.div(
        rx.heading(t("Members only"), size="5"),
        rx.el.p(t(LOGIN_TO_SEE_PROFILE, name=S.name)),
        _prompt_buttons(),
        class_name="card",
        data_testid="profile-members-only",
    )


@page("members-id", "likes-m-id", on_load=[S.load_profile, *NEWS_CHECKS])
@page("profile", on_load=[S.load_profile])
def profile_page() -> rx.Component:
    return rx.el.div(
        rx.cond(
            (S.status == "visible") | (S.status == "own"),
            _profile(),
            rx.match(
                S.status,
                ("not_found", _not_found()),
                ("login_required", _members_only()),
                profile_first_paint(),
            ),
        ),
        class_name="container",
        data_testid="page-profile",
    )
