"""The app's JavaScript fetched after the first paint of the server's HTML.

Reflex's page preloads two dozen modules in the head and starts the app with an async module
script. On a slow line those downloads share the bandwidth with the stylesheet and the photos
the first paint waits for, and on a fast one the module runs before the first frame, although
the prerendered page needs none of it to show. This puts the preloads on hold and moves the
module into a small script that, once the page has painted (the frame after it; at once in a
tab the visitor cannot see, where no frame comes) and is parsed, turns the preloads on, fetches
the page's deferred scripts (the language's texts, app/document_head.py), held back until then
by a type no browser runs, and adds the same module when they have run: the page shows first
and the app takes it over as before."""

import json
import re

# The preloads stay where React expects them when it hydrates the head (a missing one is a
# hydration error), under a rel no browser acts on until the boot turns them into preloads.
_PRELOAD = 'rel="modulepreload"'
_WAITING_REL = "modulepreload-after-paint"
# A script of a type no browser runs is not fetched either: the boot replaces it with a real one.
_HELD_TYPE = "text/x-after-paint"
_DEFERRED = '<script defer="" src='
_HELD = f'<script type="{_HELD_TYPE}" src='

_APP_MODULE = re.compile(r'<script type="module" async="">(.*?)</script>', re.DOTALL)
_BOOT_TEMPLATE = """<script>(function(){
var painted = false, parsed = document.readyState !== "loading", done = false;
function boot() {
  if (done || !painted || !parsed) return;
  done = true;
  document.querySelectorAll("link[rel=__WAITING__]").forEach(function (link) {
    link.rel = "modulepreload";
  });
  var held = document.querySelectorAll('script[type="__HELD__"]'), waiting = held.length;
  function start() {
    var app = document.createElement("script");
    app.type = "module"; app.textContent = __MODULE__; document.body.appendChild(app);
  }
  function ran() { if (--waiting === 0) start(); }
  held.forEach(function (standIn) {
    var script = document.createElement("script");
    script.src = standIn.getAttribute("src"); script.async = false;
    script.onload = script.onerror = ran;
    standIn.replaceWith(script);
  });
  if (!waiting) start();
}
function shown() { painted = true; boot(); }
if (document.visibilityState === "hidden") painted = true;
else {
  requestAnimationFrame(function () { setTimeout(shown, 0); });
  document.addEventListener("visibilitychange", shown, {once: true});
}
if (!parsed) document.addEventListener("DOMContentLoaded", function () { parsed = true; boot(); });
boot();
})()</script>"""
_BOOT = _BOOT_TEMPLATE.replace("__WAITING__", _WAITING_REL).replace("__HELD__", _HELD_TYPE)


def deferred_boot(html: str) -> str:
    """The page with its module preloads, deferred scripts and app module started after the
    first paint; a page without Reflex's app module is returned as it is."""
    module = _APP_MODULE.search(html)
    if module is None:
        return html
    boot = _BOOT.replace("__MODULE__", _script_json(module.group(1)))
    before, after = (
        part.replace(_PRELOAD, f'rel="{_WAITING_REL}"').replace(_DEFERRED, _HELD)
        for part in (html[: module.start()], html[module.end() :])
    )
    return before + boot + after


def _script_json(value: object) -> str:
    """JSON that cannot end the inline script it is written into."""
    return json.dumps(value).replace("</", "<\\/")
