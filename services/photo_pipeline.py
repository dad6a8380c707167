"""Photo uploads: check by content, re-encode as metadata-free JPEG, store with a thumbnail.

Only JPEG, PNG and WebP are accepted, judged by the decoded format, never the file name.
Every stored file is a fresh JPEG without EXIF, GPS, ICC profile, XMP or comments.

File names: a photo `<stem>.jpg` (long side at most 1600 px) has a thumbnail `<stem>_t.jpg`
(400x400; the demo seed writes `<stem>_thumb.jpg` instead) and a blurred rendition
`<stem>_b.jpg` for viewers who may not see the photo. A name's stem is the name without its
extension and without one trailing `_t`, `_thumb` or `_b`; stems we generate contain no `_`,
so the rule is unambiguous for them.

Each stored photo also gets its perceptual hash (imagehash's pHash, 64 bits as 16 hex digits):
a re-upload of a rejected picture, re-encoded, resized or slightly edited, lies within a few
bits of the rejected one's (models/photo_review.py).
"""

import re
import secrets
import struct
from collections.abc import Iterable
from dataclasses import dataclass
from io import BytesIO

import imagehash
from PIL import ExifTags, Image, ImageFilter, ImageOps

from services.photo_store import PhotoStore
from translations.catalog import N_, N_plural

PHOTO_NOT_AN_IMAGE = N_("This file is not a photo. Upload a JPEG, PNG or WebP image.")
PHOTO_TOO_LARGE = N_("This photo is too large. The maximum is {megabytes} MB.")
PHOTO_TOO_SMALL = N_plural(
    "This photo is too small. Choose one of at least {pixels} pixel wide and high.",
    "This photo is too small. Choose one of at least {pixels} pixels wide and high.",
    "pixels",
)
PHOTO_TOO_MANY_PIXELS = N_plural(
    "This photo has too many pixels. The maximum is {megapixels} megapixel.",
    "This photo has too many pixels. The maximum is {megapixels} megapixels.",
    "megapixels",
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
# The stem is as short as possible, so one trailing rendition suffix goes to `suffix`.
_STEM_RE = re.compile(r"^(?P<stem>[A-Za-z0-9_-]+?)(?P<suffix>_t|_thumb|_b)?\.[a-z]+$")
THUMB_SUFFIXES = ("_t", "_thumb")
BLUR_SUFFIX = "_b"
BLUR_TINY_SIDE = 16  # the long side everything is squeezed through: no face survives it
BLUR_SIDE = 400  # the long side of the blurred rendition
BLUR_RADIUS = 12  # GaussianBlur radius at BLUR_SIDE, to smooth away the tiny image's blocks
BLUR_JPEG_OPTIONS = {"quality": 80, "optimize": True, "progressive": True}

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
    blur_filename: str
    width: int
    height: int
    phash: str


def is_photo_filename(name: str) -> bool:
    """True for names our storage may hold: no paths, no dots but the extension."""
    return PHOTO_FILENAME_RE.fullmatch(name) is not None


def blurred_name(filename: str) -> str:
    """`<stem>_b.jpg` for `<stem>.jpg`, `<stem>_t.jpg`, `<stem>_thumb.jpg` or `<stem>_b.jpg`;
    ValueError for names `is_photo_filename` rejects or whose blurred name would be too long."""
    blurred = _blurred_name_or_none(filename)
    if blurred is None:
        raise ValueError(f"not a photo file name: {filename!r}")
    return blurred


def is_blurred_name(filename: str) -> bool:
    """True for `<stem>_b.jpg` names of photos we may hold."""
    return _blurred_name_or_none(filename) == filename


def original_name(filename: str) -> str:
    """`<stem>.jpg`: the stored photo that a thumbnail or blurred rendition was made from."""
    match = _STEM_RE.fullmatch(filename) if is_photo_filename(filename) else None
    if match is None:
        raise ValueError(f"not a photo file name: {filename!r}")
    return f"{match['stem']}.jpg"


def ensure_blurred(store: PhotoStore, filename: str) -> str | None:
    """The name of the blurred rendition of the photo `filename` belongs to, made on first use
    from the thumbnail (or else the photo); None when neither exists or decodes. Safe to call
    concurrently: a store's `put` is atomic, so readers never see half of it."""
    name = blurred_name(filename)
    if store.exists(name):
        return name
    sources = _blur_sources(name)
    blurred = _blur_first_source(store.get(source) for source in sources)
    if blurred is None:
        return None
    store.put(name, blurred)
    if not any(store.exists(source) for source in sources):
        store.delete(name)  # the photo was deleted meanwhile: leave no orphan
        return None
    return name


def store_photo(data: bytes, store: PhotoStore) -> StoredPhoto:
    """Check, clean and store an upload as `<stem>.jpg`, `<stem>_t.jpg` and `<stem>_b.jpg`;
    or PhotoRejected."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise PhotoRejected(PHOTO_TOO_LARGE, {"megabytes": MAX_UPLOAD_MEGABYTES})
    photo = _clean_image(data)
    thumb = ImageOps.fit(photo, THUMB_SIZE, Image.Resampling.LANCZOS)
    stem = _random_stem()
    names = (f"{stem}.jpg", f"{stem}_t.jpg", f"{stem}{BLUR_SUFFIX}.jpg")
    stored = StoredPhoto(*names, photo.width, photo.height, perceptual_hash(photo))
    try:
        store.put(stored.filename, _jpeg_bytes(photo))
        store.put(stored.thumb_filename, _jpeg_bytes(thumb))
        store.put(stored.blur_filename, _blurred_jpeg_bytes(thumb))
    except BaseException:
        delete_photo_files(store, *names)
        raise
    return stored


def perceptual_hash(image: Image.Image) -> str:
    """The image's 64-bit pHash as 16 hex digits."""
    return str(imagehash.phash(image))


def delete_photo_files(store: PhotoStore, *filenames: str) -> None:
    """Remove stored photo files and their blurred renditions; missing ones are fine, unsafe
    names raise ValueError (before anything is removed)."""
    unsafe = [name for name in filenames if not is_photo_filename(name)]
    if unsafe:
        raise ValueError(f"not a photo file name: {unsafe!r}")
    blurred = (_blurred_name_or_none(name) for name in filenames)
    for name in dict.fromkeys([*filenames, *(name for name in blurred if name)]):
        store.delete(name)


def keep_as_evidence(photos: PhotoStore, evidence: PhotoStore, *filenames: str) -> None:
    """Move stored photo files to `evidence` (a reported photo its member deleted: the
    moderator must still see it) and remove their blurred renditions; names as
    `delete_photo_files` checks them."""
    unsafe = [name for name in filenames if not is_photo_filename(name)]
    if unsafe:
        raise ValueError(f"not a photo file name: {unsafe!r}")
    for name in filenames:
        if (data := photos.get(name)) is not None:
            evidence.put(name, data)
    delete_photo_files(photos, *filenames)  # the originals, their blurs, anything left


def _blurred_name_or_none(filename: str) -> str | None:
    """`<stem>_b.jpg` for a valid photo file name, else None."""
    match = _STEM_RE.fullmatch(filename) if is_photo_filename(filename) else None
    blurred = f"{match['stem']}{BLUR_SUFFIX}.jpg" if match else ""
    return blurred if is_photo_filename(blurred) else None


def _blur_sources(blurred: str) -> list[str]:
    """The names a blurred rendition may be made from, best first; never itself."""
    stem = blurred.removesuffix(f"{BLUR_SUFFIX}.jpg")
    return [f"{stem}{suffix}.jpg" for suffix in THUMB_SUFFIXES] + [f"{stem}.jpg"]


def _blur_first_source(sources: Iterable[bytes | None]) -> bytes | None:
    """The blurred JPEG of the first existing source that decodes, or None."""
    for source in sources:
        if source is None:
            continue
        try:
            with Image.open(BytesIO(source), formats=ACCEPTED_FORMATS) as image:
                if image.width * image.height > MAX_PIXELS:
                    continue
                image.draft("RGB", (BLUR_SIDE, BLUR_SIDE))  # JPEG: decode at a reduced scale
                return _blurred_jpeg_bytes(_flatten(image))
        except _PILLOW_ERRORS:
            continue
    return None


def _blurred_jpeg_bytes(image: Image.Image) -> bytes:
    """Squeeze the image through BLUR_TINY_SIDE px, enlarge it to BLUR_SIDE and blur hard:
    the detail is gone for good, only colours and rough shapes are left."""
    tiny = image.copy()
    tiny.thumbnail((BLUR_TINY_SIDE, BLUR_TINY_SIDE), Image.Resampling.BOX)
    scale = BLUR_SIDE / max(tiny.size)
    size = (max(1, round(tiny.width * scale)), max(1, round(tiny.height * scale)))
    blurred = tiny.resize(size, Image.Resampling.BICUBIC)
    blurred = blurred.filter(ImageFilter.GaussianBlur(BLUR_RADIUS))
    buffer = BytesIO()
    blurred.convert("RGB").save(buffer, "JPEG", **BLUR_JPEG_OPTIONS)
    return buffer.getvalue()


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
    """22 random characters from [A-Za-z0-9-]: no `_`, so no stem ends like a suffix."""
    return re.sub(r"[^A-Za-z0-9-]", "-", secrets.token_urlsafe(16))
