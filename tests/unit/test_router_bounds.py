"""What a tab's router data may hold (issue 28, finding 2), value by value."""

from app.router_bounds import (
    acceptable_token,
    bounded_connection,
    bounded_router_data,
    bounded_storage,
)
from models.member import utcnow
from services.click_cookie import CLICK_COOKIE, signed, verified_click

LONG = "x" * 240_000


def test_a_normal_address_is_kept_whole() -> None:
    sent = {"pathname": "/chats/5", "asPath": "/chats/5?gift=1", "query": {"id": "5", "gift": "1"}}
    assert bounded_router_data(sent) == sent


def test_an_over_long_address_is_cut_to_its_path_keeping_the_routes_own_params() -> None:
    sent = {"pathname": "/chats/5", "asPath": f"/chats/5?q={LONG}", "query": {"id": "5", "q": LONG}}
    assert bounded_router_data(sent) == {
        "pathname": "/chats/5",
        "asPath": "/chats/5",
        "query": {"id": "5"},
    }
    crafted = {"pathname": "/members", "asPath": "/members", "query": {"a": LONG}}
    assert bounded_router_data(crafted)["query"] == {}


def test_only_the_keys_the_frontend_sends_and_only_texts() -> None:
    sent = {"pathname": "/members", "extra": LONG, "query": {"n": 5, "k" * 100: "v"}}
    assert bounded_router_data(sent) == {"pathname": "/members", "query": {}}
    assert bounded_router_data({"pathname": LONG}) == {"pathname": "/"}
    assert bounded_router_data("not a mapping") == {}


def test_the_connection_keeps_the_headers_we_read_bounded() -> None:
    static = {
        "sid": "s",
        "ip": "203.0.113.7" + LONG,
        "headers": {
            "user-agent": LONG,
            "accept-language": "de-DE,de;q=0.9",
            "cf-ipcountry": "DE",
            "x-padding": LONG,
            "cookie": f"tracker={LONG}; auth.session=tok; i18n_redirected=de",
        },
    }
    bounded = bounded_connection(static)
    headers = bounded["headers"]
    assert set(headers) == {"user-agent", "accept-language", "cf-ipcountry", "cookie"}
    assert len(headers["user-agent"]) <= 512
    assert headers["cookie"] == "auth.session=tok; i18n_redirected=de"
    assert len(bounded["ip"]) <= 45 and bounded["sid"] == "s"


def test_the_log_in_still_reads_the_device_cookie() -> None:
    """A member's own browser passes a lock of its address with it (services/device_cookie)."""
    device = "1795800417." + "f" * 64
    static = {"sid": "s", "ip": "", "headers": {"cookie": f"tracker=x; auth.device={device}"}}
    assert bounded_connection(static)["headers"]["cookie"] == f"auth.device={device}"


def test_the_signup_still_reads_the_partner_click_cookie() -> None:
    """A visitor from a partner's link signs up credited to it (state/signup.py)."""
    click = signed(12345, utcnow())
    static = {"sid": "s", "ip": "", "headers": {"cookie": f"tracker=x; {CLICK_COOKIE}={click}"}}
    kept = bounded_connection(static)["headers"]["cookie"]
    assert kept == f"{CLICK_COOKIE}={click}"
    assert verified_click(kept, utcnow()) == 12345


def test_tokens_and_browser_storage() -> None:
    assert acceptable_token("token=4f1c2b0e-8a7d-4c36-9b1e-2d3c4e5f6a7b&EIO=4")
    assert not acceptable_token("token=" + "t" * 100)
    assert not acceptable_token("token=a%20b")
    assert not acceptable_token("EIO=4&transport=websocket")  # Reflex logs its events whole
    assert not acceptable_token("token=a&token=b")
    stored = bounded_storage({"a.b_rx_state_": LONG, "c": 5, **{f"k{n}": "v" for n in range(100)}})
    assert len(stored["a.b_rx_state_"]) == 2000 and "c" not in stored and len(stored) == 64
