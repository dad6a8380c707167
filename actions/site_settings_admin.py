"""The admins' site settings (/staff/settings, docs/admin.md): the settings by theme with their
current and default values, one setting's editor and history, and the change itself.

A change is checked by the setting's kind (models/setting_kinds.py), stored, written to the
history (SettingChange) and the audit log with the values before and after, all in one
transaction, holding the setting's row: a change saved by another admin since the editor
opened is refused, never overwritten unseen. After the commit an effect makes this worker
forget its cached settings, so its next page shows the change at once; every other worker
reads it again within services/site_settings.cache_seconds() (SETTINGS_CACHE_SECONDS)."""

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from actions.audit import audit
from actions.effects import handles
from actions.runner import Done
from actions.staff_viewer import StaffViewer
from models.setting_catalogue import EDITABLE, GROUPS, Editable
from models.setting_changes import SettingChange, history
from models.setting_fields import SettingRefused
from models.setting_kinds import Kind
from models.setting_postbacks import PostbackTemplates, runs_locally
from models.site_settings import SiteSetting, SiteSettings, load_settings, save_setting
from services.config import get_config
from services.database import db_session, transaction
from services.site_settings import forget_cached_settings
from translations.catalog import N_

UNCHANGED = N_("This is already the current value.")
UNKNOWN = N_("This setting cannot be changed here.")
CHANGED_MEANWHILE = N_(
    "Another administrator changed this setting in the meantime. Its new value is shown now: "
    "check it and save again."
)
SUMMARY_LENGTH = 160  # a value in the overview; the editor shows it whole


def shown(value: Any, limit: int | None = None) -> str:
    """A value as the console writes it: JSON, compact, cut at `limit` characters."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"


def _stored_default(key: str) -> Any:
    """The setting's default as it would be stored (empty where it is derived)."""
    f = next(f for f in dataclasses.fields(SiteSettings) if f.name == key)
    return f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default


def settings_overview() -> list[dict[str, Any]]:
    """Each theme with its settings: key, current value and default, shortened."""
    with db_session() as db:
        settings = load_settings(db)
    return [
        {
            "title": group,
            "rows": [
                {
                    "key": key,
                    "current": shown(getattr(settings, key), SUMMARY_LENGTH),
                    "default": shown(getattr(SiteSettings(), key), SUMMARY_LENGTH),
                }
                for key, editable in EDITABLE.items()
                if editable.group == group
            ],
        }
        for group in GROUPS
    ]


def setting_editor(key: str) -> dict[str, Any] | None:
    """The editor of one setting (its inputs filled with the current value), its current and
    default values whole, and its latest changes; None for a key that is not editable."""
    editable = EDITABLE.get(key)
    if editable is None:
        return None
    with db_session() as db:
        settings = load_settings(db)
        changes = history(db, key)
    value = getattr(settings, key)
    return {
        "key": key,
        "group": editable.group,
        "current": shown(value),
        "default": shown(getattr(SiteSettings(), key)),
        "groups": [g.as_dict() for g in editable.kind.groups(value, settings)],
        "history": [_change_row(c) for c in changes],
    }


def _change_row(change: SettingChange) -> dict[str, Any]:
    return {
        "id": change.id,
        "at": change.at.isoformat(),
        "staff_id": change.staff_id or 0,
        "old": shown(change.old, SUMMARY_LENGTH),
        "new": shown(change.new, SUMMARY_LENGTH),
    }


@dataclass(frozen=True)
class SettingsChanged:
    key: str


@handles(SettingsChanged)
async def _forget(effect: SettingsChanged) -> None:
    forget_cached_settings()


def change_setting(staff: StaffViewer, key: str, form: dict, reason: str, seen: str) -> Done[None]:
    """Store the setting `form` holds; `seen` is its value as the editor showed it (`current`
    of setting_editor). SettingRefused when its rules refuse the value, when it is the
    current one, or when the setting changed since the editor showed `seen`."""
    editable = EDITABLE.get(key)
    if editable is None:
        raise SettingRefused("", UNKNOWN)
    try:
        with transaction() as db:
            old = _locked(db, key)
            settings = load_settings(db)
            if shown(getattr(settings, key)) != seen:
                raise SettingRefused("", CHANGED_MEANWHILE)
            value = _kind(editable).parse(form, settings)
            if value == old:
                raise SettingRefused("", UNCHANGED)
            save_setting(db, key, value)
            db.add(SettingChange(key=key, old=old, new=value, staff_id=staff.member_id))
            before, after = {key: old}, {key: value}
            audit(db, staff, "setting.change", ("setting", None), reason, before, after)
    except IntegrityError:  # a setting without a row yet, saved by two admins at once
        raise SettingRefused("", CHANGED_MEANWHILE) from None
    return Done(None, (SettingsChanged(key),))


def _kind(editable: Editable) -> Kind | PostbackTemplates:
    """The setting's rules; the postback addresses allowed depend on where the site runs."""
    if isinstance(editable.kind, PostbackTemplates):
        return dataclasses.replace(editable.kind, local=runs_locally(get_config().public_url))
    return editable.kind


def _locked(db: Session, key: str) -> Any:
    """What the setting holds now as stored, its row locked until the commit (PostgreSQL): a
    derived value (minimum_message_costs) stays empty, so "derived" is a value of its own."""
    row = db.exec(select(SiteSetting).where(SiteSetting.key == key).with_for_update()).first()
    return row.value if row is not None else _stored_default(key)
