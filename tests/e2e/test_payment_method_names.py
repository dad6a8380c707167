"""On a 375 px phone the payment methods' names on /credits wrap between words, never inside one
(fi "SEPA-suoraveloitus" broke as "SEPA-suoravelo | itus"; issue 28)."""

import pytest
from journeys import (
    NewMember,
    NewPage,
    logged_in_page,
    open_page,
    past_the_welcome_window,
)
from playwright.sync_api import Page, expect
from server import Server
from sqlalchemy import Engine

PHONE = (375, 740)

# Each label's breaks between lines: the characters on either side of every break. Chromium
# without a hyphenation dictionary (the headless one) cannot hyphenate, so a break between two
# letters is a word cut in two.
LINE_BREAKS_JS = """
spans => spans.map(span => {
  const text = span.firstChild, range = document.createRange(), cuts = [];
  let top = null;
  for (let i = 0; i < text.length; i++) {
    range.setStart(text, i); range.setEnd(text, i + 1);
    const rect = range.getClientRects()[0];
    if (!rect) continue;
    if (top !== null && rect.top > top + 2) cuts.push(text.data.slice(i - 1, i + 1));
    top = rect.top;
  }
  return {label: text.data, cuts};
})
"""


def _words_cut(page: Page) -> list[dict]:
    expect(page.locator(".method-choice").first).to_be_visible()
    lines = page.locator(".method-choice > span").evaluate_all(LINE_BREAKS_JS)
    return [line for line in lines if any(cut.isalpha() for cut in line["cuts"])]


@pytest.mark.parametrize("locale", ["fi", "nb"])
def test_method_names_wrap_between_words_on_a_phone(
    new_page: NewPage, site: Server, site_db: Engine, member: NewMember, locale: str
) -> None:
    account = past_the_welcome_window(site_db, member(locale))
    page = logged_in_page(new_page, site, account)
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    open_page(page, site, "/credits")
    assert page.evaluate("document.documentElement.lang") == locale
    assert _words_cut(page) == []
    overflows = page.locator(".method-choice > span").evaluate_all(
        "spans => spans.map(span => span.scrollWidth - span.clientWidth)"
    )
    assert max(overflows) <= 0  # and no name sticks out of its place instead
