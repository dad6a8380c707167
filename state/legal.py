"""The facts the legal pages fill into their texts (models/legal/facts.py), in every language,
so a switch of language in place writes them the new language's way."""

import reflex as rx

from models.legal.facts import legal_facts
from services.site_settings import site_settings
from translations.locales import LOCALES


class LegalState(rx.State):
    facts: dict[str, dict[str, str]] = {}  # locale -> fact name -> as that language writes it

    @rx.event
    async def load(self) -> None:
        settings = await site_settings()
        self.facts = {
            locale: {name: str(value) for name, value in legal_facts(settings, locale).items()}
            for locale in LOCALES
        }
