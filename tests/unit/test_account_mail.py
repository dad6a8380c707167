"""The account e-mails: translated, HTML-escaped, with the link and the company footer."""

from datetime import date

import pytest
from babel.dates import format_date

from models.site_settings import SiteSettings
from services.account_mail import (
    ACTIVATION,
    EMAIL_CHANGE,
    PASSWORD_RESET,
    REACTIVATION,
    Recipient,
    compose,
    public_link,
)
from services.config import get_config
from translations.catalog import gettext
from translations.locales import LOCALES

SETTINGS = SiteSettings()
LINK = "https://amorly.example/api/activate.php?token=abc123&x=1"
ESCAPED_LINK = "https://amorly.example/api/activate.php?token=abc123&amp;x=1"
ERASE_ON = date(2025, 3, 1)


def _to(locale: str = "nl", name: str = "Ann") -> Recipient:
    return Recipient("ann@example.com", name, locale)


@pytest.mark.parametrize("locale", ["nl", "de"])
def test_subject_is_translated_and_names_the_site(locale: str) -> None:
    mail = compose(ACTIVATION, _to(locale), LINK, SETTINGS)
    assert mail.subject == f"{gettext(locale, ACTIVATION.subject)} – {SETTINGS.name}"
    assert mail.to == "ann@example.com"
    assert mail.from_name == SETTINGS.mail_name


@pytest.mark.parametrize("locale", ["nl", "de"])
def test_text_and_html_carry_the_translated_texts(locale: str) -> None:
    mail = compose(PASSWORD_RESET, _to(locale), LINK, SETTINGS)
    lead = gettext(locale, PASSWORD_RESET.lead, name="Ann", site=SETTINGS.name)
    button = gettext(locale, PASSWORD_RESET.button)
    assert lead in mail.text and lead in mail.html
    assert f"{button}:\n{LINK}" in mail.text
    assert button in mail.html


@pytest.mark.parametrize("locale", ["nl", "fi"])
def test_the_mail_declares_its_language(locale: str) -> None:
    mail = compose(ACTIVATION, _to(locale), LINK, SETTINGS)
    assert mail.language == locale
    assert mail.html.startswith(f'<!doctype html><html lang="{locale}"><head>')


@pytest.mark.parametrize("text", [ACTIVATION, PASSWORD_RESET, EMAIL_CHANGE, REACTIVATION])
def test_link_is_in_text_and_html_and_listed(text) -> None:
    mail = compose(text, _to(), LINK, SETTINGS, erase_on=ERASE_ON)
    assert LINK in mail.text
    assert f'href="{ESCAPED_LINK}"' in mail.html
    assert mail.links == (LINK,)


def test_html_escapes_the_name_and_the_text_part_keeps_it() -> None:
    mail = compose(ACTIVATION, _to(name="<b>Ann</b>"), LINK, SETTINGS)
    assert "<b>Ann</b>" not in mail.html
    assert "&lt;b&gt;Ann&lt;/b&gt;" in mail.html
    assert "<b>Ann</b>" in mail.text


def test_site_name_is_escaped_too() -> None:
    settings = SiteSettings(name='Love & "More"')
    mail = compose(ACTIVATION, _to(), LINK, settings)
    assert "Love &amp; &quot;More&quot;" in mail.html
    assert 'Love & "More"' in mail.text


@pytest.mark.parametrize("locale", ["nl", "de"])
def test_footer_names_the_company_and_its_kvk_number(locale: str) -> None:
    mail = compose(EMAIL_CHANGE, _to(locale), LINK, SETTINGS)
    register = gettext(locale, "Chamber of Commerce")
    company = (
        f"{SETTINGS.company_name} · {SETTINGS.company_address} · {SETTINGS.company_city} · "
        f"{register} {SETTINGS.company_kvk}"
    )
    assert company in mail.text and company in mail.html
    assert register != "Chamber of Commerce"
    questions = gettext(locale, "Questions? Write to {email}.", email=SETTINGS.support_email)
    assert questions in mail.text
    assert mail.text.index("--") < mail.text.index(company)


@pytest.mark.parametrize(
    ("locale", "written"), [("de", "1. März 2025"), ("nl", "1 maart 2025"), ("en", "March 1, 2025")]
)
def test_reactivation_mail_gives_the_erasure_date_in_the_members_language(
    locale: str, written: str
) -> None:
    mail = compose(REACTIVATION, _to(locale), LINK, SETTINGS, erase_on=ERASE_ON)
    assert format_date(ERASE_ON, format="long", locale=locale) == written
    assert written in mail.text and written in mail.html
    assert "{date}" not in mail.text


@pytest.mark.parametrize("locale", LOCALES)
def test_every_mail_fills_every_placeholder_in_every_language(locale: str) -> None:
    for text in (ACTIVATION, PASSWORD_RESET, EMAIL_CHANGE, REACTIVATION):
        mail = compose(text, _to(locale, "Zoë"), LINK, SETTINGS, erase_on=ERASE_ON)
        assert "{" not in mail.text and "}" not in mail.text, (locale, text.subject)
        assert SETTINGS.company_kvk in mail.text


def test_public_link_uses_the_public_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUBLIC_URL", "https://amorly.example/")
    get_config.cache_clear()
    try:
        assert public_link("/api/activate.php?token=t") == (
            "https://amorly.example/api/activate.php?token=t"
        )
    finally:
        monkeypatch.delenv("PUBLIC_URL")
        get_config.cache_clear()
