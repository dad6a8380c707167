"""The purchase screens' state: the four bundles in the member's currency with the discount that
applies (welcome bonus, welcome code, an entered code; errors in the member's language), the
country paid from kept for the session, the methods offered for it, the hand-over to the
provider's checkout, the method page and the repeat order; every choice the browser sends is
checked against what the page offered; nothing for a logged-out tab."""

import logging
import re

import pytest
from sqlmodel import Session, select

import state.credits
from models.discount_codes import DiscountCode, seed_discount_codes
from models.member import utcnow
from models.orders import Order
from state.credits import (
    TIERS,
    CreditsState,
    choice_from_path,
    go_to_checkout,
    tier_of,
)
from state.shell import ShellState
from state.time_bonus import TimeBonusState
from tests.factories import committed, make_member
from tests.outages import database_refused
from tests.state.conftest import handle, redirects, run, scripts, substate
from tests.state.payment_tabs import (  # noqa: F401 - fixtures
    add_order,
    code_from_500_euro,
    old_member,
    paying,
    provider_client,
    tab,
    testpay,
    testpay_clock,
    testpay_webhooks,
)

pytestmark = pytest.mark.usefixtures("paying")
CHECKOUT = re.compile(r'window\.location\.assign\("(http://testserver/testpay/checkout/[^"]+)"\)')


async def opened(make_root, db: Session, who, url: str = "/credits", locale: str = "en"):
    """The page at `url` loaded in a new tab of `who`; its state and the events it gave."""
    credits = substate(await tab(make_root, db, who, url, locale), CreditsState)
    path = url.split("?")[0]
    if path == "/credits/repeat-order":
        return credits, await run(credits.load_repeat())
    load = "load_page" if path == "/credits" else "load_choice"
    return credits, await run(handle(credits, load))


def bundle(credits: CreditsState, tier: str) -> dict:
    return next(row for row in credits.bundles if row["tier"] == tier)


def method_ids(credits: CreditsState) -> list[str]:
    return [method["id"] for method in credits.methods]


def orders(db: Session) -> list[Order]:
    db.rollback()
    db.expire_all()
    return db.exec(select(Order)).all()


@pytest.mark.parametrize(
    ("value", "tier"),
    [("p0", "p0"), ("P3", "p3"), ("2", "p2"), ("p4", None), ("", None), ("p22", None),
     ("x" * 5000, None), (None, None)],
)  # fmt: skip
def test_tiers_as_addresses_name_them(value, tier) -> None:
    assert tier_of(value) == tier


@pytest.mark.parametrize(
    ("path", "choice"),
    [("/credits/p1/ideal", ("p1", "ideal")), ("/credits/2", ("p2", "")),
     ("/credits/p9/ideal", (None, "ideal")), ("/credits/p1/<script>", ("p1", "")),
     ("/credits/p1/" + "a" * 30, ("p1", ""))],
)  # fmt: skip
def test_the_method_page_reads_tier_and_method_from_its_address(path, choice) -> None:
    assert choice_from_path(path) == choice


def test_only_web_addresses_go_to_checkout() -> None:
    assert go_to_checkout("javascript:alert(1)") is None
    assert go_to_checkout('https://x.test/"+alert(1)+"') is None
    assert go_to_checkout("https://www.mollie.com/checkout/select-method/7UhSN1zuXS") is not None


async def test_the_purchase_page_shows_four_bundles_and_nl_methods(make_root, db: Session) -> None:
    anna = old_member(db)
    credits, _ = await opened(make_root, db, anna)
    assert [row["tier"] for row in credits.bundles] == list(TIERS)
    assert sum(row["popular"] for row in credits.bundles) == 1
    assert credits.tier == next(row["tier"] for row in credits.bundles if row["popular"])
    assert credits.country == "NL" and credits.discount == {}
    assert [(row["currency"], row["cents"]) for row in credits.bundles] == [
        ("EUR", 1995), ("EUR", 3995), ("EUR", 7995), ("EUR", 14995),
    ]  # fmt: skip
    assert not any(row["discounted"] for row in credits.bundles)
    assert all(row["messages"] > 0 and row["per_message_cents"] for row in credits.bundles)
    assert "ideal" in method_ids(credits) and "creditcard" in method_ids(credits)
    assert credits.method == method_ids(credits)[0]
    assert credits.loaded and credits.methods_loaded and credits.chosen["tier"] == credits.tier


async def test_the_welcome_bonus_strikes_the_old_price(make_root, db: Session) -> None:
    anna = make_member(db)  # signed up just now
    members = await tab(make_root, db, anna, "/members")
    await run(substate(members, TimeBonusState).enter())
    credits, _ = await opened(make_root, db, anna)
    assert credits.discount["kind"] == "time_bonus" and credits.discount["percentage"] == 25
    assert credits.discount["deadline_ms"] > 0
    assert (
        substate(credits.parent_state, TimeBonusState).deadline_ms
        == credits.discount["deadline_ms"]
    )
    for row in credits.bundles:
        assert row["discounted"] and row["list_cents"] > row["cents"]


async def test_welcome_code_from_the_address_and_silently_ignored(make_root, db: Session) -> None:
    committed(db, seed_discount_codes)
    credits, _ = await opened(make_root, db, old_member(db), "/credits?welcome=true")
    assert credits.discount["kind"] == "code" and credits.code == credits.discount["code"]
    assert all(row["discounted"] for row in credits.bundles)
    paid = make_member(db, "bob@example.com", paid_user=True)
    credits, _ = await opened(make_root, db, paid, "/credits?welcome=true")
    assert credits.code == "" and credits.code_error == "" and credits.discount == {}


@pytest.mark.parametrize("outage", [True, False], ids=["database away", "a bug"])
async def test_a_welcome_code_not_loaded_is_one_log_line_in_an_outage(
    make_root, db: Session, monkeypatch, caplog, outage: bool
) -> None:
    """The page opens without the code either way; an outage is logged in one line, a bug with
    its traceback (services/outages.log_failure)."""
    committed(db, seed_discount_codes)
    error = database_refused() if outage else None

    def failing(_viewer):
        raise error or ValueError("a bug")

    monkeypatch.setattr(state.credits, "welcome_offer", failing)
    with caplog.at_level(logging.WARNING, logger="state.credits"):
        credits, _ = await opened(make_root, db, old_member(db), "/credits?welcome=true")
    assert credits.code == "" and credits.code_error == ""
    [record] = [r for r in caplog.records if r.getMessage().startswith("welcome code not loaded")]
    assert (record.exc_info is None) == outage
    if outage:
        assert "database unreachable" in record.getMessage()


async def test_the_code_box_is_throttled_after_ten_codes_that_do_not_apply(
    make_root, db: Session
) -> None:
    db.add(
        DiscountCode(code="SPRING20", value_percentage=20, expires_at=utcnow().replace(year=2099))
    )
    db.commit()
    credits, _ = await opened(make_root, db, old_member(db, language="nl"), locale="nl")
    for n in range(10):
        await run(handle(credits, "apply_code", {"code": f"GUESS{n}"}))
        assert credits.code_error == "Code niet gevonden"
    await run(handle(credits, "apply_code", {"code": "SPRING20"}))
    assert credits.code == ""
    assert credits.code_error == (
        "Je hebt te veel codes geprobeerd. Probeer het over 15 min opnieuw."
    )


async def test_codes_apply_and_errors_show_in_the_members_language(make_root, db: Session) -> None:
    db.add(
        DiscountCode(code="SPRING20", value_percentage=20, expires_at=utcnow().replace(year=2099))
    )
    db.commit()
    credits, _ = await opened(make_root, db, old_member(db, language="nl"), locale="nl")
    await run(handle(credits, "apply_code", {"code": "nope"}))
    assert credits.code_error == "Code niet gevonden" and credits.code == ""
    await run(handle(credits, "apply_code", {"code": "S" * 41}))
    assert credits.code_error == "Code niet gevonden"
    await run(handle(credits, "apply_code", {"code": " spring20 "}))
    assert credits.code_error == "" and credits.code == "SPRING20"
    assert credits.discount == {
        "code": "SPRING20",
        "percentage": 20,
        "kind": "code",
        "deadline_ms": 0,
    }
    assert all(row["discounted"] for row in credits.bundles)
    await run(handle(credits, "remove_code"))
    assert credits.code == "" and credits.discount == {}


async def test_a_code_that_stopped_applying_is_dropped_when_the_page_opens_again(
    make_root, db: Session
) -> None:
    code = DiscountCode(code="ONCE30", value_percentage=30, expires_at=utcnow().replace(year=2099))
    db.add(code)
    db.commit()
    credits, _ = await opened(make_root, db, old_member(db))
    await run(handle(credits, "apply_code", {"code": "ONCE30"}))
    assert credits.code == "ONCE30"
    code.expires_at = utcnow()  # used up or expired since: either way it no longer applies
    db.add(code)
    db.commit()
    await run(handle(credits, "load_page"))
    assert credits.code == "" and credits.discount == {} and credits.code_error == ""


async def test_the_country_paid_from_is_kept_and_checked(make_root, db: Session) -> None:
    credits, _ = await opened(make_root, db, old_member(db))
    await run(handle(credits, "choose_country", "PL"))
    assert credits.payment_country == "PL" and credits.country == "PL"
    assert {row["currency"] for row in credits.bundles} == {"PLN"}
    assert "blik" in method_ids(credits) and "ideal" not in method_ids(credits)
    await run(handle(credits, "choose_country", "XX"))
    await run(handle(credits, "choose_country", "'; drop"))
    assert credits.payment_country == "PL"
    await run(handle(credits, "load_page"))  # the next visit in this browser session keeps it
    assert credits.country == "PL"


async def test_choices_come_only_from_what_was_offered(make_root, db: Session) -> None:
    credits, _ = await opened(make_root, db, old_member(db))
    chosen = credits.method
    credits.choose_method("bitcoin")
    assert credits.method == chosen
    credits.choose_method("creditcard")
    assert credits.method == "creditcard"
    await run(handle(credits, "choose_tier", "p9"))
    await run(handle(credits, "choose_tier", {"tier": "p0"}))
    assert credits.tier != "p9"
    await run(handle(credits, "choose_tier", "p0"))
    assert credits.tier == "p0" and credits.method == "creditcard"


async def test_buying_hands_over_to_the_providers_checkout(make_root, db: Session) -> None:
    anna = old_member(db)
    credits, _ = await opened(make_root, db, anna)
    await run(handle(credits, "choose_tier", "p1"))
    credits.choose_method("ideal")
    events = await run(handle(credits, "buy"))
    found = [CHECKOUT.search(script) for script in scripts(events)]
    assert len(found) == 1 and found[0] is not None
    [order] = orders(db)
    assert (order.member_id, order.tier, order.method, order.country) == (
        anna.id,
        "p1",
        "ideal",
        "NL",
    )
    assert credits.busy and credits.error == ""  # busy while the page leaves
    assert await run(handle(credits, "buy")) == [] and len(orders(db)) == 1  # a second click


async def test_a_refused_checkout_says_why(make_root, db: Session) -> None:
    credits, _ = await opened(make_root, db, old_member(db), locale="nl")
    credits.methods = [*credits.methods, {"id": "bitcoin", "image_url": ""}]
    credits.method = "bitcoin"  # a method the provider does not offer (anymore)
    events = await run(handle(credits, "buy"))
    assert scripts(events) == [] and credits.error == "Betaling mislukt" and not credits.busy
    assert orders(db) == []


async def test_the_method_page_preselects_the_method_of_its_address(make_root, db: Session) -> None:
    anna = old_member(db)
    credits, _ = await opened(make_root, db, anna, "/credits/p1/creditcard")
    assert (credits.tier, credits.method) == ("p1", "creditcard")
    credits, _ = await opened(make_root, db, anna, "/credits/3/vipps")  # not offered in NL
    assert credits.tier == "p3" and credits.method in method_ids(credits)
    _, events = await opened(make_root, db, anna, "/credits/p7/ideal")
    assert redirects(events) == ["/credits"]


async def test_repeat_order_buys_the_last_bundle_again(make_root, db: Session) -> None:
    anna = old_member(db, paid_user=True)
    credits, _ = await opened(make_root, db, anna, "/credits/repeat-order")
    assert credits.loaded and credits.chosen == {}
    assert scripts(await run(handle(credits, "repeat"))) == []
    add_order(db, anna, tier="p2", method="creditcard")
    credits, _ = await opened(make_root, db, anna, "/credits/repeat-order")
    assert (credits.last_tier, credits.last_method) == ("p2", "creditcard")
    assert credits.chosen["tier"] == "p2"
    events = await run(handle(credits, "repeat"))
    assert any(CHECKOUT.search(script) for script in scripts(events))
    newest = max(orders(db), key=lambda order: order.id)
    assert (newest.tier, newest.method, newest.status) == ("p2", "creditcard", "open")


async def test_a_logged_out_tab_gets_nothing(make_root, db: Session) -> None:
    credits, events = await opened(make_root, db, None)
    assert credits.bundles == [] and not credits.loaded and events == []
    credits.tier, credits.method = "p1", "ideal"
    assert await run(handle(credits, "buy")) == []
    await run(handle(credits, "apply_code", {"code": "SPRING20"}))
    await run(handle(credits, "choose_country", "DE"))
    assert credits.code == "" and credits.payment_country == "" and orders(db) == []


async def test_pricing_for_visitors_in_their_countrys_currency(make_root, db: Session) -> None:
    root = await tab(make_root, db, None, "/pricing")
    substate(root, ShellState).visitor_country = "GB"
    credits = substate(root, CreditsState)
    await run(credits.load_price_list())
    assert [row["tier"] for row in credits.bundles] == list(TIERS)
    assert {row["currency"] for row in credits.bundles} == {"GBP"}
    assert credits.message_credits > 0 and credits.loaded


async def test_the_welcome_bonus_starts_on_the_purchase_page_itself(make_root, db: Session) -> None:
    """A member who signed up a minute ago and opens /credits first (a link in a mail) sees the
    25 % there: the page starts the countdown as the members area does."""
    newcomer = make_member(db, "new@example.com")
    credits, _ = await opened(make_root, db, newcomer)
    assert credits.discount["kind"] == "time_bonus" and credits.discount["percentage"] == 25


async def test_a_code_error_writes_its_amount_in_the_pages_language_not_the_accounts(
    make_root, db: Session
) -> None:
    """A member whose account is German reads the page in English: the page's language wins,
    for the methods (by id, named by the page) and for an amount in an error."""
    code_from_500_euro(db)
    credits, _ = await opened(make_root, db, old_member(db, language="de"), locale="en")
    await run(handle(credits, "apply_code", {"code": "BIG10"}))
    assert "€500.00" in credits.code_error and "500,00" not in credits.code_error
    assert all(set(method) == {"id", "image_url"} for method in credits.methods)


async def test_a_purchase_is_made_in_the_pages_language(make_root, db: Session) -> None:
    """Bought on the English page by a member whose account is German: the order (its receipt,
    the provider's checkout page) is in English."""
    credits, _ = await opened(make_root, db, old_member(db, language="de"), locale="en")
    await run(handle(credits, "choose_tier", "p1"))
    credits.choose_method("ideal")
    await run(handle(credits, "buy"))
    [order] = orders(db)
    assert order.locale == "en"


async def test_a_code_refused_at_checkout_writes_its_amount_in_the_pages_language(
    make_root, db: Session
) -> None:
    """The code was kept in the tab when its rule changed (or the browser sent it again): the
    checkout refuses it with the amount written the page's way, not the account's."""
    code_from_500_euro(db)
    credits, _ = await opened(make_root, db, old_member(db, language="de"), locale="en")
    credits.code = "BIG10"
    await run(handle(credits, "choose_tier", "p1"))
    credits.choose_method("ideal")
    await run(handle(credits, "buy"))
    assert "€500.00" in credits.error and "500,00" not in credits.error
    assert orders(db) == []


async def test_a_method_picked_while_the_methods_load_stays_picked(
    make_root, db: Session, monkeypatch
) -> None:
    """The member picks a bundle, then PayPal before the bundle's methods are back from the
    provider: the methods arriving afterwards leave PayPal chosen (CI once bought iDEAL)."""
    credits, _ = await opened(make_root, db, old_member(db))
    assert credits.method != "paypal"
    asked = state.credits.payment_methods

    async def clicked_meanwhile(*args):
        found = await asked(*args)
        credits.choose_method("paypal")
        return found

    monkeypatch.setattr(state.credits, "payment_methods", clicked_meanwhile)
    await run(handle(credits, "choose_tier", "p0"))
    assert (credits.tier, credits.method) == ("p0", "paypal")
