"""A photo drop zone: a native file input inside a label, feeding Reflex's upload event.

`rx.upload` brings react-dropzone and its MIME table (14 KB gzip) into every page that can
show the signup modal, which is every page. The browser already has all a photo picker needs:
the label opens the file dialog, change and drop events carry the files, and the upload goes
through Reflex's own `uploadFiles`, streamed (`rx.upload_files_chunk`) to a background handler
that holds the tab's state lock only briefly (state/upload_stream.py). The server judges every
file by its content, so `accept` only narrows what the dialog offers."""

import reflex as rx
from reflex.event import EventHandler, EventSpec
from reflex.vars import ObjectVar, Var
from reflex_components_core.core.upload import Upload
from reflex_components_core.el.elements.forms import Label

# Reflex serves its upload endpoint (POST /_upload) only for apps that use rx.upload.
Upload.is_used = True

# What the file dialog offers; the server judges every file by its content all the same.
PHOTO_ACCEPT = "image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp"

# The files of a change event (the input's) or a drop event (the zone's). Reflex names the
# trigger's argument "_" + the spec's parameter name. The input is cleared once read, so
# choosing the same file again is a change too.
_EVENT = "_event"
_FILES = Var(
    _js_expr=(
        f"((files) => (({_EVENT}.target.type === 'file') && ({_EVENT}.target.value = ''), files))"
        f"(Array.from(({_EVENT}.dataTransfer ?? {_EVENT}.target).files ?? []))"
    )
)


def _file_event(event: ObjectVar[dict]) -> tuple[Var[dict]]:
    return (event,)


class _DropLabel(Label):
    """A label that hears its input's change (it bubbles) and files dropped on it."""

    on_change: EventHandler[_file_event]
    on_drop: EventHandler[_file_event]
    on_drag_over: EventHandler[_file_event]


def _upload_of(upload: EventSpec) -> EventSpec:
    """`upload` (a handler given `rx.upload_files_chunk`) sending the event's files."""
    return upload.with_args(
        tuple((name, _FILES if name._js_expr == "files" else value) for name, value in upload.args)
    )


def photo_picker(
    *children: rx.Component,
    on_files: EventHandler,
    upload_id: str,
    multiple: bool,
    disabled: Var[bool] | bool = False,
    **props,
) -> rx.Component:
    """A zone that opens the file dialog when tapped and takes files dropped on it."""
    upload = _upload_of(on_files(rx.upload_files_chunk(upload_id=upload_id)))
    return _DropLabel.create(
        rx.el.input(
            type="file",
            accept=PHOTO_ACCEPT,
            multiple=multiple,
            disabled=disabled,
            class_name="visually-hidden",
        ),
        *children,
        on_change=upload,
        on_drop=[rx.prevent_default, upload],
        on_drag_over=rx.prevent_default,
        **props,
    )
