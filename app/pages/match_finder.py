"""/match-finder: what the member looks for (age range, place, up to five interests, a few
questions) and the members ranked by the two-sided match, each card with its percentage and
the reasons."""

import reflex as rx

from app.pages.registry import page
from components.forms import age_range, labelled, post_form
from components.i18n import percent, t
from components.link_button import link_button
from components.match_questions import match_questions
from components.member_card import linked_card
from components.profile_fields import interest_chips
from models.match_score import ANYWHERE, COUNTRY, REGION
from models.routes import liked_member_url, url
from state.likes import NEWS_CHECKS
from state.matchfinder import MatchfinderState as M
from translations.catalog import N_

PLACE_LABELS = {
    REGION: N_("In my region"),
    COUNTRY: N_("In my country"),
    ANYWHERE: N_("Anywhere"),
}
NONE_FOUND = N_("Nobody fits all of this yet. Widen the ages or the place and try again.")


def _place() -> rx.Component:
    return labelled(
        t("Where"),
        rx.select.root(
            rx.select.trigger(width="100%", data_testid="match-place"),
            rx.select.content(
                *(rx.select.item(t(label), value=value) for value, label in PLACE_LABELS.items())
            ),
            value=M.place,
            on_change=M.set_place,
            size="2",
        ),
    )


def _form() -> rx.Component:
    return post_form(
        rx.el.div(
            age_range(M.min_age, M.max_age, "match"),
            _place(),
            class_name="search-filters match-filters",
        ),
        interest_chips(M),
        rx.el.p(t("Choose up to five interests."), class_name="field-hint"),
        match_questions(),
        rx.button(
            rx.icon("sparkles", size=16),
            t("Find my matches"),
            type="submit",
            size="3",
            loading=M.busy,
            data_testid="match-go",
        ),
        on_submit=M.find,
        class_name="card form-stack match-form",
    )


def _result(member: rx.Var[dict]) -> rx.Component:
    return rx.el.div(
        rx.el.div(
            linked_card(member, liked_member_url),
            rx.el.span(
                percent(member["percent"]), class_name="match-percent", data_testid="percent"
            ),
            class_name="member-card-frame",
        ),
        rx.el.ul(
            rx.foreach(member["reasons"].to(list[str]), lambda reason: rx.el.li(reason)),
            class_name="match-reasons",
        ),
        class_name="match-result",
        data_testid="match-result",
    )


def _results() -> rx.Component:
    return rx.cond(
        M.searched,
        rx.cond(
            M.results.length() > 0,
            rx.el.div(rx.foreach(M.results, _result), class_name="member-grid match-grid"),
            rx.el.div(
                rx.text(t(NONE_FOUND)),
                link_button(t("Search members"), href=url("members"), size="3"),
                class_name="card likes-empty",
                data_testid="match-none",
            ),
        ),
    )


@page("match-finder", on_load=[M.load, *NEWS_CHECKS])
def match_finder_page() -> rx.Component:
    return rx.el.div(
        rx.el.h1(t("Matchfinder"), class_name="page-title"),
        rx.el.p(
            t("Tell us what you're looking for. We rank members by how well you fit each other."),
            class_name="page-lead",
        ),
        _form(),
        _results(),
        class_name="container",
        data_testid="page-match-finder",
    )
