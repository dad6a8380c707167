import pytest

from translations.locales import (
    cookie_locale,
    country_from_accept_language,
    parse_accept_language,
    resolve_locale,
    supported,
)


def test_cookie_beats_account_browser_and_domain() -> None:
    assert resolve_locale("de", "fr", "it-IT,it;q=0.9", "es") == "de"


def test_account_beats_browser() -> None:
    assert resolve_locale(None, "fr", "it-IT", "es") == "fr"


def test_browser_picks_first_supported_by_quality() -> None:
    assert resolve_locale(None, None, "ja;q=1, sv;q=0.4, pl;q=0.8", "es") == "pl"


def test_domain_language_by_its_first_two_letters() -> None:
    assert resolve_locale(None, None, "ja, zh", "nl_BE") == "nl"


def test_default_is_english() -> None:
    assert resolve_locale(None, None, "ja", "xx") == "en"
    assert resolve_locale("", "", "", "") == "en"


@pytest.mark.parametrize("tag", ["no", "nn-NO", "nb-NO"])
def test_norwegian_tags_mean_bokmal(tag: str) -> None:
    assert supported(tag) == "nb"


def test_unsupported_or_garbage_tags() -> None:
    assert supported("zz") is None
    assert supported(None) is None
    assert parse_accept_language("de;q=abc, fr") == ["fr"]
    assert parse_accept_language("de;q=0, fr") == ["fr"]


def test_country_from_browser_region() -> None:
    assert country_from_accept_language("nl-NL,nl;q=0.9") == "NL"
    assert country_from_accept_language("en") is None


@pytest.mark.parametrize(
    ("header", "locale"),
    [("auth.session=x; i18n_redirected=de", "de"), ("i18n_redirected=nb-NO", "nb"),
     ("i18n_redirected=xx", ""), ('i18n_redirected="<script>"', ""), ("auth.session=x", ""),
     ("", ""), (None, "")],
)  # fmt: skip
def test_the_locale_cookie_of_a_cookie_header_is_a_supported_locale(header, locale) -> None:
    assert cookie_locale(header) == locale
