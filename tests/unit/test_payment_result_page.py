"""The payment result page (/transactions/{id}) as the browser gets it: a cancelled payment has
its own heading, the spec's 'Betaling mislukt' stays for a failed one, and a pending direct
debit says that it takes working days and when the credits come."""

from app.pages import transactions as page
from translations.catalog import browser_key, gettext
from translations.errors import PAYMENT_FAILED
from translations.locales import LOCALES

CANCELLED_HEADING = "Payment cancelled"


def _has(component: object, msgid: str) -> bool:
    return browser_key(None, msgid) in str(component)


def test_a_cancelled_payment_has_its_own_heading() -> None:
    result = page._result()
    assert _has(result, CANCELLED_HEADING) and _has(result, PAYMENT_FAILED)
    assert gettext("nl", CANCELLED_HEADING) == "Betaling geannuleerd"
    assert gettext("nl", PAYMENT_FAILED) == "Betaling mislukt"
    for locale in LOCALES:
        assert gettext(locale, CANCELLED_HEADING) != gettext(locale, PAYMENT_FAILED), locale


def test_a_pending_direct_debit_says_it_takes_working_days() -> None:
    note = page.DEBIT_PENDING_NOTE
    assert _has(page._pending(), note)
    assert "working days" in note and "credits arrive once it has been collected" in note
    assert "werkdagen" in gettext("nl", note) and "Werktage" in gettext("de", note)


def test_the_pending_note_says_we_collect_the_amount_in_every_language() -> None:
    """The site collects the debit, not the member's bank (issue 28's review), and every
    language has the note."""
    note = page.DEBIT_PENDING_NOTE
    assert "the date the amount will be collected" in note and "your bank" not in note
    for locale in LOCALES:
        assert locale == "en" or gettext(locale, note) != note, locale
