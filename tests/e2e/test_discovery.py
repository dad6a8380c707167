"""Discovery journeys (issue 4) in Chromium against the production build: editing the profile
and the place, the photo manager, the member search, a like arriving on the other side, and
blocking.

Members are written straight into the server's database and log in through the log-in page;
every other step goes through the screens, and the database is checked after each save.
Visible texts are looked up in the catalogues, so the German runs prove that the screens are
translated. The two-member journeys run once with each member speaking the other language.
"""

import base64
import re
import uuid
from datetime import date
from pathlib import Path

import pytest
from journeys import (
    Account,
    NewMember,
    NewPage,
    arrive,
    eventually,
    expect,
    logged_in_page,
    open_page,
    photo_file,
    stored_photo,
    wait_ready,
)
from playwright.sync_api import Locator, Page
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session

from models.attribute_labels import FIELD_LABELS, VALUE_LABELS
from models.blocks import Block
from models.likes import Like
from models.member import Photo, Profile
from models.photos import gallery_order
from models.profile_steps import FREE_PHOTOS
from models.regions import region_name
from models.search import SearchFilters, saved_filters, search_members
from translations.catalog import Message, N_plural, gettext, pgettext
from translations.errors import PHOTO_LIMIT_REACHED

LOCALES = ("en", "de")
MEMBER_LOCALES = [("en", "de"), ("de", "en")]  # (A, B) of the two-member journeys
PAGE_SIZE = 24  # state/members.py: search results per page

# Interface texts (msgids) of screens whose modules import Reflex, so are not imported here.
PROFILE_SAVED = "Your profile is saved."
PLACE_SAVED = "Your place is saved."
GEO_FILLED = "We filled in your place. Check it and save."
PHOTO_COUNT = N_plural("{count} of {limit} photo", "{count} of {limit} photos", "limit")
MEMBERS_FOUND = N_plural("{count} member found", "{count} members found")
MEN = "Men"
NEW = "New"
LIKE, LIKED = "Like", "Liked"
BLOCKED = "You blocked {name}. They cannot see your profile or contact you."
NOT_AVAILABLE = "This profile is not available"
MATCH = "It's a match!"
LIKE_EACH_OTHER = "You and {name} like each other."
MATCH_KEPT = "You are a match, so your like stays. Block the member if you no longer want contact."

AMSTERDAM = {"latitude": 52.37, "longitude": 4.89}
SEARCH_COUNTRY = "NZ"
SEARCH_AGES = (40, 48)
SEEDED_MATCHES = PAGE_SIZE + 6  # more than a page of results, fewer than two


def text(locale: str, msgid: Message, **params: object) -> str:
    return gettext(locale, msgid, **params)


def unique_name(first: str) -> str:
    return f"{first} {uuid.uuid4().hex[:5]}"


def born_aged(age: int) -> date:
    """A date of birth (1 January) that makes a member `age` all this year."""
    return date(date.today().year - age, 1, 1)


# ----- the server's database -----


def profile_of(engine: Engine, member_id: int) -> Profile:
    with Session(engine, expire_on_commit=False) as db:
        profile = db.get(Profile, member_id)
        assert profile is not None
        return profile


def photos_of(engine: Engine, member_id: int) -> list[Photo]:
    with Session(engine, expire_on_commit=False) as db:
        return gallery_order(db, member_id)


def like_of(engine: Engine, liker: Account, liked: Account) -> Like | None:
    with Session(engine, expire_on_commit=False) as db:
        return db.get(Like, (liker.member_id, liked.member_id))


def blocks(engine: Engine, blocker: Account, blocked: Account) -> bool:
    with Session(engine) as db:
        return db.get(Block, (blocker.member_id, blocked.member_id)) is not None


# ----- pages -----


def country_name(page: Page, locale: str, code: str) -> str:
    """The country's name as the site shows it: the browser's own name in that language."""
    return page.evaluate(
        "([locale, code]) => new Intl.DisplayNames([locale], {type: 'region'}).of(code)",
        [locale, code],
    )


def choose(page: Page, trigger: Locator, option: str) -> None:
    """Pick `option` (its visible text) from the select that `trigger` opens."""
    trigger.click()
    page.get_by_role("option", name=option, exact=True).click()
    expect(trigger).to_have_text(option)


def pick(select: Locator, option: str) -> None:
    """Pick `option` (its visible text) in the browser's own select (components/forms.py
    native_select)."""
    select.select_option(label=option)
    expect_chosen(select, option)


def expect_chosen(select: Locator, option: str) -> None:
    """The browser's own select shows `option`."""
    expect(select.locator("option:checked")).to_have_text(option)


def likes_badge(page: Page) -> Locator:
    return page.locator('header a[href="/likes"] [data-testid="badge"]')


def profile_name(page: Page) -> Locator:
    return page.get_by_test_id("profile-name")


def photo_status(page: Page, site: Server, photo: Photo) -> int:
    """What the photo route answers this browser (its session cookie goes along)."""
    return page.request.get(f"{site.url}/media/photos/{photo.filename}").status


# ----- the journeys -----


@pytest.mark.parametrize("locale", LOCALES)
def test_profile_and_place_are_edited_and_shown(
    site: Server, new_page: NewPage, member: NewMember, site_db: Engine, locale: str
) -> None:
    account = member(locale)
    page = logged_in_page(new_page, site, account)
    open_page(page, site, "/settings")
    about = f"Sailing on the Achensee, every summer. {uuid.uuid4().hex[:6]}"
    red = pgettext(locale, *VALUE_LABELS["hair_colour"]["red"])
    choose(page, page.get_by_test_id("looks-hair_colour"), red)
    page.get_by_test_id("about-text").fill(about)
    page.get_by_test_id("save-profile").click()  # one Save for the whole tab
    expect(page.get_by_test_id("saved-profile")).to_have_text(text(locale, PROFILE_SAVED))
    profile = profile_of(site_db, account.member_id)
    assert (profile.about_me, profile.hair_colour) == (about, "red")

    page.get_by_test_id("tab-location").click()
    pick(page.get_by_test_id("country-select"), country_name(page, locale, "AT"))
    pick(page.get_by_test_id("region-select"), region_name("AT", "AT-7", locale))
    page.locator("#field-city").fill("Innsbruck")
    page.get_by_test_id("save-location").click()
    expect(page.get_by_test_id("saved-location")).to_have_text(text(locale, PLACE_SAVED))
    profile = profile_of(site_db, account.member_id)
    assert (profile.country, profile.region, profile.city) == ("AT", "AT-7", "Innsbruck")

    open_page(page, site, "/profile")
    expect(page.locator(".profile-about")).to_have_text(about)
    expect(page.locator(".profile-place")).to_contain_text("Innsbruck")
    expect(page.locator(".profile-place")).to_contain_text(region_name("AT", "AT-7", locale))
    hair = page.locator(".profile-detail", has_text=text(locale, FIELD_LABELS["hair_colour"]))
    expect(hair.locator("dd")).to_have_text(red)

    page.context.grant_permissions(["geolocation"], origin=site.url)
    page.context.set_geolocation(AMSTERDAM)
    open_page(page, site, "/settings?tab=location")
    page.get_by_test_id("use-my-location").click()
    expect(page.get_by_test_id("geo-filled")).to_have_text(text(locale, GEO_FILLED))
    expect_chosen(page.get_by_test_id("country-select"), country_name(page, locale, "NL"))
    noord_holland = region_name("NL", "NL-NH", locale)  # "North Holland", "Nordholland"
    expect_chosen(page.get_by_test_id("region-select"), noord_holland)
    expect(page.locator("#field-city")).to_have_value("Amsterdam")
    profile = profile_of(site_db, account.member_id)
    assert (profile.country, profile.city) == ("AT", "Innsbruck"), "filled in, not yet saved"


def drop_files(zone: Locator, paths: list[Path]) -> None:
    """Drop the files on zone as a browser does when they are dragged from the desktop."""
    files = [{"name": p.name, "data": base64.b64encode(p.read_bytes()).decode()} for p in paths]
    transfer = zone.page.evaluate_handle(
        """files => {
            const transfer = new DataTransfer();
            for (const file of files) {
                const bytes = Uint8Array.from(atob(file.data), (c) => c.charCodeAt(0));
                transfer.items.add(new File([bytes], file.name, { type: "image/jpeg" }));
            }
            return transfer;
        }""",
        files,
    )
    zone.dispatch_event("drop", {"dataTransfer": transfer})


@pytest.mark.parametrize("locale", LOCALES)
def test_photos_up_to_the_limit_then_main_photo_and_delete(
    site: Server,
    new_page: NewPage,
    member: NewMember,
    site_db: Engine,
    tmp_path: Path,
    locale: str,
) -> None:
    assert site.data_dir is not None
    account = member(locale)
    files = [photo_file(tmp_path, f"photo-{number}.jpg") for number in range(1, 5)]
    page = logged_in_page(new_page, site, account)
    open_page(page, site, "/settings?tab=photos")
    counter, tiles = page.get_by_test_id("photo-count"), page.get_by_test_id("photo-tile")
    upload = page.get_by_test_id("photo-upload")

    def expect_photos(count: int) -> None:
        expect(tiles).to_have_count(count)
        expect(counter).to_have_text(text(locale, PHOTO_COUNT, count=count, limit=FREE_PHOTOS))

    expect_photos(0)
    drop_files(upload, files[:1])
    expect_photos(1)
    upload.locator("input[type=file]").set_input_files(files[1:])  # the third fits, not the 4th
    expect_photos(FREE_PHOTOS)
    refused = text(locale, PHOTO_LIMIT_REACHED)
    expect(page.get_by_test_id("error-photo")).to_have_text(refused)
    expect(page.get_by_test_id("photo-limit")).to_contain_text(refused)
    expect(upload).to_have_count(0)
    stored = photos_of(site_db, account.member_id)
    assert len(stored) == FREE_PHOTOS, "the fourth photo was refused"
    first, second, third = stored
    assert profile_of(site_db, account.member_id).main_photo_id == first.id

    tiles.nth(1).get_by_test_id("photo-make-main").click()
    expect(tiles.first.locator("img")).to_have_attribute("src", re.compile(second.thumb_filename))
    expect(tiles.first).to_have_attribute("data-main", "true")
    assert profile_of(site_db, account.member_id).main_photo_id == second.id

    tiles.nth(2).get_by_test_id("photo-delete").click()
    page.get_by_test_id("photo-delete-confirm").click()
    expect_photos(2)
    expect(upload).to_be_visible()
    expect(page.get_by_test_id("photo-limit")).to_have_count(0)
    assert [photo.id for photo in photos_of(site_db, account.member_id)] == [second.id, first.id]
    photo_dir = site.data_dir / "media" / "photos"
    assert not (photo_dir / third.filename).exists()
    assert (photo_dir / second.filename).exists()


def seed_search_matches(new_member: NewMember, locale: str) -> None:
    """Men in SEARCH_COUNTRY: a page and a half within SEARCH_AGES, two just outside."""
    low, high = SEARCH_AGES
    inside = [low + 1 + number % (high - low - 1) for number in range(SEEDED_MATCHES)]
    for age in [*inside, low - 1, high + 1]:
        new_member(
            locale,
            name=unique_name("Tane"),
            gender="male",
            country=SEARCH_COUNTRY,
            date_of_birth=born_aged(age),
        )


def shown_ages(results: Locator) -> list[int]:
    """The ages on the result cards ("name, age")."""
    names = results.locator(".member-card-name").all_inner_texts()
    return [int(name.rsplit(",", 1)[1]) for name in names]


def expect_filters(page: Page, locale: str, country: str) -> None:
    expect_chosen(page.get_by_test_id("search-gender"), text(locale, MEN))
    expect_chosen(page.get_by_test_id("search-country"), country)
    expect(page.get_by_test_id("search-min_age")).to_have_value(str(SEARCH_AGES[0]))
    expect(page.get_by_test_id("search-max_age")).to_have_value(str(SEARCH_AGES[1]))


@pytest.mark.parametrize("locale", LOCALES)
def test_search_filters_pages_and_restores_the_search(
    site: Server,
    new_page: NewPage,
    new_member: NewMember,
    member: NewMember,
    site_db: Engine,
    locale: str,
) -> None:
    seed_search_matches(new_member, locale)
    account = member(locale)
    low, high = SEARCH_AGES
    filters = SearchFilters("male", SEARCH_COUNTRY, "", low, high)
    with Session(site_db) as db:
        total = search_members(db, account.member_id, filters, date.today(), 1).total
    assert total > PAGE_SIZE, "the search must fill more than one page"
    page = logged_in_page(new_page, site, account)
    country = country_name(page, locale, SEARCH_COUNTRY)

    pick(page.get_by_test_id("search-gender"), text(locale, MEN))
    pick(page.get_by_test_id("search-country"), country)
    page.get_by_test_id("search-min_age").fill(str(low))
    page.get_by_test_id("search-max_age").fill(str(high))
    page.get_by_test_id("search-go").click()
    found = text(locale, MEMBERS_FOUND, count=total)
    expect(page.get_by_test_id("search-count")).to_have_text(found)
    results = page.get_by_test_id("results")
    cards = results.locator("a.member-card")
    expect(cards).to_have_count(PAGE_SIZE)
    assert all(low <= age <= high for age in shown_ages(results)), shown_ages(results)
    with Session(site_db) as db:
        assert saved_filters(db, account.member_id) == filters

    page.get_by_test_id("search-more").click()
    expect(cards).to_have_count(min(total, 2 * PAGE_SIZE))
    assert all(low <= age <= high for age in shown_ages(results)), shown_ages(results)

    profile_path = cards.first.get_attribute("href")
    assert profile_path
    cards.first.click()
    arrive(page, site, profile_path)
    expect(profile_name(page)).to_be_visible()
    page.go_back()
    wait_ready(page, "/members")
    expect_filters(page, locale, country)
    expect(cards).to_have_count(min(total, 2 * PAGE_SIZE))

    page.reload()
    another_tab = page.context.new_page()  # a tab of its own starts from the stored search
    open_page(another_tab, site, "/members")
    for tab in (page, another_tab):
        wait_ready(tab, "/members")
        expect_filters(tab, locale, country)
        expect(tab.get_by_test_id("search-count")).to_have_text(found)


@pytest.mark.parametrize(("locale_a", "locale_b"), MEMBER_LOCALES)
def test_a_like_arrives_on_the_other_side(
    site: Server,
    new_page: NewPage,
    member: NewMember,
    site_db: Engine,
    tmp_path: Path,
    locale_a: str,
    locale_b: str,
) -> None:
    name_a = unique_name("Alwin")
    a = member(locale_a, name=name_a, gender="male", date_of_birth=born_aged(37))
    b = member(locale_b, name=unique_name("Britt"))
    photo = stored_photo(site, site_db, a.member_id, tmp_path)
    page_b = logged_in_page(new_page, site, b)
    page_a = logged_in_page(new_page, site, a)

    open_page(page_a, site, f"/members/{b.member_id}")
    like = page_a.get_by_test_id("like-button")
    expect(like).to_have_text(text(locale_a, LIKE))
    like.click()
    expect(like).to_have_text(text(locale_a, LIKED))
    eventually(lambda: like_of(site_db, a, b), "A's like in the database")

    page_b.reload()  # B was on /members all along
    wait_ready(page_b, "/members")
    modal = page_b.get_by_test_id("like-modal")
    expect(modal.locator(".like-modal-name")).to_have_text(f"{name_a}, 37")
    image = page_b.get_by_test_id("like-modal-image").locator("img")
    expect(image).to_have_attribute("alt", name_a)
    expect(image).to_have_attribute("src", re.compile(photo.thumb_filename))
    page_b.keyboard.press("Escape")
    expect(modal).to_have_count(0)

    open_page(page_b, site, "/likes")
    card = page_b.get_by_test_id("like-card").filter(
        has=page_b.locator(f'a[href="/likes/m/{a.member_id}"]')
    )
    expect(card.get_by_test_id("card-new")).to_have_text(text(locale_b, NEW))
    expect(likes_badge(page_b)).to_have_text("1")
    card.locator("a.member-card").click()
    arrive(page_b, site, f"/likes/m/{a.member_id}")
    expect(profile_name(page_b)).to_contain_text(name_a)
    expect(likes_badge(page_b)).to_have_count(0)
    open_page(page_b, site, "/likes")
    expect(card).to_be_visible()
    expect(card.get_by_test_id("card-new")).to_have_count(0)
    seen = like_of(site_db, a, b)
    assert seen is not None and not seen.is_new

    like.click()  # A takes the like back and gives it again: a new like to announce
    expect(like).to_have_text(text(locale_a, LIKE))
    like.click()
    expect(like).to_have_text(text(locale_a, LIKED))
    eventually(lambda: (row := like_of(site_db, a, b)) and row.is_new, "A's like, new again")
    page_b.get_by_test_id("like-modal-open").click()  # live, on the /likes page B has open
    arrive(page_b, site, f"/likes/m/{a.member_id}")
    expect(profile_name(page_b)).to_contain_text(name_a)
    expect(modal).to_have_count(0)


@pytest.mark.parametrize(("locale_a", "locale_b"), MEMBER_LOCALES)
def test_liking_back_is_a_match_both_see_live(
    site: Server,
    new_page: NewPage,
    member: NewMember,
    site_db: Engine,
    tmp_path: Path,
    locale_a: str,
    locale_b: str,
) -> None:
    name_a, name_b = unique_name("Joost"), unique_name("Sanne")
    a = member(locale_a, name=name_a, gender="male", date_of_birth=born_aged(35))
    b = member(locale_b, name=name_b)
    stored_photo(site, site_db, a.member_id, tmp_path)
    stored_photo(site, site_db, b.member_id, tmp_path)
    page_a, page_b = logged_in_page(new_page, site, a), logged_in_page(new_page, site, b)
    open_page(page_a, site, f"/members/{b.member_id}")
    page_a.get_by_test_id("like-button").click()
    eventually(lambda: like_of(site_db, a, b), "A's like in the database")

    open_page(page_b, site, f"/members/{a.member_id}")
    expect(page_b.get_by_test_id("match-modal")).to_have_count(0)
    like_b = page_b.get_by_test_id("like-button")
    like_b.click()  # B likes A back: both are told at once, on the page each has open
    match_a, match_b = page_a.get_by_test_id("match-modal"), page_b.get_by_test_id("match-modal")
    expect(match_b).to_contain_text(text(locale_b, MATCH))
    expect(match_b).to_contain_text(text(locale_b, LIKE_EACH_OTHER, name=name_a))
    expect(match_a).to_contain_text(text(locale_a, MATCH))
    expect(match_a.locator("img.match-photo").nth(1)).to_have_attribute("alt", name_b)
    expect(page_b.get_by_test_id("like-modal")).to_have_count(0)  # the match, not "New like!"

    page_b.get_by_test_id("match-close").click()
    expect(match_b).to_have_count(0)
    like_b.click()  # the like that made the match stays
    expect(page_b.get_by_text(text(locale_b, MATCH_KEPT))).to_be_visible()
    expect(like_b).to_have_text(text(locale_b, LIKED))
    assert like_of(site_db, b, a) is not None

    page_a.get_by_test_id("match-message").click()
    arrive(page_a, site, f"/members/{b.member_id}/chat")
    open_page(page_b, site, "/likes/matches")
    card = page_b.get_by_test_id("match-card")
    expect(card.locator(f'a[href="/likes/m/{a.member_id}"]')).to_have_count(1)
    expect(card.get_by_test_id("card-message")).to_have_attribute(
        "href", f"/members/{a.member_id}/chat"
    )


@pytest.mark.parametrize(("locale_a", "locale_b"), MEMBER_LOCALES)
def test_a_block_hides_the_blocker_until_unblocked(
    site: Server,
    new_page: NewPage,
    member: NewMember,
    site_db: Engine,
    tmp_path: Path,
    locale_a: str,
    locale_b: str,
) -> None:
    name_a, name_b = unique_name("Bram"), unique_name("Fleur")
    b = member(locale_b, name=name_b)  # a woman looking for men in the Netherlands
    a = member(locale_a, name=name_a, gender="male", date_of_birth=born_aged(36))
    photo = stored_photo(site, site_db, a.member_id, tmp_path)
    page_b = logged_in_page(new_page, site, b)  # A, the newest match, leads B's search
    card_of_a = page_b.get_by_test_id("results").locator(f'a[href="/members/{a.member_id}"]')
    expect(card_of_a).to_have_count(1)
    assert photo_status(page_b, site, photo) == 200

    page_a = logged_in_page(new_page, site, a)
    open_page(page_a, site, f"/members/{b.member_id}")
    page_a.get_by_test_id("profile-more").click()
    page_a.get_by_test_id("block-button").click()
    page_a.get_by_test_id("block-confirm").click()
    notice = page_a.get_by_test_id("blocked-notice")
    expect(notice).to_contain_text(text(locale_a, BLOCKED, name=name_b))
    expect(page_a.get_by_test_id("like-button")).to_have_count(0)
    assert blocks(site_db, a, b)

    open_page(page_b, site, f"/members/{a.member_id}")
    expect(page_b.get_by_test_id("profile-not-found")).to_contain_text(
        text(locale_b, NOT_AVAILABLE)
    )
    assert photo_status(page_b, site, photo) == 404
    open_page(page_b, site, "/members")
    page_b.get_by_test_id("search-go").click()  # the tab shows its earlier results until then
    expect(page_b.get_by_test_id("results").locator("a.member-card").first).to_be_visible()
    expect(card_of_a).to_have_count(0)

    page_a.get_by_test_id("unblock-button").click()
    expect(notice).to_have_count(0)
    expect(page_a.get_by_test_id("like-button")).to_be_visible()
    assert not blocks(site_db, a, b)
    open_page(page_b, site, f"/members/{a.member_id}")
    expect(profile_name(page_b)).to_contain_text(name_a)
    assert photo_status(page_b, site, photo) == 200
