"""The body of a confirmation dialog: title, explanation, Cancel (or another word for closing it)
and a red action button."""

import reflex as rx

from components.i18n import t


def confirm_content(
    title: rx.Var[str],
    description: rx.Var[str],
    action: str,
    on_confirm: rx.event.EventSpec,
    testid: str,
    dismiss: rx.Var[str] | None = None,
    **props,
) -> rx.Component:
    """`action` is the msgid of the confirming button; `testid` names that button. `dismiss`
    replaces "Cancel" where a language's word for it would read like the action."""
    return rx.alert_dialog.content(
        rx.alert_dialog.title(title),
        rx.alert_dialog.description(description),
        rx.flex(
            rx.alert_dialog.cancel(
                rx.button(
                    t("Cancel") if dismiss is None else dismiss, variant="soft", color_scheme="gray"
                )
            ),
            rx.alert_dialog.action(
                rx.button(t(action), color_scheme="red", on_click=on_confirm, data_testid=testid)
            ),
            spacing="3",
            justify="end",
            margin_top="16px",
        ),
        **props,
    )
