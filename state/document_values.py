"""Values the browser reads from the page the server sent, the same way every time.

The server writes into each page what it knows before the app runs (the language, the site's
details, the first search results: app/document_head.py). A component reads such a value with
`useSyncExternalStore`, whose server snapshot is the client's own: React's first render then
shows exactly what the HTML shows, so hydration matches, and the value is read once per
document (kept on `window`) so it never changes under a rendered page. Reflex's prerender runs
in node, without a document: there the value is the mark the server replaces."""

import reflex as rx
from reflex_base.utils.imports import ImportVar
from reflex_base.vars.base import VarData

REACT_HOOK_IMPORTS = {"react": [ImportVar(tag="useSyncExternalStore")]}


def prerendered_or(prerendered: str, in_browser: str) -> str:
    """JavaScript that is `prerendered` in Reflex's prerender (node: no document), else
    `in_browser`."""
    return f"(typeof document === 'undefined' ? {prerendered} : {in_browser})"


def read_once(name: str, prerendered: str, in_browser: str) -> str:
    """JavaScript `() => value`: `in_browser` the first time, kept as `window.__<name>`."""
    return "() => " + prerendered_or(prerendered, f"(window.__{name} ??= {in_browser})")


def document_value(name: str, read: str) -> rx.Var:
    """The component-scoped constant `name`, the value `read` (`read_once`) gives."""
    hook = f"const {name} = useSyncExternalStore(() => () => {{}}, {read}, {read});"
    return rx.Var(name, _var_data=VarData(hooks={hook: None}, imports=REACT_HOOK_IMPORTS))
