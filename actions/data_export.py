"""The member's data export: the request (password checked, once in 24 hours), the build as a
job deferred in the request's transaction (services/jobs.py: it runs once that committed, and
again after a crash or a failure), the mail with the link, and the download (the hourly
forgetting is in services/account_purge.py). docs/data-rights.md."""

from actions.mail import mailed
from actions.runner import Done, act
from actions.viewer import Viewer
from models.data_export import DataExport, downloadable_export, finish_export, start_export
from models.export_datasets import DATASETS, photo_files
from models.member import Member, Profile, utcnow
from models.site_settings import company_info
from services.data_export_mail import export_ready_mail
from services.database import db_session, transaction
from services.export_archive import (
    delete_archives,
    new_archive_name,
    pseudonyms,
    readme,
    write_archive,
)
from services.jobs import defer, job
from services.photo_store import export_store
from services.site_settings import current_settings
from translations.locales import DEFAULT_LOCALE, supported

BUILD_EXPORT = "build_export"
# Seconds before building again after a failure; all within BUILD_TIME, after which the request
# no longer counts and the purge drops it.
BUILD_DELAYS = (30.0, 120.0, 600.0)


def request_export(viewer: Viewer, password: str, client: str) -> Done[None]:
    """Run with `act_hashing` (the password). AccountError for a wrong password (counted for
    the account and for `client`, the address key) or a request within 24 hours of the last;
    the archive is built once this commits."""
    with transaction() as db:
        export = start_export(db, viewer.member_id, password, client)
        defer(db, BUILD_EXPORT, export_id=export.id, member_id=viewer.member_id)
    return Done(None)


@job(BUILD_EXPORT, BUILD_DELAYS)
async def _build(export_id: int, member_id: int) -> None:
    await act(build_export, export_id, member_id)


def build_export(export_id: int, member_id: int) -> Done[None]:
    """Read the member's datasets, write the zip, then record it and mail the link. A member
    erased meanwhile gets nothing, and the file goes again; an export already built (the job
    run again after a crash) is left as it is."""
    with db_session() as db:
        export = db.get(DataExport, export_id)
        if export is None or export.ready_at is not None:
            return Done(None)
        member = db.get(Member, member_id)
        locale = supported(member.language) or DEFAULT_LOCALE
        alias = pseudonyms(member_id)
        datasets = {d.name: d.rows(db, member_id, alias) for d in DATASETS}
        photos = photo_files(db, member_id)
    settings = current_settings()
    text = readme(locale, settings.name, company_info(settings).support_email, utcnow())
    name = new_archive_name()
    write_archive(name, datasets, photos, text)
    with transaction() as db:
        token = finish_export(db, export_id, name)
        if token is None:
            delete_archives([name])
            return Done(None)
        export, member = db.get(DataExport, export_id), db.get(Member, member_id)
        mail = export_ready_mail(member, db.get(Profile, member_id), token, export.expires_at)
        out = mailed(db, mail)
    return Done(None, (out,))


def export_download(viewer: Viewer, token: str) -> bytes | None:
    """The archive the link names when it is this member's and still valid; else None."""
    with db_session() as db:
        export = downloadable_export(db, viewer.member_id, token)
        name = export.file_name if export else None
    return export_store().get(name) if name else None
