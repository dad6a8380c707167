"""The gallery lander's screen: the server's headline and member grid (components/lander_html.py)
and the signup starting on the page."""

import json

import reflex as rx

from components.i18n import t
from components.lander_html import GRID_MARK, HEAD_MARK
from components.signup_modal import signup_modal
from state.document_values import document_value, read_once
from state.signup import SignupState


def server_html(name: str, mark: str) -> rx.Component:
    """A holder of what the server wrote in place of `mark`; hydrated with the HTML it has."""
    element_id = f"lander-{name}"
    read = read_once(
        f"lander_{name}",
        json.dumps(mark),
        f"document.getElementById({json.dumps(element_id)})?.innerHTML ?? ''",
    )
    return rx.html(
        document_value(f"lander_{name}", read).to(str), id=element_id, data_testid=element_id
    )


def _signup_button() -> rx.Component:
    return rx.button(
        t("Create my free account"),
        size="4",
        on_click=SignupState.open_signup,
        class_name="lander-cta",
        data_testid="lander-signup",
    )


def gallery_lander() -> rx.Component:
    return rx.fragment(
        rx.el.section(
            server_html("head", HEAD_MARK),
            _signup_button(),
            server_html("grid", GRID_MARK),
            rx.el.div(_signup_button(), class_name="lander-cta-row"),
            class_name="container lander",
            data_testid="page-landers-gallery",
        ),
        signup_modal(only_nl_de_warning=True),
    )
