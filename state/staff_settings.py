"""/staff/settings (admins): the site settings by theme; one setting's editor with its history;
saving it with a reason (actions/site_settings_admin.change_setting), refused when another admin
changed it since the editor showed it (the editor then shows the new value)."""

import reflex as rx

from actions.runner import act, read
from actions.site_settings_admin import (
    CHANGED_MEANWHILE,
    change_setting,
    setting_editor,
    settings_overview,
)
from actions.staff_viewer import StaffViewer
from models.account_errors import AccountError
from models.setting_catalogue import EDITABLE
from models.setting_changes import KEY_LENGTH
from models.staff_tools import ADMIN_ONLY
from state.reason_form import ReasonFormState
from state.staff_guard import staff_event


class StaffSettingsState(ReasonFormState, rx.State):
    themes: list[dict] = []  # {"title", "rows": [{"key", "current", "default"}]}
    key: str = ""  # the setting open in the editor
    current: str = ""  # the value the editor shows, as the change's `seen`
    default: str = ""
    inputs: list[dict] = []  # the editor's groups (models/setting_fields.Group)
    changes: list[dict] = []  # the open setting's history, newest first
    saved: str = ""  # the key of the setting saved last
    loaded: bool = False

    async def _read(self) -> None:
        self.themes, self.loaded = await read(settings_overview), True

    async def _open(self, key: str) -> None:
        editor = await read(setting_editor, key) if key in EDITABLE else None
        if editor is None:
            self.key, self.inputs, self.changes = "", [], []
            return
        self.key, self.current, self.default = key, editor["current"], editor["default"]
        self.inputs, self.changes = editor["groups"], editor["history"]

    @staff_event(*ADMIN_ONLY)
    async def load(self, staff: StaffViewer):
        """On load of /staff/settings: every theme, no editor open."""
        self.key, self.errors, self.busy, self.saved = "", {}, False, ""
        await self._read()

    @staff_event(*ADMIN_ONLY)
    async def open(self, staff: StaffViewer, key: str):
        self.errors, self.saved = {}, ""
        await self._open(str(key or "")[:KEY_LENGTH])

    @staff_event(*ADMIN_ONLY)
    async def close(self, staff: StaffViewer):
        self.key, self.errors = "", {}

    @staff_event(*ADMIN_ONLY)
    async def save(self, staff: StaffViewer, form: dict):
        """The open setting's new value, checked by its kind, with the reason for the change."""
        if not self.key or self.busy:
            return
        self.errors = {}
        if (reason := await self._reason(form)) is None:
            return
        self.busy = True
        try:
            await act(change_setting, staff, self.key, form, reason, self.current)
        except AccountError as error:
            await self._show_error(error)
            if error.message == CHANGED_MEANWHILE:
                await self._reload()
            return
        finally:
            self.busy = False
        self.saved = self.key
        await self._reload()

    async def _reload(self) -> None:
        """The open setting's editor and every theme, as stored now."""
        await self._open(self.key)
        await self._read()
