"""The data export: asked with the password once a day, the archive's contents, the mailed link,
the download (token and owner), the forgetting after 48 hours and the cleaning of failed builds
(docs/data-rights.md)."""

import csv
import io
import json
import os
import zipfile
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlmodel import Session, func, select

import actions.data_export as data_export
from actions.data_export import BUILD_EXPORT, build_export, request_export
from actions.effects import settle
from actions.mail import MailOut
from actions.runner import act_hashing
from actions.viewer import SESSION_COOKIE, Viewer
from models.account_errors import AccountError
from models.attempts import ClientFailure, attempt_key
from models.auth_session import start_session
from models.chat import Message
from models.data_export import ONE_A_DAY, DataExport, start_export
from models.export_datasets import DATASETS
from models.login import WRONG_PASSWORD
from models.member import Member, utcnow
from models.postback import Postback
from models.routes import login_url
from models.tickets import Ticket, TicketMessage
from models.traffic import TrafficClick
from services import jobs
from services.account_purge import purge_expired_accounts
from services.config import get_config
from services.export_archive import DESCRIPTIONS, TITLE, pseudonyms
from services.site_settings import current_settings
from tests.data_rights import IBAN, MY_MESSAGE, OTHER_NAME, THEIR_MESSAGE, member_with_everything
from tests.factories import PASSWORD, committed, make_member_with_password
from translations.catalog import gettext
from translations.errors import TOO_MANY_LOGIN_ATTEMPTS

CLIENT = "203.0.113.9"


def _export(db: Session, member_id: int) -> tuple[DataExport, MailOut]:
    export = committed(db, start_export, member_id, PASSWORD, CLIENT)
    done = build_export(export.id, member_id)
    db.expire_all()
    (mail,) = done.effects
    return db.get(DataExport, export.id), mail


def export_dir() -> Path:
    """The local export folder (no OBJECT_STORE_URL in these tests)."""
    return get_config().media_dir / "exports"


def _archive(export: DataExport) -> zipfile.ZipFile:
    return zipfile.ZipFile(export_dir() / export.file_name)


def _dataset(archive: zipfile.ZipFile, name: str) -> list[dict]:
    return json.loads(archive.read(f"{name}.json"))


def _token(mail: MailOut) -> str:
    (link,) = mail.mail.links
    return parse_qs(urlsplit(link).query)["token"][0]


@pytest.fixture
def anna(db, outbox):
    """The member with data in every table, her photo's original on disk, Dutch."""
    everything = member_with_everything(db, get_config().media_dir / "photos")
    everything.me.language = "nl"
    db.add(everything.me)
    db.commit()
    return everything


def test_the_archive_holds_every_dataset_as_json_and_csv(db, anna) -> None:
    export, _mail = _export(db, anna.me.id)
    archive = _archive(export)
    for dataset in DATASETS:
        rows = _dataset(archive, dataset.name)
        table = list(csv.DictReader(io.StringIO(archive.read(f"{dataset.name}.csv").decode())))
        assert len(table) == len(rows), dataset.name
    assert archive.read(f"photos/{anna.photo_file}") == b"\xff\xd8original anna photo"


def test_messages_ledger_and_mandate_are_in_it(db, anna) -> None:
    archive = _archive(_export(db, anna.me.id)[0])
    messages = _dataset(archive, "messages")
    assert [(m["from"] == "me", m["text"]) for m in messages] == [
        (True, MY_MESSAGE),
        (False, THEIR_MESSAGE),
    ]
    credits = _dataset(archive, "credits")
    assert sorted((c["amount"], c["reason"]) for c in credits) == [
        (-5, "message"),
        (100, "purchase"),
    ]
    (mandate,) = _dataset(archive, "mandates")
    assert mandate["iban"] == "NL91 **** **** **** 4300"
    assert _dataset(archive, "refunds")[0]["amount_cents"] == 995
    assert _dataset(archive, "login_history")[0]["device"] == "Firefox · Linux"


def test_the_postbacks_of_the_members_click_are_in_it_and_no_one_elses(db, anna) -> None:
    theirs = TrafficClick(network="adnet", member_id=anna.other.id)
    db.add(theirs)
    db.commit()
    db.add(Postback(click_id=theirs.id, network="adnet", event="sale", tid="c" * 16, url="x"))
    db.commit()
    (postback,) = _dataset(_archive(_export(db, anna.me.id)[0]), "partner_postbacks")
    assert (postback["event"], postback["url"], postback["status"]) == (
        "lead", "https://x.io/", "pending"
    )  # fmt: skip


def test_other_members_appear_only_as_a_stable_pseudonym(db, anna) -> None:
    first = _archive(_export(db, anna.me.id)[0])
    alias = pseudonyms(anna.me.id)(anna.other.id)
    assert alias.startswith("member ") and len(alias) == len("member ") + 10
    theirs = [m["from"] for m in _dataset(first, "messages") if m["from"] != "me"]
    assert theirs == [alias]
    assert {r["member"] for r in _dataset(first, "likes") + _dataset(first, "reports")} == {alias}
    assert _dataset(first, "signup_source")[0]["signed_up_from_profile_of"] == alias
    # the next export names them the same; another member's export would not
    assert pseudonyms(anna.me.id)(anna.other.id) == alias
    assert pseudonyms(anna.other.id)(anna.me.id) != alias
    everything = b"".join(first.read(name) for name in first.namelist())
    for secret in (OTHER_NAME, "bertram@example.com", IBAN):
        assert secret.encode() not in everything


def test_the_readme_speaks_the_members_language(db, anna) -> None:
    readme = _archive(_export(db, anna.me.id)[0]).read("README.txt").decode()
    site = current_settings().name
    assert readme.startswith(gettext("nl", TITLE, site=site))
    assert gettext("nl", TITLE, site=site) != gettext("en", TITLE, site=site)
    for dataset in DATASETS:
        assert f"{dataset.name}.json" in readme and DESCRIPTIONS[dataset.name]


def test_the_mail_has_the_link_in_the_members_language(db, anna) -> None:
    export, mail = _export(db, anna.me.id)
    assert mail.mail.to == "anna@example.com" and mail.mail.language == "nl"
    assert mail.mail.links[0].startswith(f"{get_config().public_url}/api/data-export.php?token=")
    assert export.expires_at - export.ready_at == timedelta(hours=48)


def test_a_wrong_password_is_refused(db) -> None:
    member = make_member_with_password(db)
    with pytest.raises(AccountError) as refused:
        start_export(db, member.id, "not my password", CLIENT)
    assert refused.value.message == WRONG_PASSWORD


def test_one_request_a_day(db) -> None:
    member = make_member_with_password(db)
    first = committed(db, start_export, member.id, PASSWORD, CLIENT)
    with pytest.raises(AccountError) as refused:
        start_export(db, member.id, PASSWORD, CLIENT)
    assert refused.value.message == ONE_A_DAY
    db.rollback()
    first = db.get(DataExport, first.id)
    first.requested_at = utcnow() - timedelta(hours=24, minutes=1)
    db.add(first)
    db.commit()
    assert committed(db, start_export, member.id, PASSWORD, CLIENT).id != first.id


def test_the_download_needs_the_token_and_its_owner(db, anna, client) -> None:
    _export_row, mail = _export(db, anna.me.id)
    path = f"/api/data-export.php?token={_token(mail)}"
    visitor = client.get(path, follow_redirects=False)
    assert visitor.status_code == 303
    assert visitor.headers["location"] == login_url(path)
    client.cookies.set(SESSION_COOKIE, committed(db, start_session, anna.other.id))
    someone_else = client.get(path, follow_redirects=False)
    assert someone_else.headers["location"] == "/settings?tab=account"
    client.cookies.set(SESSION_COOKIE, committed(db, start_session, anna.me.id))
    wrong = client.get("/api/data-export.php?token=guessed", follow_redirects=False)
    assert wrong.headers["location"] == "/settings?tab=account"
    owner = client.get(path)
    assert owner.status_code == 200 and owner.headers["content-type"] == "application/zip"
    assert owner.headers["cache-control"] == "no-store"
    assert MY_MESSAGE in zipfile.ZipFile(io.BytesIO(owner.content)).read("messages.json").decode()


def _age(db: Session, export_id: int, **fields) -> None:
    export = db.get(DataExport, export_id)
    for name, value in fields.items():
        setattr(export, name, value)
    db.add(export)
    db.commit()


def test_after_48_hours_the_hourly_purge_forgets_the_file_and_link(db, anna, client) -> None:
    export, mail = _export(db, anna.me.id)
    file = export_dir() / export.file_name
    purge_expired_accounts()
    assert file.exists()
    _age(db, export.id, expires_at=export.ready_at - timedelta(seconds=1))  # 48 h have passed
    purge_expired_accounts()
    db.expire_all()
    forgotten = db.get(DataExport, export.id)
    assert (forgotten.token_hash, forgotten.file_name) == (None, None) and not file.exists()
    assert forgotten.requested_at is not None  # still dates the last request
    client.cookies.set(SESSION_COOKIE, committed(db, start_session, anna.me.id))
    answer = client.get(f"/api/data-export.php?token={_token(mail)}", follow_redirects=False)
    assert answer.headers["location"] == "/settings?tab=account"


def test_a_build_that_failed_blocks_the_next_request_for_30_minutes_only(db, outbox) -> None:
    member = make_member_with_password(db)
    failed = committed(db, start_export, member.id, PASSWORD, CLIENT).id  # never built
    with pytest.raises(AccountError) as refused:
        start_export(db, member.id, PASSWORD, CLIENT)
    assert refused.value.message == ONE_A_DAY
    db.rollback()
    _age(db, failed, requested_at=utcnow() - timedelta(minutes=31))
    building = committed(db, start_export, member.id, PASSWORD, CLIENT).id
    purge_expired_accounts()  # drops the failed request, not the one still building
    db.expire_all()
    assert db.get(DataExport, failed) is None and db.get(DataExport, building) is not None


def test_a_finished_export_counts_for_the_whole_day(db, anna) -> None:
    export, _mail = _export(db, anna.me.id)
    _age(db, export.id, requested_at=utcnow() - timedelta(hours=23, minutes=59))
    with pytest.raises(AccountError) as refused:
        start_export(db, anna.me.id, PASSWORD, CLIENT)
    assert refused.value.message == ONE_A_DAY


def test_a_wrong_password_counts_for_the_account_and_the_client(db) -> None:
    member = make_member_with_password(db)
    with pytest.raises(AccountError):
        start_export(db, member.id, "not my password", CLIENT)
    db.rollback()
    failures = select(func.count()).where(ClientFailure.client_hash == attempt_key(CLIENT))
    assert db.exec(failures).one() == 1
    assert db.get(Member, member.id).failed_logins == 1
    db.add_all(ClientFailure(client_hash=attempt_key(CLIENT)) for _ in range(19))
    db.commit()  # 20 wrong passwords from one client in 15 minutes: a log-in would be refused
    with pytest.raises(AccountError) as refused:
        start_export(db, member.id, PASSWORD, CLIENT)
    assert refused.value.message == TOO_MANY_LOGIN_ATTEMPTS
    assert start_export(db, member.id, PASSWORD, "198.51.100.4").id is not None


def _written(name: str, hours_ago: float) -> None:
    path = export_dir() / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"zip")
    written = (utcnow() - timedelta(hours=hours_ago)).timestamp()
    os.utime(path, (written, written))


def test_the_hourly_purge_deletes_files_no_export_names_once_an_hour_old(db, anna) -> None:
    export, _mail = _export(db, anna.me.id)
    _written(".failed.zip.part", 1.1)
    _written(".building.zip.part", 0.9)
    _written("erased-meanwhile.zip", 1.1)
    _written("just-built.zip", 0.9)
    os.utime(export_dir() / export.file_name, (0, 0))  # old, but a row names it
    purge_expired_accounts()
    left = sorted(path.name for path in export_dir().iterdir())
    assert left == sorted([".building.zip.part", "just-built.zip", export.file_name])


def test_others_messages_removed_by_moderation_are_exported_without_their_text(db, anna) -> None:
    for message in db.exec(select(Message)):
        message.removed_at = utcnow()
        db.add(message)
    db.commit()
    messages = _dataset(_archive(_export(db, anna.me.id)[0]), "messages")
    assert [(m["from"] == "me", m["text"]) for m in messages] == [(True, MY_MESSAGE), (False, "")]
    assert all(m["removed_by_moderation_at"] for m in messages)


def test_tickets_sent_from_the_accounts_address_without_logging_in_are_exported(db, anna) -> None:
    for reference, email in (("T-2", "anna@example.com"), ("T-3", "bertram@example.com")):
        ticket = Ticket(reference=reference, email=email, topic="account")
        db.add(ticket)
        db.flush()
        db.add(TicketMessage(ticket_id=ticket.id, author="member", body=f"From {email}"))
    db.commit()
    tickets = _dataset(_archive(_export(db, anna.me.id)[0]), "customer_service")
    assert sorted({t["reference"] for t in tickets}) == ["T-1", "T-2"]


def test_an_account_erased_meanwhile_gets_no_archive(db, outbox) -> None:
    member = make_member_with_password(db)
    export = committed(db, start_export, member.id, PASSWORD, CLIENT)
    db.delete(db.get(DataExport, export.id))
    db.commit()
    assert build_export(export.id, member.id).effects == ()
    assert list(export_dir().glob("*")) == []
    assert db.get(Member, member.id) is not None


def test_a_build_run_again_after_a_crash_mails_no_second_link(db, outbox) -> None:
    """The job ran to the commit of the link and its mail, then the worker died: the engine runs
    it again, which finds the export built."""
    member = make_member_with_password(db)
    export, _ = _export(db, member.id)
    assert build_export(export.id, member.id).effects == ()
    assert [path.name for path in export_dir().iterdir()] == [export.file_name]


async def test_a_build_that_failed_is_run_again_by_the_job_engine(
    db, outbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request defers the build in its transaction; the first build fails (a full disk), the
    engine runs it again (on PostgreSQL procrastinate, after its delay, here none)."""
    kind = jobs.kinds()[BUILD_EXPORT]
    monkeypatch.setitem(jobs._kinds, BUILD_EXPORT, jobs.JobKind(kind.name, kind.run, (0.0,)))
    real, tries = data_export.write_archive, []

    def full_once(*args) -> None:
        tries.append(args[0])
        if len(tries) == 1:
            raise OSError("no space left on device")
        real(*args)

    monkeypatch.setattr(data_export, "write_archive", full_once)
    member = make_member_with_password(db)
    viewer = Viewer(member.id, member.status, member.language, False)
    await act_hashing(request_export, viewer, PASSWORD, CLIENT)
    await settle()
    await settle()  # PostgreSQL: the retry, due at once
    assert len(tries) == 2 and len(outbox()) == 1
