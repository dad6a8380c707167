"""The data export's zip: each dataset as JSON and as CSV, the original photos, and a README in
the member's language. Archives live in the `exports` folder of the photo store
(services/photo_store.py: DATA_DIR/media/exports or the bucket, so any instance can hand out
what a job worker built), outside any folder the site serves; only the download route
(app/data_export_api.py) hands one out. The hourly purge
(services/account_purge.py) deletes expired archives and strays."""

import csv
import hashlib
import hmac
import io
import json
import secrets
import zipfile
from collections.abc import Collection, Iterable
from datetime import datetime, timedelta

from babel.dates import format_date

from models.export_datasets import Alias, Row, photo_path
from services.photo_store import export_store, photo_store
from services.server_keys import derived_key
from translations.catalog import N_, gettext

TITLE = N_("Your data on {site}")
INTRO = N_(
    "This archive holds a copy of the personal data {site} keeps about you, made on {date} at "
    "your request (GDPR Articles 15 and 20)."
)
FORMATS = N_(
    "Each kind of data is in two files with the same content: a JSON file for programs and a "
    "CSV file for spreadsheets. Times are in UTC. Your photos are in the folder photos, as you "
    "uploaded them."
)
PSEUDONYMS = N_(
    "Other members appear only as “member” followed by a code. The same code always stands "
    "for the same member, so you can follow a conversation, but it does not tell who they are."
)
CONTENTS = N_("Contents")
QUESTIONS = N_("Questions about your data? Write to {email}.")
DESCRIPTIONS = {
    "account": N_("your account: e-mail address, language, status and settings"),
    "profile": N_("your profile as other members see it"),
    "photos": N_("your photos and their review status"),
    "conversations": N_("your conversations and who started them"),
    "messages": N_("the messages in your conversations, sent and received"),
    "likes": N_("the likes you gave and received"),
    "matches": N_("your matches"),
    "swipes": N_("your choices in the swipe game"),
    "blocks": N_("the members you blocked"),
    "reports": N_("the reports you made and what was decided about them"),
    "decisions": N_("moderation decisions about you or your content"),
    "appeals": N_("your appeals against moderation decisions"),
    "credits": N_("your credits: every credit added or spent, with the reason"),
    "orders": N_("your purchases of credits"),
    "refunds": N_("the refunds of your purchases"),
    "mandates": N_("your direct debit mandates (the IBAN masked)"),
    "discount_codes": N_("the discount codes made for you"),
    "discount_redemptions": N_("the discount codes you used"),
    "login_history": N_("your log-ins: time, address and device"),
    "push_subscriptions": N_("the browsers that receive your push notifications"),
    "notification_mails": N_("the notification e-mails we sent you"),
    "consents": N_("the versions of the terms and privacy statement you accepted"),
    "signup_source": N_("where you came from when you signed up"),
    "signup_steps": N_("the steps of your signup"),
    "partner_click": N_(
        "the partner's link you came through before signing up: its codes, the page, your "
        "language and browser"
    ),
    "partner_postbacks": N_(
        "what we reported to that partner: your signup, confirmed address, first purchase and "
        "its refund, each with the address it was sent to"
    ),
    "search_preferences": N_("your search settings"),
    "match_preferences": N_("your matchfinder wishes"),
    "customer_service": N_("your messages to customer service and the answers"),
    "data_exports": N_("your requests for a copy of your data"),
}
PSEUDONYM_DIGITS = 10
STRAY_AFTER = timedelta(hours=1)  # a build names its file seconds after writing it


def new_archive_name() -> str:
    """Unguessable, though only the download route (which checks the owner) ever reads it."""
    return f"{secrets.token_hex(16)}.zip"


def pseudonyms(member_id: int) -> Alias:
    """Other members as "member <code>": an HMAC of their id under a key of this member's own,
    the same in every export of theirs and unrelated to any other member's codes."""
    key = derived_key(f"data-export-pseudonyms:{member_id}")

    def alias(other_id: int | None) -> str | None:
        if other_id is None:
            return None
        digest = hmac.new(key, str(other_id).encode(), hashlib.sha256).hexdigest()
        return f"member {digest[:PSEUDONYM_DIGITS]}"

    return alias  # type: ignore[return-value]


def readme(locale: str, site: str, support_email: str, made_at: datetime) -> str:
    made_on = format_date(made_at, "long", locale=locale)
    lines = [
        gettext(locale, TITLE, site=site),
        "",
        gettext(locale, INTRO, site=site, date=made_on),
        "",
        gettext(locale, FORMATS),
        "",
        gettext(locale, PSEUDONYMS),
        "",
        gettext(locale, CONTENTS),
        *(
            f"- {name}.json, {name}.csv: {gettext(locale, text)}"
            for name, text in DESCRIPTIONS.items()
        ),
        "",
        gettext(locale, QUESTIONS, email=support_email),
    ]
    return "\n".join(lines) + "\n"


def _csv(rows: list[Row]) -> str:
    """One column per key (in first-seen order); lists and objects as JSON text."""
    columns = list(dict.fromkeys(key for row in rows for key in row))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(column)) for column in columns])
    return out.getvalue()


def _cell(value: object) -> object:
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else value


def write_archive(
    name: str, datasets: dict[str, list[Row]], photos: Iterable[str], readme_text: str
) -> None:
    """The zip `name` in the export store, built in memory and stored whole, so a half-written
    archive is never handed out. Photos missing from the photo store are left out."""
    store, buffer = photo_store(), io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", readme_text)
        for dataset, rows in datasets.items():
            archive.writestr(f"{dataset}.json", json.dumps(rows, ensure_ascii=False, indent=2))
            archive.writestr(f"{dataset}.csv", _csv(rows))
        for filename in photos:
            if (content := store.get(filename)) is not None:
                archive.writestr(photo_path(filename), content)
    export_store().put(name, buffer.getvalue())


def delete_archives(names: Iterable[str]) -> None:
    for name in names:
        export_store().delete(name)


def delete_strays(named: Collection[str], now: datetime) -> int:
    """Delete the export store's files that no export row names once they are STRAY_AFTER old:
    the archive of a build whose row went (an erased account, a build that outlasted its time)
    or that failed between storing it and naming it; how many."""
    store, cutoff = export_store(), now - STRAY_AFTER  # `now` in UTC, as models/member.utcnow
    strays = [n for n in store.names() if n not in named and _written_before(n, cutoff)]
    for name in strays:
        store.delete(name)
    return len(strays)


def _written_before(name: str, cutoff: datetime) -> bool:
    stored = export_store().stat(name)
    return stored is not None and stored.modified < cutoff  # None: deleted meanwhile
