"""The account e-mails (activation, password reset, e-mail change, reactivation), written in
the member's language as HTML plus text, with the company's details in the footer."""

from dataclasses import dataclass
from datetime import date
from html import escape

from babel.dates import format_date
from sqlmodel import Session

from models.deletion import GRACE_PERIOD
from models.member import Member, Profile
from models.routes import url
from models.site_settings import SiteSettings, company_info
from services.config import get_config
from services.mail import OutgoingMail
from services.site_settings import current_settings
from translations.catalog import N_, gettext

ACTIVATE_PATH = "/api/activate.php?token="
REACTIVATE_PATH = "/api/reactivate.php?token="
RESET_PATH = url("reset-password-do") + "?token="
MAIL_CHANGE_PATH = url("mail-change-do") + "?token="


@dataclass(frozen=True)
class MailText:
    subject: str
    lead: str
    body: str
    button: str
    note: str


ACTIVATION = MailText(
    N_("Confirm your e-mail address"),
    N_("Welcome to {site}, {name}!"),
    N_(
        "Confirm your e-mail address to activate your account. Then other members can "
        "find you and write to you."
    ),
    N_("Confirm e-mail address"),
    N_("This link works once and is valid for 7 days."),
)
PASSWORD_RESET = MailText(
    N_("Reset your password"),
    N_("Hello {name},"),
    N_(
        "Someone asked to reset the password of your {site} account. If that was you, "
        "choose a new password with the button below."
    ),
    N_("Choose a new password"),
    N_(
        "This link works once and is valid for one hour. If you did not ask for it, "
        "ignore this e-mail: your password stays the same."
    ),
)
EMAIL_CHANGE = MailText(
    N_("Confirm your new e-mail address"),
    N_("Hello {name},"),
    N_("Confirm that you want to use this address for your {site} account from now on."),
    N_("Confirm new address"),
    N_(
        "This link works once and is valid for 24 hours. If you did not ask for this "
        "change, ignore this e-mail."
    ),
)
REACTIVATION = MailText(
    N_("Reactivate your account"),
    N_("Hello {name},"),
    N_(
        "Your account has been deleted and will be erased for good on {date}. Changed "
        "your mind? Reactivate it with the button below."
    ),
    N_("Reactivate my account"),
    N_("Until then nobody can see your profile."),
)
FOOTER_REASON = N_("You receive this e-mail because this address is used for an account on {site}.")
CHAMBER_OF_COMMERCE = N_("Chamber of Commerce")
FOOTER_QUESTIONS = N_("Questions? Write to {email}.")


@dataclass(frozen=True)
class Recipient:
    email: str
    name: str
    locale: str


def public_link(path: str) -> str:
    return f"{get_config().public_url}{path}"


def account_mail(
    db: Session, member: Member, text: MailText, path: str, token: str, **extra
) -> OutgoingMail:
    """The mail with its link, addressed by the member's profile name in their language."""
    profile = db.get(Profile, member.id)
    to = Recipient(extra.pop("to", member.email), profile.name if profile else "", member.language)
    return compose(text, to, public_link(path + token), current_settings(), **extra)


def reactivation_mail(db: Session, member: Member, token: str) -> OutgoingMail:
    """The reactivation link, with the day the account will be erased without it."""
    erase_on = (member.deleted_at + GRACE_PERIOD).date()
    return account_mail(db, member, REACTIVATION, REACTIVATE_PATH, token, erase_on=erase_on)


def compose(
    text: MailText, to: Recipient, link: str, settings: SiteSettings, erase_on: date | None = None
) -> OutgoingMail:
    values = {"site": settings.name, "name": to.name}
    if erase_on is not None:
        values["date"] = format_date(erase_on, format="long", locale=to.locale)
    parts = {f: gettext(to.locale, getattr(text, f), **values) for f in MailText.__annotations__}
    footer = _footer_lines(settings, to.locale)
    return OutgoingMail(
        to=to.email,
        subject=f"{parts['subject']} – {settings.name}",
        text=_plain(parts, link, footer),
        html=_html(parts, link, footer),
        from_name=settings.mail_name,
        links=(link,),
    )


def _footer_lines(settings: SiteSettings, locale: str) -> list[str]:
    info = company_info(settings)
    return [
        gettext(locale, FOOTER_REASON, site=settings.name),
        gettext(locale, FOOTER_QUESTIONS, email=info.support_email),
        f"{info.name} · {info.address} · {info.city} · "
        f"{gettext(locale, CHAMBER_OF_COMMERCE)} {info.kvk}",
    ]


def _plain(parts: dict[str, str], link: str, footer: list[str]) -> str:
    lines = [parts["lead"], "", parts["body"], "", f"{parts['button']}:", link, "", parts["note"]]
    return "\n".join([*lines, "", "--", *footer]) + "\n"


def _html(parts: dict[str, str], link: str, footer: list[str]) -> str:
    e = {key: escape(value) for key, value in parts.items()}
    href = escape(link, quote=True)
    foot = "<br>".join(escape(line) for line in footer)
    return (
        '<!doctype html><html><body style="margin:0;background:#f6f1fa;'
        'font-family:Arial,Helvetica,sans-serif;color:#2a1248">'
        '<div style="max-width:560px;margin:0 auto;padding:32px 24px">'
        f'<h1 style="font-size:22px">{e["lead"]}</h1>'
        f'<p style="font-size:16px;line-height:1.5">{e["body"]}</p>'
        f'<p style="margin:28px 0"><a href="{href}" style="background:#f0506e;color:#fff;'
        'padding:12px 22px;border-radius:24px;text-decoration:none;font-weight:bold">'
        f"{e['button']}</a></p>"
        f'<p style="font-size:13px;color:#6b5a7b">{e["note"]}</p>'
        f'<p style="font-size:12px;color:#8a7b97;border-top:1px solid #e3d8ec;'
        f'padding-top:16px;margin-top:32px">{foot}</p>'
        "</div></body></html>"
    )
