"""The postback address templates of the traffic networks (setting `postback_urls`: network name
-> address): their rules, their editor in the console, and the address a conversion resolves
to. A template holds only the known placeholders, each written in braces ({clickid}); each is
replaced by its value, URL-encoded. Only https, but http to this machine (127.0.0.1,
localhost) so that tests can answer on a local endpoint."""

import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from models.form_input import field_text
from models.setting_fields import NETWORK, POSTBACK_ADDRESS, TEXT, Group, Input, SettingRefused
from models.setting_kinds import CONTROL_CHARACTERS, LENGTH
from models.site_settings import SiteSettings
from models.traffic import TRACKING_MAX
from translations.catalog import N_, N_plural

MACROS = ("clickid", "sub1", "sub2", "sub3", "ref", "event", "amount", "currency", "tid")
NETWORKS_MAX = 50
TEMPLATE_MAX = 1000
USES_MAX = 12  # placeholders in one template
# A value is at most TRACKING_MAX characters, three times as long encoded: every resolved
# address fits the column.
URL_MAX = TEMPLATE_MAX + USES_MAX * 3 * TRACKING_MAX
NAME_PATTERN = re.compile(rf"[A-Za-z0-9_.\-]{{1,{TRACKING_MAX}}}")
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost"})
BLANK_ROWS = 3  # empty rows the editor offers for new networks

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")

NETWORK_NAME = N_("Enter a name of letters, digits, dots, dashes or underscores.")
NAME_NEEDED = N_("Enter the network this address belongs to.")
ADDRESS_NEEDED = N_("Enter the postback address of this network.")
TWICE = N_("This network is listed twice.")
HTTPS_ONLY = N_(
    "Enter an address starting with https:// (http:// only for 127.0.0.1 or localhost)."
)
UNKNOWN_PLACEHOLDER = N_(
    "Use only the placeholders clickid, sub1, sub2, sub3, ref, event, amount, currency and tid, "
    "each in braces."
)
TOO_MANY = N_plural("Use at most {high} placeholder.", "Use at most {high} placeholders.", "high")


def template_problem(template: str) -> tuple[str, dict[str, int]] | None:
    """Why `template` is refused (a msgid and its parameters), or None."""
    if not 1 <= len(template) <= TEMPLATE_MAX:
        return LENGTH, {"low": 1, "high": TEMPLATE_MAX}
    if any(unicodedata.category(c) in ("Cc", "Zs") for c in template):
        return CONTROL_CHARACTERS, {}
    names = _PLACEHOLDER.findall(template)
    if any(name not in MACROS for name in names) or re.search(
        r"[{}]", _PLACEHOLDER.sub("", template)
    ):
        return UNKNOWN_PLACEHOLDER, {}
    if len(names) > USES_MAX:
        return TOO_MANY, {"high": USES_MAX}
    if not _allowed_address(template):
        return HTTPS_ONLY, {}
    return None


def _allowed_address(template: str) -> bool:
    """https to a named host (no placeholder, no user in it); http only to this machine."""
    parts = urlsplit(template)
    if not parts.hostname or re.search(r"[{}@]", parts.netloc):
        return False
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        return False
    return parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in LOCAL_HOSTS)


def resolve(template: str, values: dict[str, str]) -> str:
    """The address `template` stands for: each placeholder replaced by its value, URL-encoded
    (a value missing: empty)."""
    return _PLACEHOLDER.sub(lambda m: quote(values.get(m.group(1), ""), safe=""), template)


@dataclass(frozen=True)
class PostbackTemplates:
    """The setting's editor: a row per network (its name, its address) and a few empty rows for
    new ones; a row left empty is left out."""

    def groups(self, value: dict[str, str], settings: SiteSettings) -> list[Group]:
        rows = [*value.items(), *[("", "")] * BLANK_ROWS][:NETWORKS_MAX]
        return [
            Group(
                "",
                [
                    Input(f"network.{i}", NETWORK, value=name),
                    Input(f"url.{i}", POSTBACK_ADDRESS, input=TEXT, value=template),
                ],
            )
            for i, (name, template) in enumerate(rows)
        ]

    def parse(self, form: dict, settings: SiteSettings) -> dict[str, str]:
        templates: dict[str, str] = {}
        for i in range(NETWORKS_MAX):
            name = field_text(form, f"network.{i}", TRACKING_MAX + 1)
            template = field_text(form, f"url.{i}", TEMPLATE_MAX + 1)
            if name or template:
                _check_row(i, name, template, templates)
                templates[name] = template
        return templates


def _check_row(i: int, name: str, template: str, earlier: dict[str, str]) -> None:
    if not name:
        raise SettingRefused(f"network.{i}", NAME_NEEDED)
    if not NAME_PATTERN.fullmatch(name):
        raise SettingRefused(f"network.{i}", NETWORK_NAME)
    if name in earlier:
        raise SettingRefused(f"network.{i}", TWICE)
    if not template:
        raise SettingRefused(f"url.{i}", ADDRESS_NEEDED)
    if problem := template_problem(template):
        message, params = problem
        raise SettingRefused(f"url.{i}", message, **params)
