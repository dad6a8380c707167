"""Translated labels of moderation's vocabularies (models/moderation.py), by stored value: the
one place the console, the report dialog and the statement mails take them from. The category
labels are the report dialog's (models/report_rules.py), the measure, source and ground ones the
statement of reasons' (models/statement_labels.py); this module adds the rest."""

from models.member import MemberStatus
from models.moderation import AppealStatus, CaseStatus, ContentType
from models.photos import PhotoStatus
from models.report_rules import CATEGORY_LABELS
from models.statement_labels import GROUND_TYPE_LABELS, MEASURE_LABELS, SOURCE_LABELS
from translations.catalog import N_

__all__ = [
    "ACCOUNT_STATUS_LABELS",
    "APPEAL_STATUS_LABELS",
    "CASE_STATUS_LABELS",
    "CATEGORY_LABELS",
    "CONTENT_LABELS",
    "GROUND_TYPE_LABELS",
    "MEASURE_LABELS",
    "PHOTO_STATUS_LABELS",
    "SOURCE_LABELS",
]

CONTENT_LABELS = {
    ContentType.PROFILE: N_("Profile"),
    ContentType.PHOTO: N_("Photo"),
    ContentType.MESSAGE: N_("Message"),
}
CASE_STATUS_LABELS = {CaseStatus.OPEN: N_("Open"), CaseStatus.DECIDED: N_("Decided")}
APPEAL_STATUS_LABELS = {
    AppealStatus.OPEN: N_("Open"),
    AppealStatus.UPHELD: N_("Upheld"),
    AppealStatus.REVERSED: N_("Reversed"),
}
ACCOUNT_STATUS_LABELS = {
    MemberStatus.NOT_CONFIRMED: N_("Not confirmed"),
    MemberStatus.ACTIVE: N_("Active"),
    MemberStatus.DELETED_PENDING: N_("Deletion pending"),
    MemberStatus.DELETED: N_("Deleted"),
    MemberStatus.SUSPENDED: N_("Suspended"),
    MemberStatus.BANNED: N_("Banned"),
}
PHOTO_STATUS_LABELS = {
    PhotoStatus.APPROVED: N_("Approved"),
    PhotoStatus.PENDING: N_("Awaiting review"),
    PhotoStatus.REJECTED: N_("Rejected"),
}
