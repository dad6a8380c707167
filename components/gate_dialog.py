"""A dialog the visitor must answer before going on (the age notice, newer terms): neither
Escape nor a click beside it closes it; a way out on the left, the answer that goes on."""

import reflex as rx


def gate_dialog(
    title: rx.Var[str],
    description: rx.Var[str],
    leave: rx.Component,
    accept: rx.Component,
    *, open: rx.Var[bool], testid: str, extra: rx.Component | None = None,
) -> rx.Component:  # fmt: skip
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(title),
            rx.dialog.description(description),
            extra if extra is not None else rx.fragment(),
            rx.flex(leave, accept, spacing="3", justify="end", align="center", margin_top="16px"),
            max_width="440px",
            on_escape_key_down=rx.prevent_default,
            on_pointer_down_outside=rx.prevent_default,
            data_testid=testid,
        ),
        open=open,
    )
