"""The frame every member e-mail shares: lead, body, optional tables, a button with its link,
a note, and the company footer, as HTML plus text; notification mails add a one-click
unsubscribe (RFC 8058) to the footer and the headers. HTML escaping is here."""

from dataclasses import dataclass
from html import escape

from models.site_settings import SiteSettings, company_info
from services.config import get_config
from services.mail import OutgoingMail
from translations.catalog import N_, gettext

FOOTER_REASON = N_("You receive this e-mail because this address is used for an account on {site}.")
CHAMBER_OF_COMMERCE = N_("Chamber of Commerce")
FOOTER_QUESTIONS = N_("Questions? Write to {email}.")
UNSUBSCRIBE_NOTE = N_("Don't want these e-mails? Switch them off with one click:")
UNSUBSCRIBE = N_("Unsubscribe")


@dataclass(frozen=True)
class MailText:
    """A mail's msgids, with `{placeholders}` filled when it is written."""

    subject: str
    lead: str
    body: str
    button: str
    note: str


@dataclass(frozen=True)
class Unsubscribe:
    """The member's unsubscribe links: the page the footer opens, and the URL a mail program
    posts to for its own unsubscribe button (List-Unsubscribe-Post)."""

    page: str
    one_click: str


@dataclass(frozen=True)
class Recipient:
    email: str
    name: str
    locale: str


@dataclass(frozen=True)
class Section:
    """A titled table of label and value rows, e.g. the order on a receipt."""

    title: str
    rows: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class MailBody:
    """One mail's translated texts, in the order they are shown."""

    subject: str
    lead: str
    body: str
    button: str
    link: str
    note: str
    sections: tuple[Section, ...] = ()
    unsubscribe: Unsubscribe | None = None


def public_link(path: str) -> str:
    return f"{get_config().public_url}{path}"


def write(
    text: MailText,
    to: Recipient,
    link: str,
    settings: SiteSettings,
    unsubscribe: Unsubscribe | None = None,
    sections: tuple[Section, ...] = (),
    **values: str,
) -> OutgoingMail:
    """`text` in the recipient's language, `{site}`, `{name}` and `values` filled in, with
    `sections` (already translated) between the body and the button."""
    values = {"site": settings.name, "name": to.name, **values}
    parts = {f: gettext(to.locale, getattr(text, f), **values) for f in MailText.__annotations__}
    body = MailBody(**parts, link=link, sections=sections, unsubscribe=unsubscribe)
    return render(body, to, settings)


def render(mail: MailBody, to: Recipient, settings: SiteSettings) -> OutgoingMail:
    footer = _footer_lines(settings, to.locale)
    return OutgoingMail(
        to=to.email,
        subject=f"{mail.subject} – {settings.name}",
        text=_plain(mail, footer, to.locale),
        html=_html(mail, footer, to.locale),
        from_name=settings.mail_name,
        language=to.locale,
        links=(mail.link,),
        headers=_unsubscribe_headers(mail.unsubscribe),
    )


def _unsubscribe_headers(unsubscribe: Unsubscribe | None) -> tuple[tuple[str, str], ...]:
    if unsubscribe is None:
        return ()
    return (
        ("List-Unsubscribe", f"<{unsubscribe.one_click}>"),
        ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
    )


def _footer_lines(settings: SiteSettings, locale: str) -> list[str]:
    info = company_info(settings)
    return [
        gettext(locale, FOOTER_REASON, site=settings.name),
        gettext(locale, FOOTER_QUESTIONS, email=info.support_email),
        f"{info.name} · {info.address} · {info.city} · "
        f"{gettext(locale, CHAMBER_OF_COMMERCE)} {info.kvk}",
    ]


def _plain(mail: MailBody, footer: list[str], locale: str) -> str:
    lines = [mail.lead, "", mail.body, ""]
    for section in mail.sections:
        lines += [section.title, *(f"{label}: {value}" for label, value in section.rows), ""]
    lines += [f"{mail.button}:", mail.link, "", mail.note]
    if mail.unsubscribe is not None:
        lines += ["", f"{gettext(locale, UNSUBSCRIBE_NOTE)} {mail.unsubscribe.page}"]
    return "\n".join([*lines, "", "--", *footer]) + "\n"


def _html(mail: MailBody, footer: list[str], locale: str) -> str:
    href = escape(mail.link, quote=True)
    foot = "<br>".join([*_html_unsubscribe(mail.unsubscribe, locale), *map(escape, footer)])
    return (
        f'<!doctype html><html lang="{escape(locale, quote=True)}">'
        f'<head><meta charset="utf-8"><title>{escape(mail.subject)}</title></head>'
        '<body style="margin:0;background:#f6f1fa;'
        'font-family:Arial,Helvetica,sans-serif;color:#2a1248">'
        '<div style="max-width:560px;margin:0 auto;padding:32px 24px">'
        f'<h1 style="font-size:22px">{escape(mail.lead)}</h1>'
        f'<p style="font-size:16px;line-height:1.5">{escape(mail.body)}</p>'
        f"{''.join(_html_section(section) for section in mail.sections)}"
        f'<p style="margin:28px 0"><a href="{href}" style="background:#f0506e;color:#fff;'
        'padding:12px 22px;border-radius:24px;text-decoration:none;font-weight:bold">'
        f"{escape(mail.button)}</a></p>"
        f'<p style="font-size:13px;color:#6b5a7b">{escape(mail.note)}</p>'
        f'<p style="font-size:12px;color:#8a7b97;border-top:1px solid #e3d8ec;'
        f'padding-top:16px;margin-top:32px">{foot}</p>'
        "</div></body></html>"
    )


def _html_unsubscribe(unsubscribe: Unsubscribe | None, locale: str) -> list[str]:
    if unsubscribe is None:
        return []
    href = escape(unsubscribe.page, quote=True)
    link = f'<a href="{href}" style="color:#6b5a7b">{escape(gettext(locale, UNSUBSCRIBE))}</a>'
    return [f"{escape(gettext(locale, UNSUBSCRIBE_NOTE))} {link}"]


def _html_section(section: Section) -> str:
    rows = "".join(
        '<tr><td style="padding:4px 16px 4px 0;color:#6b5a7b;vertical-align:top">'
        f'{escape(label)}</td><td style="padding:4px 0">{escape(value)}</td></tr>'
        for label, value in section.rows
    )
    return (
        f'<h2 style="font-size:16px;margin:24px 0 8px">{escape(section.title)}</h2>'
        f'<table style="font-size:15px;border-collapse:collapse">{rows}</table>'
    )
