"""Web Push in this browser, through shell.js: what state it is in, and the opt-in that asks for
permission and stores the subscription (POST /api/user.php?push=1 with the session cookie)."""

import json

import reflex as rx

from services.push_keys import vapid_public_key
from translations.catalog import N_

# What `siteSession.pushStatus()` answers (spec: push states); "ios_home_screen": an iPhone or
# iPad browser, which offers push only to the site added to the Home Screen.
PUSH_STATES = ("unsupported", "ios_home_screen", "denied", "not_subscribed", "subscribed")
# What `siteSession.subscribePush()` answers; "default" means the prompt was dismissed.
PUSH_ANSWERS = ("subscribed", "denied", "default", "unsupported", "ios_home_screen", "failed")
IOS_HOME_SCREEN = "ios_home_screen"
PUSH_IOS_HOME_SCREEN = N_(
    "On iPhone and iPad, notifications work once this site is on your Home Screen (iOS 16.4 or "
    "later): tap Share, then “Add to Home Screen”, and open the site from there."
)


def check_push(callback: rx.EventHandler) -> rx.event.EventSpec:
    """Ask the browser for its push state; `callback` receives one of PUSH_STATES."""
    return rx.call_script("window.siteSession.pushStatus()", callback=callback)


def subscribe_push(callback: rx.EventHandler) -> rx.event.EventSpec:
    """Ask for permission and subscribe; `callback` receives the answer (see push_answer)."""
    key = json.dumps(vapid_public_key())
    return rx.call_script(f"window.siteSession.subscribePush({key})", callback=callback)


def push_answer(result: object) -> str:
    """The browser's answer as one of PUSH_ANSWERS (anything else counts as failed)."""
    answer = str(result)[:20]
    return answer if answer in PUSH_ANSWERS else "failed"
