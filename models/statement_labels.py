"""The labels a statement of reasons (DSA Art. 17) is written with, by the value a Decision
stores: the measure, what it applies to, the source, the ground type, and the redress. Mails
write them with `gettext`, pages with `components/i18n.t_choice`. `named_content` names the
photo or message concerned (Art. 17(3)(a)), read when the statement is written."""

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from models.chat import Message
from models.conduct_rules import CONDUCT_RULES, conduct_rule
from models.member import Photo
from models.moderation import ContentType, GroundType, Measure, ReportSource
from translations.catalog import N_

REPORT_ON_MESSAGE = "report_message"  # a member's report on a message, as the statement says it

MEASURE_LABELS = {
    Measure.DISMISS: N_("No action: the content stays online"),
    Measure.WARNING: N_("A warning"),
    Measure.REMOVE_CONTENT: N_("Removal of the content"),
    Measure.HIDE_PROFILE: N_("Profile hidden from other members"),
    Measure.SUSPEND: N_("Suspension of the account"),
    Measure.BAN: N_("Permanent ban of the account"),
}
# What a measure applies to, by `scope_of`
SCOPE_LABELS = {
    "account": N_("The whole account"),
    "profile_text": N_("The profile text"),
    ContentType.PROFILE: N_("The profile"),
    ContentType.PHOTO: N_("A photo"),
    ContentType.MESSAGE: N_("A message"),
}
SOURCE_LABELS = {
    ReportSource.REPORT: N_("A report by another member"),
    ReportSource.NOTICE: N_("A notice of illegal content (DSA Art. 16)"),
    ReportSource.OWN_INITIATIVE: N_("Our own initiative"),
    ReportSource.AUTOMATED: N_("Our automated detection"),
}
# The statement's source: a member's report on a message names no one (`source_key`)
STATEMENT_SOURCE_LABELS = {**SOURCE_LABELS, REPORT_ON_MESSAGE: N_("A report")}
GROUND_TYPE_LABELS = {
    GroundType.TERMS: N_("Incompatible with our terms and conditions"),
    GroundType.LAW: N_("Illegal content"),
}

# The statement's rows, in order
MEASURE = N_("Measure")
SCOPE = N_("Applies to")
DURATION = N_("Duration")
FACTS = N_("Facts and circumstances")
SOURCE = N_("How it came to our attention")
AUTOMATION = N_("Automated means")
GROUND_TYPE = N_("Kind of ground")
GROUND = N_("Ground")
DECIDED_ON = N_("Date of the decision")
CONTENT = N_("Content concerned")
CONTENT_PHOTO = N_("The photo uploaded on {date}")
CONTENT_MESSAGE = N_("The message of {date}: “{excerpt}”")
TERRITORY = N_("Territorial scope")
WORLDWIDE = N_("Worldwide: everywhere the site is available")
RULE = N_("Rule {number} of our terms and conditions: {title}")
RULE_TITLES = {str(rule.number): rule.title for rule in CONDUCT_RULES}
EXCERPT = 80  # characters of a message the statement quotes
PERMANENT = N_("Permanent")
NOT_APPLICABLE = N_("Not applicable")
UNTIL = N_("Until {date}")
AUTOMATED_DETECTION_ONLY = N_(
    "The content was detected by automated means; a person took the decision."
)
NO_AUTOMATION = N_("No automated means were used; a person took the decision.")

# Redress (DSA Art. 17(3)(f), Art. 20, Art. 21)
REDRESS = N_("Your options")
REDRESS_COMPLAINT = N_("Internal complaint")
REDRESS_COMPLAINT_TEXT = N_(
    "You can contest this decision free of charge until {date} with the link in this "
    "statement. Another member of our staff than the one who decided will review it."
)
REDRESS_SETTLEMENT = N_("Out-of-court dispute settlement")
REDRESS_SETTLEMENT_TEXT = N_(
    "You can also turn to an out-of-court dispute settlement body certified under "
    "Art. 21 of the Digital Services Act."
)
REDRESS_COURT = N_("Court")
REDRESS_COURT_TEXT = N_("You can always take the matter to a court.")


def scope_of(measure: str, content_type: str) -> str:
    """The key of SCOPE_LABELS for a decision: an account measure applies to the account, the
    removal of a profile's content to its text."""
    if measure in (Measure.SUSPEND, Measure.BAN):
        return "account"
    if measure == Measure.REMOVE_CONTENT and content_type == ContentType.PROFILE:
        return "profile_text"
    return content_type


def automation_text(automated_detection: bool) -> str:
    return AUTOMATED_DETECTION_ONLY if automated_detection else NO_AUTOMATION


REDRESS_ROWS = (
    (REDRESS_COMPLAINT, REDRESS_COMPLAINT_TEXT),
    (REDRESS_SETTLEMENT, REDRESS_SETTLEMENT_TEXT),
    (REDRESS_COURT, REDRESS_COURT_TEXT),
)


def source_key(source: str, content_type: str) -> str:
    """The STATEMENT_SOURCE_LABELS key: a member's report on a message says only "a report"
    (in a chat of two, "another member" names the reporter)."""
    if source == ReportSource.REPORT and content_type == ContentType.MESSAGE:
        return REPORT_ON_MESSAGE
    return source


def rule_title(ground_type: str, ground: str) -> str:
    """The msgid of the conduct rule a terms ground names, or "" (a law, or no such rule)."""
    rule = conduct_rule(ground) if ground_type == GroundType.TERMS else None
    return rule.title if rule else ""


@dataclass(frozen=True)
class NamedContent:
    """The photo or message a decision concerns: its kind, date and (a message) first words."""

    kind: str  # ContentType.PHOTO or MESSAGE
    on: datetime
    excerpt: str = ""


def named_content(db: Session, measure: str, content_type: str, content_id: int | None):
    """The photo or message a content measure concerns, while it exists; else None."""
    if measure in (Measure.SUSPEND, Measure.BAN) or not content_id:
        return None
    if content_type == ContentType.PHOTO and (photo := db.get(Photo, content_id)):
        return NamedContent(ContentType.PHOTO, photo.created_at)
    if content_type == ContentType.MESSAGE and (message := db.get(Message, content_id)):
        return NamedContent(ContentType.MESSAGE, message.created_at, message.body[:EXCERPT])
    return None
