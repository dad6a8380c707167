"""A value React may render late, in pieces, instead of at once (`useDeferredValue`).

When the websocket's state arrives, whatever it changes renders in one task. A change that
mounts much (the /members grid replacing the server's first page) makes that task long: the
page cannot answer a tap until it ends. Read through `deferred`, such a change first renders
with the previous value, then again with the new one at low priority, which React splits into
short tasks and interrupts for the visitor's input."""

import reflex as rx
from reflex_base.utils.imports import ImportVar
from reflex_base.vars.base import VarData


def deferred(value: rx.Var, name: str) -> rx.Var:
    """`value` through `useDeferredValue`, as the component-scoped constant `name`."""
    hook = f"const {name} = useDeferredValue({value!s});"  # str(): the bare JavaScript
    data = VarData.merge(
        value._get_all_var_data(),  # the state's own hook comes first: the value reads it
        VarData(hooks={hook: None}, imports={"react": [ImportVar(tag="useDeferredValue")]}),
    )
    return rx.Var(name, _var_data=data).to(value._var_type)
