"""components/forms.text_area_field and choice_field: the labelled text area the notice, contact
and staff forms share, and the select of a fixed vocabulary, as the browser gets them."""

import reflex as rx

from components.forms import choice_field, text_area_field
from models.tickets import TOPIC_LABELS
from state.service_contact import ServiceContactState


def _props(code: str, element: str) -> str:
    """The first `element`'s own props in the compiled code."""
    start = code.index(element)
    return code[start : code.index("}", start)]


def _area(code: str) -> str:
    return _props(code, "RadixThemesTextArea")


def _code(**options) -> str:
    return str(text_area_field("Your message", "message", ServiceContactState.errors, **options))


def test_the_text_area_carries_its_form_key_limits_and_test_id() -> None:
    code = _code(rows=6, max_length=5000, required=True, testid="contact-message")
    area = _area(code)
    for prop in ('"data-testid":"contact-message"', "maxLength:5000", 'name:"message"'):
        assert prop in area
    assert "required:true" in area and 'rows:"6"' in area
    assert 'className:"field"' in code and 'className:"field-label"' in code


def test_the_error_under_it_is_the_one_the_server_names() -> None:
    assert 'data-testid":"error-message"' in _code(rows=3, max_length=10)
    assert 'data-testid":"error-text"' in _code(rows=3, max_length=10, error_key="text")


def test_a_hint_shows_only_when_given() -> None:
    assert "field-hint" not in _code(rows=3, max_length=10)
    assert "field-hint" in _code(rows=3, max_length=10, hint=rx.Var.create("Be precise."))


def test_without_a_test_id_or_required_the_text_area_has_neither() -> None:
    area = _area(_code(rows=3, max_length=10))
    assert "data-testid" not in area and "required:true" not in area


def _select() -> str:
    S = ServiceContactState
    code = str(
        choice_field(
            "Topic", TOPIC_LABELS, S.topic, S.choose_topic, S.errors, name="topic", testid="t"
        )
    )
    return _props(code, '"select",')


def test_a_choice_posts_the_pick_the_member_sees() -> None:
    """The state's value is where the select starts, not what it shows: shown as the state's
    value, a pick showed the old choice until the server answered the change, and a submit in
    between posted that one (the contact form's topic on a busy machine)."""
    select = _select()
    assert "defaultValue:" in select and "value:" not in select.replace("defaultValue:", "")
    assert 'name:"topic"' in select and "choose_topic" in select
