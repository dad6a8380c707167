"""A member requests an export, gets the mail, downloads the zip, and it holds their messages and
ledger (docs/data-rights.md), in English and in Polish."""

import json
import zipfile

import pytest
from journeys import (
    PASSWORD,
    create_account,
    eventually,
    expect,
    logged_in_page,
    mails_to,
    open_page,
)
from sqlalchemy import Engine
from sqlmodel import Session

from models.chat import ChatSide, Conversation, Message
from models.credits import CreditEntry
from services.data_export_mail import EXPORT_READY
from services.export_archive import TITLE
from services.mail import links_in
from translations.catalog import gettext

MINE, THEIRS = "See you at the station at eight?", "Yes, under the clock!"


def _history(engine: Engine, member_id: int, other_id: int) -> None:
    """A conversation of two messages and two ledger entries."""
    with Session(engine) as db:
        chat = Conversation(member_a=member_id, member_b=other_id, started_by=member_id)
        db.add(chat)
        db.flush()
        db.add_all(
            [
                ChatSide(conversation_id=chat.id, member_id=member_id),
                ChatSide(conversation_id=chat.id, member_id=other_id),
                Message(conversation_id=chat.id, sender_id=member_id, body=MINE, client_id="e1"),
                Message(conversation_id=chat.id, sender_id=other_id, body=THEIRS, client_id="e2"),
                CreditEntry(
                    member_id=member_id, amount=40, reason="purchase", reference=f"b{chat.id}"
                ),
                CreditEntry(
                    member_id=member_id, amount=-5, reason="message", reference=f"m{chat.id}"
                ),
            ]
        )
        db.commit()


@pytest.mark.parametrize("locale", ["en", "pl"])
def test_a_member_downloads_their_data(new_page, site, site_db, member, locale, tmp_path) -> None:
    account = member(locale)
    other = create_account(site_db, name="Oskar Nowak")
    _history(site_db, account.member_id, other.member_id)
    page = logged_in_page(new_page, site, account)
    open_page(page, site, "/settings?tab=account")
    section = page.get_by_test_id("export-section")
    section.locator("#field-export_password").fill(PASSWORD)
    section.get_by_test_id("request-export").click()
    expect(section.get_by_test_id("export-requested")).to_be_visible()

    subject = gettext(locale, EXPORT_READY.subject)
    mail = eventually(
        lambda: [m for m in mails_to(site, account.email) if subject in str(m["Subject"])],
        "the export's mail",
    )[0]
    (link,) = [link for link in links_in(mail) if "/api/data-export.php?token=" in link]
    with page.expect_download() as started:
        page.evaluate(f"window.location.assign({json.dumps(link)})")
    archive = zipfile.ZipFile(started.value.path())

    messages = json.loads(archive.read("messages.json"))
    assert [m["text"] for m in messages] == [MINE, THEIRS]
    assert messages[0]["from"] == "me" and messages[1]["from"].startswith("member ")
    ledger = json.loads(archive.read("credits.json"))
    assert {(e["amount"], e["reason"]) for e in ledger} >= {(40, "purchase"), (-5, "message")}
    readme = archive.read("README.txt").decode()
    title_start = gettext(locale, TITLE, site="{site}").split("{site}")[0]
    assert readme.startswith(title_start) and title_start.strip()
    assert "Oskar" not in b"".join(archive.read(n) for n in archive.namelist()).decode("latin-1")
