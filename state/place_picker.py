"""The one place and interest picker of signup, settings and search: a country among the site's
countries, then one of that country's regions, and interests from the site's vocabulary. Every
value the browser sends is checked against its vocabulary before it is used or stored."""

import reflex as rx

from models.attribute_labels import region_label_key
from models.regions import is_region_of
from models.site_settings import SiteSettings

ANY = "any"  # the search's choice of no country or no region


def toggled(chosen: list[str], item: str, allowed: list[str]) -> list[str]:
    """`chosen` without `item` if it was there, else with it added when `allowed` has it."""
    if item in chosen:
        return [i for i in chosen if i != item]
    return [*chosen, item] if item in allowed else chosen


class PlacePicker(rx.State, mixin=True):
    countries: list[str] = []
    country: str = ""
    region: str = ""
    region_kind: str = ""

    def _any_place(self) -> bool:
        """Whether "any" country or region may be chosen (the search's filters)."""
        return False

    def _offer_countries(self, settings: SiteSettings) -> None:
        self.countries = list(settings.countries)

    def _show_place(self, country: str, region: str) -> None:
        """Show `country` (one of `countries`, or "" for none) with its regions."""
        self.country, self.region = country, region
        self.region_kind = region_label_key(country)

    @rx.event
    def pick_country(self, country: str) -> None:
        if country == ANY and self._any_place():
            country = ""
        elif country not in self.countries:
            return
        if country != self.country:
            self._show_place(country, "")

    @rx.event
    def pick_region(self, region: str) -> None:
        if region == ANY and self._any_place():
            self.region = ""
        elif is_region_of(self.country, region):
            self.region = region


class InterestPicker(rx.State, mixin=True):
    interests: list[str] = []
    interest_options: list[str] = []

    def _offer_interests(self, settings: SiteSettings, chosen: list[str]) -> None:
        self.interest_options = list(settings.interests)
        self.interests = [i for i in chosen if i in self.interest_options]

    @rx.event
    def toggle_interest(self, interest: str) -> None:
        self.interests = toggled(self.interests, interest, self.interest_options)
