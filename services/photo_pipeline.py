"""Photo uploads: check by content, re-encode as metadata-free JPEG, store with a thumbnail.

Only JPEG, PNG and WebP are accepted, judged by the decoded format, never the file name.
Every stored file is a fresh JPEG without EXIF, GPS, ICC profile, XMP or comments.
"""

import os
import re
import secrets
import struct
import tempfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from PIL import ExifTags, Image, ImageOps

from translations.catalog import N_

PHOTO_NOT_AN_IMAGE = N_("This file is not a photo. Upload a JPEG, PNG or WebP image.")
PHOTO_TOO_LARGE = N_("This photo is too large. The maximum is {megabytes} MB.")
PHOTO_TOO_SMALL = N_(
    "This photo is too small. Choose one of at least {pixels} pixels wide and high."
)
PHOTO_TOO_MANY_PIXELS = N_(
    "This photo has too many pixels. The maximum is {megapixels} megapixels."
)

MAX_UPLOAD_MEGABYTES = 10
MAX_UPLOAD_BYTES = MAX_UPLOAD_MEGABYTES * 1024 * 1024
MAX_MEGAPIXELS = 40
MAX_PIXELS = MAX_MEGAPIXELS * 1_000_000
MIN_SIDE = 200
MAX_SIDE = 1600
THUMB_SIZE = (400, 400)
JPEG_OPTIONS = {"quality": 85, "optimize": True, "progressive": True}
ACCEPTED_FORMATS = ("JPEG", "PNG", "WEBP")
PHOTO_FILENAME_RE = re.compile(r"^[A-Za-z0-9_-]{1,100}\.(jpg|jpeg|png|webp)$")

# ImageOps.exif_transpose's table: EXIF Orientation -> the turn that makes the photo upright.
_ORIENTATION_TRANSPOSE = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}

# What Pillow raises on malformed input (UnidentifiedImageError is an OSError).
_PILLOW_ERRORS = (
    OSError,
    ValueError,
    SyntaxError,
    EOFError,
    IndexError,
    struct.error,
    Image.DecompressionBombError,
)


class PhotoRejected(Exception):
    """An upload we refuse; `message` is a msgid, `params` fill its placeholders."""

    def __init__(self, message: str, params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.params = params or {}


@dataclass(frozen=True)
class StoredPhoto:
    filename: str
    thumb_filename: str
    width: int
    height: int


def is_photo_filename(name: str) -> bool:
    """True for names our storage may hold: no paths, no dots but the extension."""
    return PHOTO_FILENAME_RE.fullmatch(name) is not None


def store_photo(data: bytes, photo_dir: Path) -> StoredPhoto:
    """Check, clean and store an upload as `<stem>.jpg` plus `<stem>_t.jpg`; or PhotoRejected."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise PhotoRejected(PHOTO_TOO_LARGE, {"megabytes": MAX_UPLOAD_MEGABYTES})
    photo = _clean_image(data)
    thumb = ImageOps.fit(photo, THUMB_SIZE, Image.Resampling.LANCZOS)
    stem = _random_stem()
    stored = StoredPhoto(f"{stem}.jpg", f"{stem}_t.jpg", photo.width, photo.height)
    try:
        _write_atomically(photo_dir, stored.filename, _jpeg_bytes(photo))
        _write_atomically(photo_dir, stored.thumb_filename, _jpeg_bytes(thumb))
    except BaseException:
        delete_photo_files(photo_dir, stored.filename, stored.thumb_filename)
        raise
    return stored


def delete_photo_files(photo_dir: Path, *filenames: str) -> None:
    """Remove stored photo files; missing ones are fine, unsafe names raise ValueError."""
    unsafe = [name for name in filenames if not is_photo_filename(name)]
    if unsafe:
        raise ValueError(f"not a photo file name: {unsafe!r}")
    for name in filenames:
        (photo_dir / name).unlink(missing_ok=True)


def _clean_image(data: bytes) -> Image.Image:
    """Decode, orient, flatten to RGB on white and cap the long side; no metadata survives."""
    try:
        with Image.open(BytesIO(data), formats=ACCEPTED_FORMATS) as image:
            _check_header(image)
            image.draft("RGB", (MAX_SIDE, MAX_SIDE))  # JPEG: decode at a reduced scale
            image.load()
            photo = _flatten(_upright(image))
    except Image.DecompressionBombError as error:
        raise _too_many_pixels() from error
    except _PILLOW_ERRORS as error:
        raise PhotoRejected(PHOTO_NOT_AN_IMAGE) from error
    photo.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    return photo


def _check_header(image: Image.Image) -> None:
    """Reject by format and dimensions before any pixel is decoded."""
    if image.format not in ACCEPTED_FORMATS:
        raise PhotoRejected(PHOTO_NOT_AN_IMAGE)
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise _too_many_pixels()
    if min(width, height) < MIN_SIDE:
        raise PhotoRejected(PHOTO_TOO_SMALL, {"pixels": MIN_SIDE})


def _too_many_pixels() -> PhotoRejected:
    return PhotoRejected(PHOTO_TOO_MANY_PIXELS, {"megapixels": MAX_MEGAPIXELS})


def _upright(image: Image.Image) -> Image.Image:
    """Apply the EXIF orientation like ImageOps.exif_transpose, without re-serialising the EXIF
    (which raises TypeError on some malformed blocks); unreadable EXIF counts as upright."""
    try:
        orientation = image.getexif().get(ExifTags.Base.Orientation)
    except _PILLOW_ERRORS:
        return image
    method = _ORIENTATION_TRANSPOSE.get(orientation) if isinstance(orientation, int) else None
    return image if method is None else image.transpose(method)


def _flatten(image: Image.Image) -> Image.Image:
    """A new RGB image on white with the pixels only (a fresh image carries no `info`)."""
    if image.mode in ("I", "I;16", "I;16B", "I;16L", "I;16N"):
        image = image.convert("I").point(lambda value: value / 256).convert("L")
    rgba = image.convert("RGBA")
    canvas = Image.new("RGB", rgba.size, "white")
    canvas.paste(rgba, mask=rgba.getchannel("A"))
    return canvas


def _jpeg_bytes(image: Image.Image) -> bytes:
    buffer = BytesIO()
    image.save(buffer, "JPEG", **JPEG_OPTIONS)
    return buffer.getvalue()


def _random_stem() -> str:
    """22 random URL-safe characters, limited to [A-Za-z0-9_-]."""
    return re.sub(r"[^A-Za-z0-9_-]", "", secrets.token_urlsafe(16))


def _write_atomically(directory: Path, name: str, content: bytes) -> None:
    """Write to a temporary file in `directory`, then rename it over `name`."""
    directory.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(dir=directory, prefix=".upload-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as temp_file:
            temp_file.write(content)
            temp_file.flush()
            os.fsync(temp_file.fileno())
        os.replace(temp_name, directory / name)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
