"""Web Push in this browser, through shell.js: what state it is in, and the opt-in that asks for
permission and stores the subscription (POST /api/user.php?push=1 with the session cookie)."""

import json

import reflex as rx

from services.push_keys import vapid_public_key

# What `siteSession.pushStatus()` answers (spec: push states).
PUSH_STATES = ("unsupported", "denied", "not_subscribed", "subscribed")
# What `siteSession.subscribePush()` answers; "default" means the prompt was dismissed.
PUSH_ANSWERS = ("subscribed", "denied", "default", "unsupported", "failed")


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
