"""Web Push end to end (issue 15), two members in two browser contexts against the production
build. B subscribes from B's page (the subscription a browser would post, for a local push
service over HTTP) and closes it; A writes; the local push service receives a push for B that
its VAPID signature vouches for and B's keys decrypt, in B's language, without the message's
text or A's name. The push service then hands it to B's browser (DevTools' deliverPushMessage,
as a push service would): B's service worker shows it, and its click handler sends B's open tab
to the conversation. Headless Chromium cannot click a notification, so the test runs the
worker's handler (`openTarget`) on the notification it shows."""

import json
import re

from journeys import NewMember, NewPage, arrive, eventually, expect, logged_in_page, open_page
from playwright.sync_api import BrowserContext, Page, Worker
from server import Server
from sqlalchemy import Engine
from sqlmodel import Session, select
from test_chat import bubbles, name_of, send, start_chat, with_credits

from models.chat import Message
from tests.push_service import LocalPushService, ReceivedPush
from translations.catalog import gettext

SECRET = "The key is under the blue flower pot."
NEW_MESSAGE = "New message"
NEW_MESSAGE_BODY = "You have a new message. Open the chat to read it."
SUBSCRIBE = """async (subscription) => {
  const answer = await fetch("/api/user.php?push=1", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ subscription }),
  });
  return answer.status;
}"""
NOTIFICATIONS = """() => self.registration.getNotifications().then((shown) =>
  shown.map((n) => ({ title: n.title, body: n.body, data: n.data })))"""
CLICK_FIRST = (
    "() => self.registration.getNotifications().then((shown) => openTarget(shown[0].data))"
)


def subscribe_from_page(page: Page, push_service: LocalPushService, name: str) -> None:
    browser = push_service.subscribe(name)
    keys = {"p256dh": browser.p256dh, "auth": browser.auth}
    assert page.evaluate(SUBSCRIBE, {"endpoint": browser.endpoint, "keys": keys}) == 204


def conversation_of(engine: Engine, sender_id: int) -> int:
    with Session(engine) as db:
        message = db.exec(select(Message).where(Message.sender_id == sender_id)).first()
        assert message is not None
        return message.conversation_id


def push_for(push_service: LocalPushService, name: str) -> ReceivedPush:
    return eventually(
        lambda: next((p for p in push_service.received if p.subscription == name), None),
        f"a push for {name}",
    )


def deliver_to_browser(context: BrowserContext, page: Page, site: Server, data: dict) -> Worker:
    """Hand a push to the browser's service worker, as its push service would; the worker."""
    cdp = context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")

    def registered() -> str | None:
        page.wait_for_timeout(100)  # Playwright delivers DevTools events while it is called
        return next((r["registrationId"] for r in registrations if not r["isDeleted"]), None)

    registration = eventually(registered, "the service worker's registration")
    origin = {"origin": site.url, "registrationId": registration}
    cdp.send("ServiceWorker.deliverPushMessage", {**origin, "data": json.dumps(data)})

    def running() -> Worker | None:
        page.wait_for_timeout(100)
        return context.service_workers[-1] if context.service_workers else None

    return eventually(running, "the running service worker")


def test_an_away_member_gets_a_real_push_whose_click_opens_the_conversation(
    site: Server,
    new_page: NewPage,
    member: NewMember,
    site_db: Engine,
    push_service: LocalPushService,
) -> None:
    a, b = with_credits(site_db, member("en"), 50), member("de")
    page_b = logged_in_page(new_page, site, b)
    context_b = page_b.context
    context_b.grant_permissions(["notifications"], origin=site.url)
    name = f"member-{b.member_id}"
    subscribe_from_page(page_b, push_service, name)
    page_b.close()  # B is away

    page_a = logged_in_page(new_page, site, a)
    start_chat(page_a, site, "en", b)
    send(page_a, SECRET)
    push = push_for(push_service, name)
    chat = f"/chats/{conversation_of(site_db, a.member_id)}"
    assert push.payload == {
        "title": gettext("de", NEW_MESSAGE),
        "body": gettext("de", NEW_MESSAGE_BODY),
        "openUrl": chat,
        "checkUrl": chat,
    }
    assert SECRET not in str(push.payload) and name_of(site_db, a) not in str(push.payload)
    assert push.vapid_claims["aud"] == push_service.origin

    page_b = context_b.new_page()
    open_page(page_b, site, "/members")
    worker = deliver_to_browser(context_b, page_b, site, push.payload)
    shown = eventually(lambda: worker.evaluate(NOTIFICATIONS) or None, "the notification")
    assert [(n["title"], n["body"], n["data"]["openUrl"]) for n in shown] == [
        (gettext("de", NEW_MESSAGE), gettext("de", NEW_MESSAGE_BODY), chat)
    ]
    worker.evaluate(CLICK_FIRST)
    arrive(page_b, site, chat)
    expect(bubbles(page_b)).to_have_text([re.compile(re.escape(SECRET))])
    assert page_a.console_errors == []
