"""The profile's first paint (`/members/{id}`): the main photo, name, age and place written by
the server in the markup the page shows once its state has loaded (app/pages/profile.py), so
the largest paint comes with the HTML and nothing moves when the page takes over.

Only what `open_profile` shows this viewer (actions.discovery.peek_profile, which marks
nothing seen): a locked photo stays blurred, a member the viewer may not see, or who shows the
profile to members only, or whom the viewer blocked, gets nothing (the page's spinner, then
its own answer). The rows the
page adds around them (the photo's report row, the action buttons) have their height kept."""

from html import escape

import reflex as rx

from actions.discovery import ProfileView, peek_profile
from actions.runner import read
from components.member_landings.common import MEMBER, PIN, attributes, place_text
from components.server_parts import PageRequest, server_html
from models.visibility import ProfileAccess
from translations.catalog import N_, gettext

PART = "profile"
PHOTO_NUMBER = N_("Photo {number}")


def _main_photo(view: ProfileView) -> str:
    if not view.photos:
        return '<div class="gallery-empty"></div>'
    values = {
        "src": view.photos[0]["src"],
        "alt": view.name,
        "class": "gallery-main-image",
        "fetchpriority": "high",
    }
    return f"<img {attributes(values)}>"


def _thumbs(view: ProfileView, locale: str) -> str:
    if len(view.photos) < 2:
        return ""
    buttons = "".join(
        f'<button type="button" class="gallery-thumb" data-selected="{str(i == 0).lower()}"'
        f' aria-label="{escape(gettext(locale, PHOTO_NUMBER, number=i + 1))}">'
        f'<img src="{escape(photo["thumb"])}" alt="" loading="lazy"></button>'
        for i, photo in enumerate(view.photos)
    )
    return f'<div class="gallery-thumbs">{buttons}</div>'


def _gallery(view: ProfileView, locale: str) -> str:
    reports = (
        '<div class="profile-paint-reports"></div>'
        if view.photos and not view.photos[0]["lock"]
        else ""
    )
    return (
        f'<div class="gallery"><div class="gallery-main">{_main_photo(view)}</div>'
        f"{_thumbs(view, locale)}{reports}</div>"
    )


def _head(view: ProfileView, locale: str) -> str:
    place = place_text(view.city, view.region, view.country, locale) if view.show_place else ""
    where = f'<p class="profile-place">{PIN}<span>{escape(place)}</span></p>' if place else ""
    return (
        '<div class="profile-info"><div class="card profile-head">'
        f'<h1 class="profile-name">{escape(view.name)}<span>, {view.age}</span></h1>'
        f'{where}<div class="profile-paint-actions"></div></div></div>'
    )


def profile_html(view: ProfileView, locale: str) -> str:
    """The first paint of a profile the viewer sees; "" for any other answer, and for a member
    the viewer blocked (the page shows them with its notice instead of the actions)."""
    if view.access != ProfileAccess.VISIBLE or view.blocked:
        return ""
    return f'<div class="profile-layout">{_gallery(view, locale)}{_head(view, locale)}</div>'


async def write_profile(request: PageRequest, member_id: int) -> str:
    return profile_html(await read(peek_profile, request.viewer_id, member_id), request.locale)


def profile_first_paint() -> rx.Component:
    """What the profile shows while its state loads: the server's first paint, else (nothing
    written: another page, a member not shown) a spinner."""
    return rx.fragment(
        server_html(MEMBER, PART),
        rx.center(rx.spinner(size="3"), padding="48px", class_name="profile-loading"),
    )
