"""The app's JavaScript starts after the first paint: the page's module preloads and deferred
scripts (the language's texts) are put on hold where they are and its async app module moves
into a script that, once a frame has been drawn (at once in a tab nobody sees) and the page is
parsed, turns the preloads on, fetches the deferred scripts and adds the module when they have
run."""

import json

from app.deferred_boot import deferred_boot
from tests.node import run_node

PAGE = (
    '<html><head><meta charSet="utf-8"/><link rel="modulepreload" href="/assets/a.js"/>'
    '<link rel="modulepreload" href="/assets/b.js"/><link href="/x.css" rel="stylesheet"/>'
    '<script defer="" src="/i18n/en.js?v=1"></script></head><body><main>Hello</main>'
    '<script type="module" async="">import "/assets/a.js";\n'
    'import("/assets/b.js");</script><script>window.after = "</script>"</script></body></html>'
)
MODULE = 'import "/assets/a.js";\nimport("/assets/b.js");'
WAITING = "modulepreload-after-paint"
HELD = "text/x-after-paint"

# A minimal document holding the page's two links and %(held)s held scripts: records the
# module the boot script appends, the links' rel, the scripts put in the held ones' place, and
# what it waits for; `loaded()` ends the fetch of every script put in place.
FAKE_DOM = """
const links = [{rel: %(waiting)s, href: "/assets/a.js"}, {rel: %(waiting)s, href: "/assets/b.js"}];
const appended = [], fetched = [], frames = [], timers = [], listeners = {};
const held = Array.from({length: %(held)s}, (_, i) => ({
  getAttribute: name => name === "src" ? "/i18n/" + i + ".js" : null,
  replaceWith: script => fetched.push(script),
}));
globalThis.document = {
  visibilityState: %(visibility)s,
  readyState: "loading",
  createElement: tag => ({tag}),
  querySelectorAll: selector => selector === "link[rel=" + %(waiting)s + "]"
    ? links.filter(link => link.rel === %(waiting)s)
    : selector === 'script[type="' + %(type)s + '"]' ? held : [],
  body: {appendChild: e => appended.push({tag: e.tag, type: e.type, text: e.textContent})},
  addEventListener: (name, fn) => { listeners[name] = fn; },
};
globalThis.requestAnimationFrame = fn => frames.push(fn);
globalThis.setTimeout = fn => timers.push(fn);
const loaded = () => fetched.forEach((script, i) => (i %% 2 ? script.onerror : script.onload)());
const seen = () => ({
  rels: links.map(link => link.rel),
  fetched: fetched.map(script => [script.src, script.async]),
  appended: appended.slice(),
});
"""
PAINT = "frames.forEach(f => f()); timers.forEach(t => t());"
PARSED = "listeners.DOMContentLoaded();"
NOT_STARTED = {"rels": [WAITING, WAITING], "fetched": [], "appended": []}
STARTED = {
    "rels": ["modulepreload", "modulepreload"],
    "fetched": [],
    "appended": [{"tag": "script", "type": "module", "text": MODULE}],
}
TEXTS = [["/i18n/0.js", False], ["/i18n/1.js", False]]  # in order, run in that order


def _boot_script(page: str) -> str:
    start = page.index("<script>(function(){")
    return page[start + len("<script>") : page.index("</script>", start)]


def _after(visibility: str, then: str, held: int = 0) -> dict:
    """The links' rel, the scripts fetched and the appended module once the boot script and
    `then` (JavaScript) have run in a document that is `visibility` with `held` scripts."""
    fake = FAKE_DOM % {
        "visibility": json.dumps(visibility),
        "waiting": json.dumps(WAITING),
        "type": json.dumps(HELD),
        "held": held,
    }
    boot = _boot_script(deferred_boot(PAGE))
    return json.loads(run_node(fake + boot + ";" + then + "console.log(JSON.stringify(seen()));"))


def test_the_preloads_wait_in_place_and_the_app_module_leaves_the_html() -> None:
    page = deferred_boot(PAGE)
    assert 'rel="modulepreload"' not in page
    head = page[: page.index("</head>")]
    assert head.count(f'<link rel="{WAITING}" href="/assets/') == 2  # where React expects them
    assert f'<script type="{HELD}" src="/i18n/en.js?v=1"></script></head>' in page
    assert "defer" not in page
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


def test_a_painted_page_waits_until_it_is_parsed() -> None:
    assert _after("visible", PAINT) == NOT_STARTED


def test_the_held_scripts_are_fetched_after_the_paint_and_the_app_once_they_ran() -> None:
    assert _after("visible", PARSED, held=2) == NOT_STARTED
    fetching = _after("visible", PARSED + PAINT, held=2)
    assert fetching == {**STARTED, "fetched": TEXTS, "appended": []}
    assert _after("visible", PARSED + PAINT + "loaded();", held=2) == {**STARTED, "fetched": TEXTS}


def test_a_hidden_tab_starts_the_app_once_parsed() -> None:
    assert _after("hidden", "") == NOT_STARTED
    assert _after("hidden", PARSED + PARSED) == STARTED


def test_a_page_shown_before_its_first_frame_starts_the_app_once() -> None:
    assert _after("visible", PARSED + "listeners.visibilitychange();" + PAINT) == STARTED


def test_a_page_without_the_app_module_is_left_alone() -> None:
    page = '<html><head><link rel="modulepreload" href="/a.js"/></head><body></body></html>'
    assert deferred_boot(page) == page
