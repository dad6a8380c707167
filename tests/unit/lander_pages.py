"""What the tests of the landers' designs share: members to show and a parser of the HTML a
writer returns (tests/unit/test_lander_<kind>.py)."""

from datetime import UTC, date, datetime, timedelta
from html.parser import HTMLParser
from itertools import count

from sqlmodel import Session

from components.server_parts import PageRequest
from models.member import Member
from models.site_settings import SiteSettings
from tests.factories import add_photo, edit_profile, make_member

SETTINGS = SiteSettings()
_made = count()


class Parsed(HTMLParser):
    """A part's texts, links, images (their attributes) and the elements' classes."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.links: list[str] = []
        self.images: list[dict] = []
        self.texts: list[str] = []
        self.classes: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        self.classes.extend(found.get("class", "").split())
        if tag == "a":
            self.links.append(found["href"])
        if tag == "img":
            self.images.append(found)

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.texts.append(data.strip())


def lander_member(
    db: Session, name: str, age: int, joined: timedelta = timedelta(days=1), **profile
) -> Member:
    """A listed woman looking for men in Amsterdam with a main photo, who joined `joined` ago."""
    number = next(_made)
    member = make_member(
        db, f"{name.lower()}{number}@example.com", signup_date=datetime.now(UTC) - joined
    )
    born = date(date.today().year - age, 1, 1)
    place = {"city": "Amsterdam", "region": "NL-NH", "country": "NL"}
    edit_profile(db, member, name=name, date_of_birth=born, **{**place, **profile})
    photo = add_photo(db, member, f"l{number}", main=True)
    photo.created_at = datetime.now(UTC) - joined + timedelta(minutes=2)
    db.add(photo)
    db.commit()
    return member


def request(path: str, locale: str, **headers: str) -> PageRequest:
    return PageRequest(path, headers, SETTINGS, locale, None)
