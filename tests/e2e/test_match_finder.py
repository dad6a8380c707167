"""The matchfinder in a real browser, in English and German: from the search page, wishes for
ages, place, interests and an answered question give ranked members with their match
percentage and the reasons in the member's language, and the wishes are there again on the next
visit."""

import re
import uuid
from datetime import date
from pathlib import Path

import pytest
from journeys import (
    NewMember,
    NewPage,
    arrive,
    expect,
    logged_in_page,
    open_page,
    past_the_welcome_window,
    stored_photo,
)
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session

from models.attribute_labels import INTEREST_LABELS
from models.matchfinder import clean_wishes, save_wishes
from translations.catalog import gettext
from translations.locales import mid_sentence

BOTH_LIKE = "You both like {interests}."
AGREED = "Your answers suit each other: {topics}."
NO_SMOKERS = {"smoking": {"answer": "no", "accepted": ["no"], "importance": "very"}}


def save_questions(site_db: Engine, member_id: int) -> None:
    """The member does not smoke and hopes the other does not either."""
    with Session(site_db) as db:
        save_wishes(db, member_id, clean_wishes({"questions": NO_SMOKERS}, [], 18))
        db.commit()


# A percentage as the page's language writes it: en "85%", de "85 %" (a no-break space).
PERCENT = {"en": re.compile(r"^\d{1,3}%$"), "de": re.compile(r"^\d{1,3}\u00a0%$")}


@pytest.mark.parametrize("locale", ["en", "de"])
def test_wishes_rank_members_with_percent_and_reasons(
    site: Server,
    new_page: NewPage,
    member: NewMember,
    site_db: Engine,
    tmp_path: Path,
    locale: str,
) -> None:
    name = f"Finder {uuid.uuid4().hex[:5]}"
    fit = member(
        "en", name=name, gender="male", date_of_birth=date(1988, 3, 1), interests=["nature"]
    )
    stored_photo(site, site_db, fit.member_id, tmp_path)
    save_questions(site_db, fit.member_id)
    anna = member(locale, name=f"Seeker {uuid.uuid4().hex[:5]}", date_of_birth=date(1990, 1, 1))
    page = logged_in_page(new_page, site, past_the_welcome_window(site_db, anna))
    page.get_by_test_id("match-finder-entry").click()
    arrive(page, site, "/match-finder")
    label = gettext(locale, INTEREST_LABELS["nature"])
    page.get_by_test_id("interest-chips").get_by_role("button", name=label, exact=True).click()
    page.get_by_test_id("match-min_age").fill("30")
    page.get_by_test_id("match-max_age").fill("45")
    page.get_by_test_id("match-questions").locator("summary").click()
    page.get_by_test_id("answer-smoking-no").click()
    page.get_by_test_id("accept-smoking-no").click()
    expect(page.get_by_test_id("answer-smoking-no")).to_have_attribute("aria-pressed", "true")
    page.get_by_test_id("match-go").click()

    card = page.get_by_test_id("match-result").filter(has_text=name)
    expect(card.get_by_test_id("percent")).to_have_text(PERCENT[locale])
    reason = gettext(locale, BOTH_LIKE, interests=mid_sentence(label, locale))
    expect(card).to_contain_text(reason)
    smoking = mid_sentence(gettext(locale, "Smoking"), locale)
    expect(card).to_contain_text(gettext(locale, AGREED, topics=smoking))
    assert page.console_errors == []  # type: ignore[attr-defined]

    open_page(page, site, "/match-finder")  # the next visit: the same wishes, searched at once
    expect(page.get_by_test_id("match-min_age")).to_have_value("30")
    expect(page.get_by_test_id("match-result").filter(has_text=name)).to_have_count(1)
