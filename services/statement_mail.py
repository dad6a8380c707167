"""The moderation mails (DSA Art. 17, 16(5), 20): the statement of reasons to the member a
decision applies to, the decision to the notifier of a notice, and the outcome of an internal
complaint, each in its reader's language in the shared frame (services/mail_frame.py) with a
link to the statement and its appeal form (/appeal/<token>)."""

from dataclasses import dataclass
from datetime import datetime

from babel.dates import format_date

from models import statement_labels as L
from models.moderation import APPEAL_WINDOW, ContentType, Decision, Measure
from models.routes import appeal_url, static_page_url
from models.site_settings import SiteSettings
from services.mail import OutgoingMail
from services.mail_frame import MailBody, MailText, Recipient, Section, public_link, render
from translations.catalog import N_, gettext

STATEMENT = MailText(
    N_("Our decision about your content or account"),
    N_("Hello {name},"),
    N_(
        "We have taken a moderation decision that concerns you on {site}. Below is our "
        "statement of reasons: what we decided, why, and how you can contest it."
    ),
    N_("View the decision or contest it"),
    N_("You can contest this decision until {date}."),
)
NOTIFIER_DECISION = MailText(
    N_("Our decision on your notice {reference}"),
    N_("Hello {name},"),
    N_(
        "Thank you for your notice {reference}. We have reviewed the content you reported "
        "and taken the decision below."
    ),
    N_("View the decision or contest it"),
    N_("You can contest this decision until {date}."),
)
APPEAL_UPHELD = MailText(
    N_("Your complaint has been reviewed"),
    N_("Hello {name},"),
    N_(
        "We have reviewed your complaint against our decision of {date}. After this "
        "review, the decision stands."
    ),
    N_("View the decision"),
    N_(
        "If you disagree, you can still turn to an out-of-court dispute settlement body "
        "certified under Art. 21 of the Digital Services Act, or to a court."
    ),
)
APPEAL_REVERSED = MailText(
    N_("Your complaint has been reviewed"),
    N_("Hello {name},"),
    N_(
        "We have reviewed your complaint against our decision of {date} and reversed the "
        "decision. Whatever the decision changed has been undone."
    ),
    N_("View the decision"),
    N_("Thank you for taking the time to write to us."),
)
ANSWER = N_("Our answer")
OUTCOME = N_("Outcome of your complaint")
STATEMENT_TITLE = N_("Statement of reasons")


@dataclass(frozen=True)
class Link:
    """Where the mail's button goes: the party's statement page."""

    token: str

    @property
    def href(self) -> str:
        return public_link(appeal_url(self.token))


def written_date(moment: datetime, locale: str) -> str:
    return format_date(moment.date(), format="long", locale=locale)


def appeal_deadline(decision: Decision) -> datetime:
    return decision.decided_at + APPEAL_WINDOW


def statement_rows(
    decision: Decision, locale: str, named: L.NamedContent | None, facts: bool = True
) -> tuple:
    """The statement of reasons as label and value rows, in `locale` (Art. 17(3))."""

    def _(msgid: str, **values: str) -> str:
        return gettext(locale, msgid, **values)

    scope = L.scope_of(decision.measure, decision.content_type)
    source = L.source_key(decision.source, decision.content_type)
    rows = [
        (_(L.MEASURE), _(L.MEASURE_LABELS[decision.measure])),
        (_(L.SCOPE), _(L.SCOPE_LABELS[scope])),
        *([(_(L.CONTENT), _content(named, locale))] if named else []),
        (_(L.TERRITORY), _(L.WORLDWIDE)),
        (_(L.DURATION), _duration(decision, locale)),
        *([(_(L.FACTS), decision.facts)] if facts else []),
        (_(L.SOURCE), _(L.STATEMENT_SOURCE_LABELS[source])),
        (_(L.AUTOMATION), _(L.automation_text(decision.automated_detection))),
        (_(L.GROUND_TYPE), _(L.GROUND_TYPE_LABELS[decision.ground_type])),
        (_(L.GROUND), _ground(decision, locale)),
        (_(L.DECIDED_ON), written_date(decision.decided_at, locale)),
    ]
    return tuple(rows)


def _content(named: L.NamedContent, locale: str) -> str:
    on = written_date(named.on, locale)
    if named.kind == ContentType.PHOTO:
        return gettext(locale, L.CONTENT_PHOTO, date=on)
    return gettext(locale, L.CONTENT_MESSAGE, date=on, excerpt=named.excerpt)


def _ground(decision: Decision, locale: str) -> str:
    """A conduct rule by its number and translated title, with the terms' address."""
    title = L.rule_title(decision.ground_type, decision.ground)
    if not title:
        return decision.ground
    rule = gettext(locale, L.RULE, number=decision.ground, title=gettext(locale, title))
    return f"{rule} ({public_link(static_page_url('terms'))})"


def _duration(decision: Decision, locale: str) -> str:
    if decision.ends_at is not None:
        return gettext(locale, L.UNTIL, date=written_date(decision.ends_at, locale))
    if decision.measure in (Measure.DISMISS, Measure.WARNING):
        return gettext(locale, L.NOT_APPLICABLE)
    return gettext(locale, L.PERMANENT)


def redress_rows(decision: Decision, locale: str) -> tuple:
    deadline = written_date(appeal_deadline(decision), locale)
    return tuple(
        (gettext(locale, label), gettext(locale, text, date=deadline))
        for label, text in L.REDRESS_ROWS
    )


def _mail(
    text: MailText,
    to: Recipient,
    link: Link,
    settings: SiteSettings,
    sections: tuple[Section, ...],
    **values: str,
) -> OutgoingMail:
    values = {"site": settings.name, "name": to.name, **values}
    parts = {f: gettext(to.locale, getattr(text, f), **values) for f in MailText.__annotations__}
    return render(MailBody(**parts, link=link.href, sections=sections), to, settings)


def statement_mail(
    decision: Decision,
    named: L.NamedContent | None,
    to: Recipient,
    link: Link,
    settings: SiteSettings,
) -> OutgoingMail:
    """The member's statement of reasons, with the ways to contest it."""
    locale = to.locale
    sections = (
        Section(gettext(locale, STATEMENT_TITLE), statement_rows(decision, locale, named)),
        Section(gettext(locale, L.REDRESS), redress_rows(decision, locale)),
    )
    deadline = written_date(appeal_deadline(decision), locale)
    return _mail(STATEMENT, to, link, settings, sections, date=deadline)


def notifier_mail(
    decision: Decision,
    named: L.NamedContent | None,
    reference: str,
    to: Recipient,
    link: Link,
    settings: SiteSettings,
) -> OutgoingMail:
    """The decision on a notice, for its notifier: without the member's facts."""
    locale = to.locale
    rows = statement_rows(decision, locale, named, facts=False)
    sections = (
        Section(gettext(locale, STATEMENT_TITLE), rows),
        Section(gettext(locale, L.REDRESS), redress_rows(decision, locale)),
    )
    deadline = written_date(appeal_deadline(decision), locale)
    return _mail(
        NOTIFIER_DECISION, to, link, settings, sections, date=deadline, reference=reference
    )


def appeal_outcome_mail(
    decision: Decision,
    reversed_: bool,
    answer: str,
    to: Recipient,
    link: Link,
    settings: SiteSettings,
) -> OutgoingMail:
    locale = to.locale
    text = APPEAL_REVERSED if reversed_ else APPEAL_UPHELD
    rows = ((gettext(locale, ANSWER), answer),)
    sections = (Section(gettext(locale, OUTCOME), rows),) if answer else ()
    date = written_date(decision.decided_at, locale)
    return _mail(text, to, link, settings, sections, date=date)
