"""The app's JavaScript starts after the first paint: the page's module preloads are put on
hold where they are and its async app module moves into a script that turns the preloads on
and adds the module once a frame has been drawn (at once in a tab nobody sees) and the
deferred scripts, the language's texts among them, have run."""

import json

from app.deferred_boot import deferred_boot
from tests.node import run_node

PAGE = (
    '<html><head><meta charSet="utf-8"/><link rel="modulepreload" href="/assets/a.js"/>'
    '<link rel="modulepreload" href="/assets/b.js"/><link href="/x.css" rel="stylesheet"/>'
    '</head><body><main>Hello</main><script type="module" async="">import "/assets/a.js";\n'
    'import("/assets/b.js");</script><script>window.after = "</script>"</script></body></html>'
)
MODULE = 'import "/assets/a.js";\nimport("/assets/b.js");'
WAITING = "modulepreload-after-paint"

# A minimal document holding the page's two links: records the module the boot script
# appends, the links' rel, and what it waits for.
FAKE_DOM = """
const links = [{rel: %(waiting)s, href: "/assets/a.js"}, {rel: %(waiting)s, href: "/assets/b.js"}];
const appended = [], frames = [], timers = [], listeners = {};
globalThis.document = {
  visibilityState: %(visibility)s,
  readyState: "loading",
  createElement: tag => ({tag}),
  querySelectorAll: selector => selector === "link[rel=" + %(waiting)s + "]"
    ? links.filter(link => link.rel === %(waiting)s) : [],
  body: {appendChild: e => appended.push({tag: e.tag, type: e.type, text: e.textContent})},
  addEventListener: (name, fn) => { listeners[name] = fn; },
};
globalThis.requestAnimationFrame = fn => frames.push(fn);
globalThis.setTimeout = fn => timers.push(fn);
const seen = () => ({rels: links.map(link => link.rel), appended: appended.slice()});
"""
PAINT = "frames.forEach(f => f()); timers.forEach(t => t());"
PARSED = "listeners.DOMContentLoaded();"
NOT_STARTED = {"rels": [WAITING, WAITING], "appended": []}
STARTED = {
    "rels": ["modulepreload", "modulepreload"],
    "appended": [{"tag": "script", "type": "module", "text": MODULE}],
}


def _boot_script(page: str) -> str:
    start = page.index("<script>(function(){")
    return page[start + len("<script>") : page.index("</script>", start)]


def _after(visibility: str, then: str) -> dict:
    """The links' rel and the appended module once the boot script and `then` (JavaScript)
    have run in a document that is `visibility`."""
    fake = FAKE_DOM % {"visibility": json.dumps(visibility), "waiting": json.dumps(WAITING)}
    boot = _boot_script(deferred_boot(PAGE))
    return json.loads(run_node(fake + boot + ";" + then + "console.log(JSON.stringify(seen()));"))


def test_the_preloads_wait_in_place_and_the_app_module_leaves_the_html() -> None:
    page = deferred_boot(PAGE)
    assert 'rel="modulepreload"' not in page
    head = page[: page.index("</head>")]
    assert head.count(f'<link rel="{WAITING}" href="/assets/') == 2  # where React expects them
    assert '<script type="module"' not in page
    assert "<main>Hello</main>" in page
    assert '<script>window.after = "</script>' in page  # other scripts stay as they are
    assert "</script>" not in _boot_script(page)  # the module's text cannot end the script


def test_a_visible_page_starts_the_app_after_its_first_frame_and_once() -> None:
    assert _after("visible", "") == NOT_STARTED
    assert _after("visible", PARSED + PAINT) == STARTED
    assert _after("visible", PARSED + PAINT + PARSED + "listeners.visibilitychange();") == STARTED


def test_a_frame_without_its_timer_does_not_start_it_yet() -> None:
    assert _after("visible", PARSED + "frames.forEach(f => f());") == NOT_STARTED


def test_a_painted_page_waits_for_its_deferred_scripts() -> None:
    assert _after("visible", PAINT) == NOT_STARTED


def test_a_hidden_tab_starts_the_app_once_parsed() -> None:
    assert _after("hidden", "") == NOT_STARTED
    assert _after("hidden", PARSED + PARSED) == STARTED


def test_a_page_shown_before_its_first_frame_starts_the_app_once() -> None:
    assert _after("visible", PARSED + "listeners.visibilitychange();" + PAINT) == STARTED


def test_a_page_without_the_app_module_is_left_alone() -> None:
    page = '<html><head><link rel="modulepreload" href="/a.js"/></head><body></body></html>'
    assert deferred_boot(page) == page
