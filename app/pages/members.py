"""/members: search with filters (gender, country, region, age), results and similar members."""

import reflex as rx

from app.pages.registry import page
from components.cam_promotion import cam_card
from components.deferred import deferred
from components.first_results import FOUND, MORE_THAN_FOUND, NOBODY_FOUND, first_results_holder
from components.forms import age_range, any_select, labelled, post_form
from components.i18n import t
from components.link_button import link_button
from components.member_card import member_card
from components.profile_fields import place_fields
from models.routes import url
from models.search import COUNT_CAP
from state.likes import NEWS_CHECKS
from state.search import RESULTS_ID, SIMILAR_ID
from state.search import SearchState as S
from translations.catalog import N_


def _login_prompt() -> rx.Component:
    return rx.el.div(
        rx.heading(t("Log in to see our members"), size="5"),
        rx.flex(
            link_button(t("Sign up free"), href=url("signup")),
            link_button(t("Log in"), href=url("login"), variant="soft"),
            spacing="3",
            margin_top="12px",
        ),
        class_name="card",
    )


def _filters() -> rx.Component:
    return post_form(
        rx.el.div(
            labelled(
                t("I am looking for"),
                any_select(
                    rx.fragment(
                        rx.el.option(t("Women"), value="female"),
                        rx.el.option(t("Men"), value="male"),
                    ),
                    S.gender,
                    S.pick_gender,
                    "search-gender",
                ),
            ),
            place_fields(S, any_choice=True),
            age_range(S.min_age, S.max_age, "search"),
            rx.flex(
                rx.button(
                    rx.icon("search", size=16), t("Search"), type="submit", data_testid="search-go"
                ),
                rx.button(
                    t("Reset"),
                    type="button",
                    variant="soft",
                    on_click=S.reset_filters,
                    data_testid="search-reset",
                ),
                spacing="2",
                align="end",
                class_name="search-actions",
            ),
            class_name="search-filters",
        ),
        on_submit=S.search,
        class_name="card",
        data_testid="search-form",
    )


def _more_button(visible: rx.Var[bool], on_click, testid: str) -> rx.Component:
    return rx.cond(
        visible,
        rx.center(
            rx.button(
                t("Show more"), on_click=on_click, variant="soft", size="3", data_testid=testid
            ),
            margin_top="20px",
        ),
    )


def _results() -> rx.Component:
    return rx.fragment(
        rx.el.p(
            rx.cond(
                S.results_capped,
                t(MORE_THAN_FOUND, count=COUNT_CAP),
                t(FOUND, count=S.num_results),
            ),
            class_name="search-count",
            data_testid="search-count",
        ),
        rx.cond(
            S.num_results == 0,
            rx.el.p(t(NOBODY_FOUND), class_name="muted"),
        ),
        rx.el.div(
            rx.foreach(S.results, member_card),
            id=RESULTS_ID,
            class_name="member-grid",
            data_testid="results",
        ),
        _more_button(S.has_more, S.load_more, "search-more"),
        rx.cond(
            S.similar.length() > 0,
            rx.el.section(
                rx.el.h2(t("Similar members"), class_name="section-title"),
                rx.el.div(
                    rx.foreach(S.similar, member_card),
                    id=SIMILAR_ID,
                    class_name="member-grid",
                    data_testid="similar-results",
                ),
                _more_button(S.has_more_similar, S.load_more_similar, "similar-more"),
            ),
        ),
    )


def _entry(icon: str, label: str, route: str) -> rx.Component:
    """A way from the search to another way of meeting members."""
    return rx.link(
        rx.icon(icon, size=18),
        t(label),
        href=url(route),
        class_name="swipe-entry",
        underline="none",
        data_testid=f"{route}-entry",
    )


@page("members", on_load=[S.load_search, *NEWS_CHECKS])
def members_page() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.h1(t("Search members"), class_name="page-title"),
            rx.cond(
                ~S.login_required,
                rx.el.div(
                    _entry("flame", N_("Swipe game"), "swipe-game"),
                    _entry("sparkles", N_("Matchfinder"), "match-finder"),
                    class_name="page-entries",
                ),
            ),
            class_name="page-title-row",
        ),
        rx.cond(
            S.login_required,
            _login_prompt(),
            # the server's first page (in the HTML) until the search's own state arrives; the
            # live grid then mounts at low priority, in short tasks
            rx.fragment(
                _filters(),
                rx.cond(deferred(S.did_init, "searchShown"), _results(), first_results_holder()),
            ),
        ),
        cam_card("members"),
        class_name="container",
        data_testid="page-members",
    )
