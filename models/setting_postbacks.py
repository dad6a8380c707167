"""The postback address templates of the traffic networks (setting `postback_urls`: network name
-> address): their rules, their editor in the console, and the address a conversion resolves
to. A template holds only the known placeholders, each written in braces ({clickid}); each is
replaced by its value, URL-encoded and cut to VALUE_MAX characters, so that every resolved
address fits URL_MAX. Only https to a host name: never an IP address or this machine, but on a
developer's or a test's site (PUBLIC_URL on this machine) http or https to LOCAL_HOSTS, so that
tests can answer on a local endpoint."""

import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from itertools import accumulate
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
VALUE_MAX = 300  # characters of one value, URL-encoded
URL_MAX = TEMPLATE_MAX + USES_MAX * VALUE_MAX  # a resolved address, at most
NAME_PATTERN = re.compile(rf"[A-Za-z0-9_.\-]{{1,{TRACKING_MAX}}}")
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
BLANK_ROWS = 3  # empty rows the editor offers for new networks

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")

NETWORK_NAME = N_("Enter a name of letters, digits, dots, dashes or underscores.")
NAME_NEEDED = N_("Enter the network this address belongs to.")
ADDRESS_NEEDED = N_("Enter the postback address of this network.")
TWICE = N_("This network is listed twice.")
HTTPS_ONLY = N_("Enter an address starting with https:// and a host name, not an IP address.")
HTTPS_OR_LOCAL = N_(
    "Enter an address starting with https:// and a host name, not an IP address. On this "
    "development site also http:// or https:// to localhost, 127.0.0.1 or [::1]."
)
UNKNOWN_PLACEHOLDER = N_(
    "Use only the placeholders clickid, sub1, sub2, sub3, ref, event, amount, currency and tid, "
    "each in braces."
)
TOO_MANY = N_plural("Use at most {high} placeholder.", "Use at most {high} placeholders.", "high")


def template_problem(template: str, local: bool) -> tuple[str, dict[str, int]] | None:
    """Why `template` is refused (a msgid and its parameters), or None; `local`: whether the
    site runs locally (runs_locally)."""
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
    if not allowed_address(template, local):
        return (HTTPS_OR_LOCAL if local else HTTPS_ONLY), {}
    return None


def runs_locally(public_url: str) -> bool:
    """Whether the site is a developer's or a test's: its PUBLIC_URL on this machine."""
    return urlsplit(public_url).hostname in LOCAL_HOSTS


def allowed_address(url: str, local: bool) -> bool:
    """Whether a postback may go to `url` (a template or a resolved address): https to a host
    name (no placeholder, no user in it); http or https to LOCAL_HOSTS only when `local`."""
    parts = urlsplit(url)
    host = (parts.hostname or "").rstrip(".")
    if not host or re.search(r"[{}@]", parts.netloc):
        return False
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        return False
    if host in LOCAL_HOSTS:
        return local and parts.scheme in ("http", "https")
    return parts.scheme == "https" and not _names_a_machine(host)


def _names_a_machine(host: str) -> bool:
    """An IP address in any form a resolver takes (203.0.113.9, 2001:db8::1, 3405803785,
    0xcb.113.9) or a loopback name (*.localhost)."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        last = host.rpartition(".")[2]
        return bool(re.fullmatch(r"[0-9]+|0x[0-9a-f]*", last)) or host.endswith(".localhost")


def resolve(template: str, values: dict[str, str]) -> str:
    """The address `template` stands for: each placeholder replaced by its value, URL-encoded
    and cut (a value missing: empty)."""
    return _PLACEHOLDER.sub(lambda m: encoded(values.get(m.group(1), "")), template)


def encoded(value: str) -> str:
    """`value` URL-encoded, cut to at most VALUE_MAX characters between two of its characters
    (never inside a %XX escape, nor between the escapes of one character)."""
    pieces = [quote(c, safe="") for c in value]
    ends = accumulate(len(piece) for piece in pieces)
    return "".join(piece for piece, end in zip(pieces, ends, strict=True) if end <= VALUE_MAX)


@dataclass(frozen=True)
class PostbackTemplates:
    """The setting's editor: a row per network (its name, its address) and a few empty rows for
    new ones; a row left empty is left out. `local`: the site runs locally (runs_locally), set
    by the action that saves; the catalogue's own refuses local addresses."""

    local: bool = False

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
                _check_row(i, name, template, templates, self.local)
                templates[name] = template
        return templates


def _check_row(i: int, name: str, template: str, earlier: dict[str, str], local: bool) -> None:
    if not name:
        raise SettingRefused(f"network.{i}", NAME_NEEDED)
    if not NAME_PATTERN.fullmatch(name):
        raise SettingRefused(f"network.{i}", NETWORK_NAME)
    if name in earlier:
        raise SettingRefused(f"network.{i}", TWICE)
    if not template:
        raise SettingRefused(f"url.{i}", ADDRESS_NEEDED)
    if problem := template_problem(template, local):
        message, params = problem
        raise SettingRefused(f"url.{i}", message, **params)
