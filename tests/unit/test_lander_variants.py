"""Landers' weighted variants: drawn by weight, kept by the visitor, named by the page and the
click alike, edited as rows in the settings, and honest headlines only."""

import random
from collections import Counter
from collections.abc import Iterator

import pytest
from sqlmodel import Session, select
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from actions.lander_reads import LanderMembers
from app import lander_variants as middleware
from app.lander_variants import VARIANT_SCOPE, LanderVariants
from app.traffic_clicks import TrafficClicks
from components.landers.common import LanderView, head_html
from models.lander_slug import LanderTarget
from models.lander_variants import (
    PLAIN,
    Variant,
    choose,
    cookie_value,
    kept_variants,
    variants_of,
)
from models.lander_variants import (
    LanderVariants as Editor,
)
from models.setting_fields import SettingRefused
from models.site_settings import SiteSettings
from models.traffic import TrafficClick

CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0"
ROWS = [
    {"lander": "gallery", "name": "a", "weight": 90, "headline": "niche", "accent": "coral"},
    {"lander": "gallery", "name": "b", "weight": 10, "headline": "chat", "accent": "purple"},
    {"lander": "gallery", "name": "off", "weight": 0, "headline": "chat", "accent": "green"},
    {"lander": "video", "name": "a", "weight": 5, "headline": "invite", "accent": "green"},
]
SETTINGS = SiteSettings(lander_variants=ROWS)


def test_a_visitor_is_drawn_a_variant_by_weight() -> None:
    offered = variants_of(SETTINGS, "gallery")
    assert [v.name for v in offered] == ["a", "b"]  # a weight of 0 is stopped
    draw = random.Random(7)
    drawn = Counter(choose(offered, None, draw).name for _ in range(2000))
    assert 1700 <= drawn["a"] <= 1900 and drawn["a"] + drawn["b"] == 2000


def test_a_visitor_keeps_their_variant_while_it_is_offered() -> None:
    offered = variants_of(SETTINGS, "gallery")
    assert all(choose(offered, "b", random.Random(i)).name == "b" for i in range(50))
    assert choose(offered, "off", random.Random(1)).name in ("a", "b")
    assert choose(variants_of(SETTINGS, "maplanding"), "a", random.Random(1)) == PLAIN


def test_the_cookie_keeps_one_valid_name_per_known_lander() -> None:
    kept = {"gallery": "b", "video": "a"}
    assert kept_variants(cookie_value(kept)) == kept
    forged = "gallery:B.nope:a.video:" + "x" * 21 + ".maplanding:ok." + ".".join(["x:y"] * 50)
    assert kept_variants(forged) == {"maplanding": "ok"}
    assert kept_variants(None) == {}


def _form(rows: list[dict]) -> dict:
    form = {}
    for i, row in enumerate(rows):
        form.update({f"{key}.{i}": str(value) for key, value in row.items()})
    return form


def test_the_editor_round_trips_its_rows_and_leaves_blank_rows_out() -> None:
    editor = Editor()
    groups = editor.groups(ROWS, SETTINGS)
    assert len(groups) == len(ROWS) + 3
    form = {i.name: i.value for g in groups for i in g.inputs}
    assert editor.parse(form, SETTINGS) == ROWS


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": "Big A"}, "name.1"),
        ({"name": "a"}, "name.1"),  # gallery has an "a" already
        ({"weight": "101"}, "weight.1"),
        ({"weight": "-1"}, "weight.1"),
        ({"headline": "Only today: 90% off!"}, "headline.1"),
        ({"accent": "#ff0000"}, "accent.1"),
        ({"lander": "elsewhere"}, "lander.1"),
    ],
)
def test_the_editor_refuses_what_is_not_in_its_vocabulary(change: dict, field: str) -> None:
    rows = [ROWS[0], {**ROWS[1], **change}]
    with pytest.raises(SettingRefused) as refused:
        Editor().parse(_form(rows), SETTINGS)
    assert refused.value.field == field


def _view(variant: Variant) -> LanderView:
    return LanderView(LanderTarget("milf", None), LanderMembers(), "NL", variant)


def test_a_variants_headline_and_accent_are_written_with_the_page() -> None:
    plain = head_html(_view(PLAIN), "en")
    assert "Meet women aged 40 and over who are looking for a man" in plain
    chat = head_html(_view(variants_of(SETTINGS, "gallery")[1]), "de")
    assert "Meet women" not in chat and "lander-accent-purple" in chat
    assert "Beginne ein Gespräch mit jemandem in deiner Nähe" in chat


# --- the middleware -------------------------------------------------------------------------


@pytest.fixture
def client(engine, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    async def settings(_why: str) -> SiteSettings:
        return SETTINGS

    monkeypatch.setattr(middleware, "settings_or_defaults", settings)

    def page(request: Request) -> HTMLResponse:
        return HTMLResponse(f"<p>{request.scope.get(VARIANT_SCOPE)}</p>")

    inner = Starlette(routes=[Route("/{path:path}", page)])
    app = LanderVariants(TrafficClicks(inner))
    with TestClient(app, headers={"user-agent": CHROME}) as test_client:
        yield test_client


def test_the_page_and_the_click_name_the_variant_the_visitor_keeps(
    client: TestClient, db: Session
) -> None:
    first = client.get("/landers/gallery/milf?network=n1")
    variant = first.text.removeprefix("<p>").removesuffix("</p>")
    assert variant in ("a", "b")
    assert f"lander.variant=gallery:{variant};" in first.headers["set-cookie"]
    assert db.exec(select(TrafficClick.variant)).one() == variant
    kept = "b" if variant == "a" else "a"
    again = client.get("/landers/gallery", headers={"cookie": f"lander.variant=gallery:{kept}"})
    assert again.text == f"<p>{kept}</p>" and "set-cookie" not in again.headers


def test_pages_without_variants_are_left_alone(client: TestClient) -> None:
    for path in ("/landers/maplanding", "/members", "/"):
        answer = client.get(path)
        assert answer.text in ("<p></p>", "<p>None</p>") and "set-cookie" not in answer.headers
