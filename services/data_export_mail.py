"""The mail with the download link of a member's data export, in the member's language."""

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_date, format_time, get_datetime_format

from models.data_export import DOWNLOAD_PATH
from models.member import Member, Profile, as_utc
from services.mail import OutgoingMail
from services.mail_frame import MailText, Recipient, public_link, write
from services.site_settings import current_settings
from translations.catalog import N_
from translations.locales import DEFAULT_LOCALE, supported

EXPORT_READY = MailText(
    N_("Your data is ready to download"),
    N_("Hello {name},"),
    N_(
        "The copy of your data you asked for on {site} is ready. Download it with the button "
        "below; you will be asked to log in if you are not."
    ),
    N_("Download my data"),
    N_(
        "The link works until {date}; after that we delete the file. Did you not ask for "
        "your data? Then change your password."
    ),
)


def download_link(token: str) -> str:
    return public_link(f"{DOWNLOAD_PATH}?token={token}")


def _zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def export_ready_mail(
    member: Member, profile: Profile | None, token: str, expires_at: datetime
) -> OutgoingMail:
    """The link and until when it works, in the member's own time zone."""
    locale = supported(member.language) or DEFAULT_LOCALE
    until = as_utc(expires_at).astimezone(_zone(member.time_zone))
    when = (
        get_datetime_format("long", locale=locale)
        .replace("'", "")
        .replace("{0}", format_time(until, "short", locale=locale))
        .replace("{1}", format_date(until, "long", locale=locale))
    )
    to = Recipient(member.email, profile.name if profile else "", locale)
    return write(EXPORT_READY, to, download_link(token), current_settings(), date=when)
