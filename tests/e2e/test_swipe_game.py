"""The swipe game in a real browser, in English and Polish: four likes by button, arrow key and
mouse drag, then the like button is refused with the time until new likes and the Premium
offer; a pass by the left arrow comes back with Undo; the next card is on screen at once."""

import uuid
from pathlib import Path

import pytest
from journeys import (
    NewMember,
    NewPage,
    arrive,
    eventually,
    expect,
    logged_in_page,
    past_the_welcome_window,
    stored_photo,
)
from playwright.sync_api import Page
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session, func, select

from models.swipes import Swipe
from translations.catalog import gettext, ngettext

DAILY_LIKES = 4  # spec section 9
LEFT = ("{count} like left today", "{count} likes left today")
PREMIUM_OFFER = "Premium members like as many members as they want."
NEW_LIKES_IN = (
    ("New likes in {count} hour.", "New likes in {count} hours."),
    ("New likes in {count} minute.", "New likes in {count} minutes."),
)


def until_new_likes(locale: str) -> set[str]:
    """Every way the page may say when new likes come (a day has at most 24 h, 60 min)."""
    return {ngettext(locale, *forms, n, count=n) for forms in NEW_LIKES_IN for n in range(1, 61)}


def likes_left(locale: str, count: int) -> str:
    return ngettext(locale, *LEFT, count, count=count)


def swipes_of(engine: Engine, member_id: int, liked: bool) -> int:
    with Session(engine) as db:
        query = select(func.count()).where(Swipe.member_id == member_id, Swipe.liked == liked)
        return db.exec(query).one()


def top_id(page: Page) -> str:
    top = page.get_by_test_id("swipe-top")
    expect(top).to_be_visible()
    return top.get_attribute("data-id") or ""


def drag_right(page: Page) -> None:
    box = page.get_by_test_id("swipe-top").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 3
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(x + step * 20, y)
    page.mouse.up()


@pytest.mark.parametrize("locale", ["en", "pl"])
def test_four_likes_a_day_then_the_premium_offer_and_undo_of_a_pass(
    site: Server,
    new_page: NewPage,
    member: NewMember,
    site_db: Engine,
    tmp_path: Path,
    locale: str,
) -> None:
    for number in range(DAILY_LIKES + 3):
        man = member("en", name=f"Swiper {uuid.uuid4().hex[:4]}{number}", gender="male")
        stored_photo(site, site_db, man.member_id, tmp_path)
    # signed up days ago: the welcome bonus modal would cover the cards mid-game
    woman = past_the_welcome_window(site_db, member(locale, name=f"Player {uuid.uuid4().hex[:5]}"))
    page = logged_in_page(new_page, site, woman)  # on /members, which leads to the game
    page.get_by_test_id("swipe-game-entry").click()
    arrive(page, site, "/swipe-game")
    left = page.get_by_test_id("swipe-left")
    expect(left).to_have_text(likes_left(locale, DAILY_LIKES))

    swipes = [
        lambda: page.get_by_test_id("swipe-like").click(),
        lambda: page.keyboard.press("ArrowRight"),
        lambda: drag_right(page),
        lambda: page.get_by_test_id("swipe-like").click(),
    ]
    for done, swipe_once in enumerate(swipes, start=1):
        before = top_id(page)
        swipe_once()
        expect(left).to_have_text(likes_left(locale, DAILY_LIKES - done))
        expect(page.get_by_test_id("swipe-top")).not_to_have_attribute("data-id", before)
    eventually(lambda: swipes_of(site_db, woman.member_id, True) == DAILY_LIKES, "four likes")

    expect(page.get_by_test_id("swipe-like")).to_be_disabled()
    limit = page.get_by_test_id("swipe-limit")
    expect(limit).to_contain_text(gettext(locale, PREMIUM_OFFER))
    shown = limit.inner_text()
    assert any(text in shown for text in until_new_likes(locale)), shown
    expect(limit.get_by_role("link")).to_have_attribute("href", "/premium")
    before = top_id(page)
    page.keyboard.press("ArrowRight")  # refused as the button is: nothing moves
    expect(left).to_have_text(likes_left(locale, 0))
    assert top_id(page) == before

    page.keyboard.press("ArrowLeft")  # passes go on
    expect(page.get_by_test_id("swipe-top")).not_to_have_attribute("data-id", before)
    page.get_by_test_id("swipe-undo").click()
    expect(page.get_by_test_id("swipe-top")).to_have_attribute("data-id", before)
    expect(page.get_by_test_id("swipe-undo")).to_be_disabled()
    assert swipes_of(site_db, woman.member_id, False) == 0
    assert page.console_errors == []  # type: ignore[attr-defined]
