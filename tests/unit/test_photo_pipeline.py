"""The photo upload pipeline: content checks, limits, re-encoding without metadata, storage."""

import os
import re
import struct
import tempfile
import zipfile
import zlib
from concurrent.futures import ThreadPoolExecutor
from io import BytesIO
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import (
    ExifTags,
    Image,
    ImageChops,
    ImageFile,
    ImageOps,
    ImageStat,
    PngImagePlugin,
    WebPImagePlugin,
)

from services import photo_pipeline
from services.avatars import draw_avatar, save_avatar_files
from services.photo_pipeline import (
    MAX_UPLOAD_BYTES,
    PHOTO_NOT_AN_IMAGE,
    PHOTO_TOO_LARGE,
    PHOTO_TOO_MANY_PIXELS,
    PHOTO_TOO_SMALL,
    PhotoRejected,
    StoredPhoto,
    blurred_name,
    delete_photo_files,
    ensure_blurred,
    is_photo_filename,
    store_photo,
)
from services.photo_store_local import LocalFolder

FILENAME = re.compile(r"^[A-Za-z0-9_-]{1,100}\.(jpg|jpeg|png|webp)$")
RED, BLUE = (220, 20, 20), (20, 20, 220)
UNSAFE_NAMES = ["../x.jpg", "x.jpg\n", "a/b.jpg", "x.gif", ".jpg", "x.JPG"]
# JPEG markers that carry metadata: APP1 (EXIF, XMP), APP2 (ICC), APP13 (IPTC), COM.
METADATA_MARKERS = {0xE1, 0xE2, 0xED, 0xFE}


def encode(image: Image.Image, fmt: str, **options: object) -> bytes:
    buffer = BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def two_halves(size: tuple[int, int]) -> Image.Image:
    """Red on the left half, blue on the right."""
    image = Image.new("RGB", size, BLUE)
    image.paste(RED, (0, 0, size[0] // 2, size[1]))
    return image


def jpeg_with_metadata() -> bytes:
    """300x200 landscape with orientation 6 (display rotated 90° clockwise), GPS and more."""
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = 6
    exif[ExifTags.Base.Make] = "PhoneMaker"
    exif[ExifTags.Base.Model] = "PhoneModelX"
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps[ExifTags.GPS.GPSLatitudeRef] = "N"
    gps[ExifTags.GPS.GPSLatitude] = (52.0, 22.0, 1.5)
    gps[ExifTags.GPS.GPSLongitudeRef] = "E"
    gps[ExifTags.GPS.GPSLongitude] = (4.0, 53.0, 2.5)
    return encode(
        two_halves((300, 200)),
        "JPEG",
        exif=exif,
        icc_profile=b"secret-icc-profile",
        comment=b"secret-comment",
        xmp=b"<x:xmpmeta>secret-xmp</x:xmpmeta>",
    )


def png_with_header_size(width: int, height: int) -> bytes:
    """A small valid PNG whose IHDR then claims another size (CRC fixed up)."""
    data = bytearray(encode(Image.new("1", (8, 8)), "PNG"))
    ihdr_start = 8 + 4  # signature, chunk length
    data[ihdr_start + 4 : ihdr_start + 12] = struct.pack(">II", width, height)
    crc = zlib.crc32(bytes(data[ihdr_start : ihdr_start + 4 + 13]))
    data[ihdr_start + 17 : ihdr_start + 21] = struct.pack(">I", crc)
    return bytes(data)


def jpeg_with_header_size(width: int, height: int) -> bytes:
    """A small valid JPEG whose SOF0 segment then claims another size."""
    data = bytearray(encode(Image.new("RGB", (16, 16)), "JPEG"))
    sof = data.index(b"\xff\xc0")
    data[sof + 5 : sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def webp_with_header_size(width: int, height: int) -> bytes:
    """A small valid lossy WebP whose VP8 frame header then claims another size (< 16384)."""
    data = bytearray(encode(Image.new("RGB", (16, 16)), "WEBP", quality=50))
    start_code = data.index(b"\x9d\x01\x2a")
    data[start_code + 3 : start_code + 7] = struct.pack("<HH", width, height)
    return bytes(data)


def noise(size: tuple[int, int]) -> Image.Image:
    """Random pixels: as much detail as an image can have."""
    return Image.frombytes("RGB", size, os.urandom(size[0] * size[1] * 3))


def neighbour_difference(image: Image.Image) -> float:
    """Mean absolute difference between horizontally and vertically adjacent grey pixels."""
    grey = image.convert("L")
    right = ImageChops.difference(grey, ImageChops.offset(grey, 1, 0)).crop((1, 0, *grey.size))
    below = ImageChops.difference(grey, ImageChops.offset(grey, 0, 1)).crop((0, 1, *grey.size))
    return (ImageStat.Stat(right).mean[0] + ImageStat.Stat(below).mean[0]) / 2


def jpeg_markers(raw: bytes) -> list[int]:
    """The markers of a JPEG's segments up to the start of the scan (SOS)."""
    assert raw[:2] == b"\xff\xd8"
    markers, position = [], 2
    while raw[position] == 0xFF and raw[position + 1] != 0xDA:
        markers.append(raw[position + 1])
        position += 2 + struct.unpack(">H", raw[position + 2 : position + 4])[0]
    assert raw[position : position + 2] == b"\xff\xda"
    return markers


def assert_clean_jpeg(path: Path, *secrets: bytes) -> None:
    """A fresh JPEG: no metadata segment and none of the secret bytes."""
    raw = path.read_bytes()
    image = opened(path.parent, path.name)
    assert image.format == "JPEG"
    assert dict(image.getexif()) == {}
    assert not {"exif", "icc_profile", "xmp", "comment", "photoshop"} & set(image.info)
    assert not METADATA_MARKERS & set(jpeg_markers(raw))
    for secret in (b"Exif", b"http://ns.adobe.com", b"ICC_PROFILE", *secrets):
        assert secret not in raw


def zip_bytes() -> bytes:
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("evil.html", "<script>secret()</script>")
    return buffer.getvalue()


def blurred_path(folder: Path, name: str) -> Path | None:
    """`ensure_blurred` on the local folder `folder`, as the path it made or found."""
    found = ensure_blurred(LocalFolder(folder), name)
    return None if found is None else folder / found


def rejection(data: bytes, photo_dir: Path) -> PhotoRejected:
    with pytest.raises(PhotoRejected) as caught:
        store_photo(data, LocalFolder(photo_dir))
    assert not photo_dir.exists() or not any(photo_dir.iterdir())  # nothing was written
    return caught.value


def opened(photo_dir: Path, name: str) -> Image.Image:
    image = Image.open(photo_dir / name)
    image.load()
    return image


def test_jpeg_loses_all_metadata_and_is_turned_upright(tmp_path: Path) -> None:
    data = jpeg_with_metadata()
    original = Image.open(BytesIO(data))
    exif = original.getexif()
    assert exif.get_ifd(ExifTags.IFD.GPSInfo)  # the input really has GPS, and the rest
    assert exif[ExifTags.Base.Model] == "PhoneModelX"
    assert {"icc_profile", "xmp", "comment"} <= set(original.info)
    gps_marker = struct.pack(">H", ExifTags.IFD.GPSInfo)  # the GPS IFD pointer tag 0x8825
    assert gps_marker in data

    stored = store_photo(data, LocalFolder(tmp_path))

    for name in (stored.filename, stored.thumb_filename, stored.blur_filename):
        assert_clean_jpeg(tmp_path / name, b"secret", b"PhoneMaker", b"PhoneModelX", gps_marker)
    photo = opened(tmp_path, stored.filename)
    assert (stored.width, stored.height) == photo.size == (200, 300)
    top, bottom = photo.getpixel((100, 20)), photo.getpixel((100, 280))
    assert top[0] > 150 > top[2] and bottom[2] > 150 > bottom[0]  # red went to the top


def test_malformed_exif_does_not_lose_the_photo(tmp_path: Path) -> None:
    data = bytearray(jpeg_with_metadata())
    data[92] = 1  # found by fuzzing: exif_transpose would fail re-writing this EXIF block
    stored = store_photo(bytes(data), LocalFolder(tmp_path))
    assert dict(opened(tmp_path, stored.filename).getexif()) == {}


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_turns_the_photo_upright(tmp_path: Path, orientation: int) -> None:
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = orientation
    source = Image.new("RGB", (300, 200), BLUE)
    source.paste(RED, (0, 0, 150, 100))  # red top-left quadrant: every turn looks different
    expected = ImageOps.exif_transpose(Image.open(BytesIO(encode(source, "PNG", exif=exif))))
    stored = store_photo(encode(source, "PNG", exif=exif), LocalFolder(tmp_path))
    photo = opened(tmp_path, stored.filename)
    assert photo.size == expected.size
    right, bottom = photo.width - 10, photo.height - 10
    for corner in ((10, 10), (right, 10), (10, bottom), (right, bottom)):
        assert (photo.getpixel(corner)[0] > 127) == (expected.getpixel(corner)[0] > 127)


def test_png_with_transparency_becomes_jpeg_on_white(tmp_path: Path) -> None:
    image = Image.new("RGBA", (300, 300), (0, 0, 0, 0))
    image.paste((0, 128, 0, 255), (0, 0, 150, 300))
    stored = store_photo(encode(image, "PNG"), LocalFolder(tmp_path))
    photo = opened(tmp_path, stored.filename)
    assert (photo.format, photo.mode) == ("JPEG", "RGB")
    assert all(channel > 245 for channel in photo.getpixel((250, 150)))
    assert photo.getpixel((50, 150))[1] > 100


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
def test_png_and_webp_lose_icc_xmp_and_exif(tmp_path: Path, fmt: str) -> None:
    exif = Image.Exif()
    exif[ExifTags.Base.Model] = "PhoneModelX"
    exif.get_ifd(ExifTags.IFD.GPSInfo)[ExifTags.GPS.GPSLatitudeRef] = "N"
    xmp = b"<x:xmpmeta>secret-xmp</x:xmpmeta>"
    if fmt == "PNG":
        text = PngImagePlugin.PngInfo()
        text.add_itxt("XML:com.adobe.xmp", xmp.decode())
        text.add_text("Comment", "secret-comment")
        options: dict[str, object] = {"pnginfo": text}
    else:
        options = {"xmp": xmp}
    data = encode(two_halves((300, 300)), fmt, icc_profile=b"secret-icc", exif=exif, **options)
    original = Image.open(BytesIO(data))
    assert {"icc_profile", "exif"} <= set(original.info) and b"secret-xmp" in data

    stored = store_photo(data, LocalFolder(tmp_path))

    for name in (stored.filename, stored.thumb_filename, stored.blur_filename):
        assert_clean_jpeg(tmp_path / name, b"secret", b"PhoneModelX")


def test_webp_is_accepted(tmp_path: Path) -> None:
    stored = store_photo(encode(two_halves((320, 240)), "WEBP"), LocalFolder(tmp_path))
    assert (stored.width, stored.height) == (320, 240)
    assert opened(tmp_path, stored.filename).format == "JPEG"


@pytest.mark.parametrize("fmt", ["GIF", "BMP", "TIFF", "PPM"])
def test_other_image_formats_are_rejected(tmp_path: Path, fmt: str) -> None:
    error = rejection(encode(two_halves((300, 300)), fmt), tmp_path)
    assert error.message == PHOTO_NOT_AN_IMAGE


@pytest.mark.parametrize(
    "data",
    [
        os.urandom(5000),
        b"hello, this is text pretending to be a photo.jpg",
        b'<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"></svg>',
        b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 500,
        b"",
        b"<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>",
        zip_bytes(),
        b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF",
    ],
    ids=["random", "text", "svg", "heic", "empty", "html", "zip", "pdf"],
)
def test_non_images_are_rejected(tmp_path: Path, data: bytes) -> None:
    assert rejection(data, tmp_path).message == PHOTO_NOT_AN_IMAGE


def test_truncated_jpeg_is_rejected(tmp_path: Path) -> None:
    noise = Image.frombytes("RGB", (400, 400), os.urandom(400 * 400 * 3))
    data = encode(noise, "JPEG", quality=90)
    assert rejection(data[: len(data) // 2], tmp_path).message == PHOTO_NOT_AN_IMAGE


def test_too_many_bytes_are_rejected_before_decoding(tmp_path: Path, monkeypatch) -> None:
    def must_not_open(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("decoded an oversized upload")

    monkeypatch.setattr(photo_pipeline.Image, "open", must_not_open)
    error = rejection(b"\xff\xd8\xff" + bytes(MAX_UPLOAD_BYTES), tmp_path)
    assert (error.message, error.params) == (PHOTO_TOO_LARGE, {"megabytes": 10})
    assert error.message.format(**error.params).endswith("The maximum is 10 MB.")


def test_tiny_image_is_rejected(tmp_path: Path) -> None:
    error = rejection(encode(two_halves((50, 50)), "PNG"), tmp_path)
    assert (error.message, error.params) == (PHOTO_TOO_SMALL, {"pixels": 200})


def test_narrow_image_is_rejected(tmp_path: Path) -> None:
    assert rejection(encode(two_halves((1000, 150)), "JPEG"), tmp_path).message == PHOTO_TOO_SMALL


@pytest.mark.parametrize(
    "make_image",
    [
        lambda: encode(Image.new("1", (6500, 6500)), "PNG"),  # 42 MP: our own limit
        lambda: png_with_header_size(20000, 20000),  # 400 MP: Pillow's bomb error
        lambda: png_with_header_size(60000, 60000),  # 3600 MP
        lambda: jpeg_with_header_size(8000, 8000),  # 64 MP, header only
        lambda: jpeg_with_header_size(60000, 60000),
        lambda: webp_with_header_size(9000, 9000),  # 81 MP, header only
        lambda: webp_with_header_size(16383, 16383),  # 268 MP, the most VP8 can declare
    ],
    ids=[
        "png-42mp",
        "png-400mp",
        "png-3600mp",
        "jpeg-64mp",
        "jpeg-3600mp",
        "webp-81mp",
        "webp-268mp",
    ],
)
def test_huge_dimensions_are_rejected_without_decoding(tmp_path: Path, monkeypatch, make_image):
    data = make_image()
    assert len(data) < 100_000

    def must_not_load(*_args: object) -> None:
        raise AssertionError("decoded the pixels of a decompression bomb")

    monkeypatch.setattr(ImageFile.ImageFile, "load", must_not_load)
    monkeypatch.setattr(WebPImagePlugin.WebPImageFile, "load", must_not_load)
    error = rejection(data, tmp_path)
    assert (error.message, error.params) == (PHOTO_TOO_MANY_PIXELS, {"megapixels": 40})


@pytest.mark.parametrize(
    "payload",
    [
        zip_bytes(),
        b"<html><body><script>fetch('/steal?c='+document.cookie)</script></body></html>",
    ],
    ids=["zip", "html"],
)
@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_polyglot_payload_does_not_survive(tmp_path: Path, fmt: str, payload: bytes) -> None:
    data = encode(two_halves((300, 300)), fmt) + payload  # still opens as a valid image
    try:
        stored = store_photo(data, LocalFolder(tmp_path))
        expected = {stored.filename, stored.thumb_filename, stored.blur_filename}
    except PhotoRejected:
        expected = set()  # refusing it is fine too
    assert {path.name for path in tmp_path.iterdir()} == expected
    for path in tmp_path.iterdir():
        raw = path.read_bytes()
        assert payload not in raw
        assert b"PK\x03\x04" not in raw and b"<script" not in raw and b"secret" not in raw
        assert raw.endswith(b"\xff\xd9")  # a JPEG that ends where its image data ends


@pytest.mark.parametrize(
    ("size", "expected"),
    [((2400, 1800), (1600, 1200)), ((1000, 3000), (533, 1600)), ((800, 600), (800, 600))],
)
def test_long_side_is_capped_at_1600(tmp_path: Path, size, expected) -> None:
    stored = store_photo(encode(two_halves(size), "JPEG"), LocalFolder(tmp_path))
    assert (stored.width, stored.height) == opened(tmp_path, stored.filename).size == expected


def test_thumbnail_is_a_400_square_centre_crop(tmp_path: Path) -> None:
    image = Image.new("RGB", (1200, 300), RED)
    image.paste(BLUE, (500, 0, 700, 300))  # a blue band in the middle
    stored = store_photo(encode(image, "PNG"), LocalFolder(tmp_path))
    thumb = opened(tmp_path, stored.thumb_filename)
    assert thumb.size == (400, 400)
    assert thumb.getpixel((200, 200))[2] > 150  # the centre survives the crop
    assert thumb.getpixel((5, 200))[0] > 150


def test_filenames_are_random_and_safe(tmp_path: Path) -> None:
    data, folder = encode(two_halves((300, 300)), "JPEG"), LocalFolder(tmp_path / "photos")
    first, second = store_photo(data, folder), store_photo(data, folder)
    names = set()
    for stored in (first, second):
        stem = stored.filename.removesuffix(".jpg")
        assert FILENAME.match(stored.filename) and "_" not in stem  # no stem looks suffixed
        assert stored.thumb_filename == f"{stem}_t.jpg"
        assert stored.blur_filename == f"{stem}_b.jpg"
        assert all(map(is_photo_filename, (stored.thumb_filename, stored.blur_filename)))
        names |= {stored.filename, stored.thumb_filename, stored.blur_filename}
    assert first.filename != second.filename
    assert {p.name for p in (tmp_path / "photos").iterdir()} == names  # no temp files left


def test_delete_photo_files_removes_all_three_and_ignores_missing(tmp_path: Path) -> None:
    stored = store_photo(encode(two_halves((300, 300)), "JPEG"), LocalFolder(tmp_path))
    assert (tmp_path / stored.blur_filename).is_file()
    delete_photo_files(LocalFolder(tmp_path), stored.filename, stored.thumb_filename, "missing.jpg")
    assert list(tmp_path.iterdir()) == []


def test_delete_photo_files_removes_the_blurred_rendition_of_any_given_name(tmp_path: Path):
    stored = store_photo(encode(two_halves((300, 300)), "JPEG"), LocalFolder(tmp_path))
    (tmp_path / stored.thumb_filename).unlink()
    delete_photo_files(LocalFolder(tmp_path), stored.filename)  # the thumbnail is missing: fine
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", UNSAFE_NAMES)
def test_delete_photo_files_refuses_unsafe_names(tmp_path: Path, name: str) -> None:
    photo_dir = tmp_path / "photos"
    photo_dir.mkdir()
    outside = tmp_path / "x.jpg"
    outside.write_bytes(b"keep me")
    with pytest.raises(ValueError):
        delete_photo_files(LocalFolder(photo_dir), name)
    assert outside.exists()


def test_store_photo_writes_a_blurred_rendition_without_detail(tmp_path: Path) -> None:
    stored = store_photo(encode(noise((800, 600)), "PNG"), LocalFolder(tmp_path))
    blurred = opened(tmp_path, stored.blur_filename)
    thumb = opened(tmp_path, stored.thumb_filename)
    assert_clean_jpeg(tmp_path / stored.blur_filename)
    assert blurred.size == (400, 400)
    assert neighbour_difference(thumb) > 20  # the thumbnail of noise is all detail...
    assert neighbour_difference(blurred) < neighbour_difference(thumb) / 20  # ...this is not
    assert neighbour_difference(blurred) < 1


def test_blurred_rendition_keeps_the_colours_only(tmp_path: Path) -> None:
    image = Image.new("RGB", (400, 400), RED)
    for x in range(0, 400, 4):  # fine blue stripes: detail a blur must remove
        image.paste(BLUE, (x, 0, x + 2, 400))
    stored = store_photo(encode(image, "PNG"), LocalFolder(tmp_path))
    blurred = opened(tmp_path, stored.blur_filename).convert("RGB")
    red, _, blue = ImageStat.Stat(blurred.crop((50, 50, 350, 350))).mean
    assert abs(red - blue) < 30  # the stripes averaged out to purple...
    assert max(ImageStat.Stat(blurred).stddev) < 8  # ...evenly, where the thumbnail
    assert max(ImageStat.Stat(opened(tmp_path, stored.thumb_filename)).stddev) > 40


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("abc.jpg", "abc_b.jpg"),
        ("abc_t.jpg", "abc_b.jpg"),
        ("abc_b.jpg", "abc_b.jpg"),
        ("demo3-1.jpg", "demo3-1_b.jpg"),
        ("demo3-1_thumb.jpg", "demo3-1_b.jpg"),
        ("abc_t_t.jpg", "abc_t_b.jpg"),  # only one suffix is taken off
        ("abc.png", "abc_b.jpg"),
    ],
)
def test_blurred_name(name: str, expected: str) -> None:
    assert blurred_name(name) == expected


@pytest.mark.parametrize("name", [*UNSAFE_NAMES, "", "a" * 99 + ".jpg"])
def test_blurred_name_and_ensure_blurred_refuse_unsafe_names(tmp_path: Path, name: str) -> None:
    (tmp_path / "x_b.jpg").write_bytes(b"not for you")
    with pytest.raises(ValueError):
        blurred_name(name)
    with pytest.raises(ValueError):
        blurred_path(tmp_path / "photos", name)
    assert not (tmp_path / "photos").exists()


def test_ensure_blurred_makes_it_lazily_once(tmp_path: Path, monkeypatch) -> None:
    stored = store_photo(encode(noise((600, 600)), "PNG"), LocalFolder(tmp_path))
    (tmp_path / stored.blur_filename).unlink()

    path = blurred_path(tmp_path, stored.filename)

    assert path == tmp_path / stored.blur_filename
    assert_clean_jpeg(path)
    assert opened(tmp_path, path.name).size == (400, 400)
    assert neighbour_difference(opened(tmp_path, path.name)) < 1
    content = path.read_bytes()

    def must_not_write(*_args: object) -> None:
        raise AssertionError("made the blurred rendition again")

    monkeypatch.setattr(LocalFolder, "put", must_not_write)
    for name in (stored.filename, stored.thumb_filename, stored.blur_filename):
        assert blurred_path(tmp_path, name) == path
    assert path.read_bytes() == content


def test_ensure_blurred_uses_the_photo_when_the_thumbnail_is_missing(tmp_path: Path) -> None:
    stored = store_photo(encode(two_halves((600, 300)), "PNG"), LocalFolder(tmp_path))
    (tmp_path / stored.blur_filename).unlink()
    (tmp_path / stored.thumb_filename).write_bytes(b"broken thumbnail")  # does not decode
    path = blurred_path(tmp_path, stored.thumb_filename)
    assert path is not None and opened(tmp_path, path.name).size == (400, 200)
    (tmp_path / stored.blur_filename).unlink()
    (tmp_path / stored.thumb_filename).unlink()
    assert blurred_path(tmp_path, stored.filename) == path and path.is_file()


def test_ensure_blurred_gives_none_for_a_missing_photo(tmp_path: Path) -> None:
    assert blurred_path(tmp_path, "missing.jpg") is None
    assert blurred_path(tmp_path, "missing_t.jpg") is None
    (tmp_path / "broken.jpg").write_bytes(b"<script>not a photo</script>")
    assert blurred_path(tmp_path, "broken.jpg") is None
    assert {p.name for p in tmp_path.iterdir()} == {"broken.jpg"}


def test_ensure_blurred_accepts_the_blurred_name(tmp_path: Path) -> None:
    assert blurred_path(tmp_path, "abc_b.jpg") is None  # nothing to blur it from
    (tmp_path / "abc.jpg").write_bytes(encode(noise((300, 300)), "JPEG"))
    path = blurred_path(tmp_path, "abc_b.jpg")
    assert path == tmp_path / "abc_b.jpg"
    assert neighbour_difference(opened(tmp_path, path.name)) < 1


def test_ensure_blurred_leaves_no_orphan_when_the_photo_is_deleted_meanwhile(
    tmp_path: Path, monkeypatch
) -> None:
    stored = store_photo(encode(two_halves((300, 300)), "PNG"), LocalFolder(tmp_path))
    (tmp_path / stored.blur_filename).unlink()
    write = LocalFolder.put

    def delete_then_write(folder: LocalFolder, name: str, content: bytes) -> None:
        delete_photo_files(folder, stored.filename, stored.thumb_filename)
        write(folder, name, content)

    monkeypatch.setattr(LocalFolder, "put", delete_then_write)
    assert blurred_path(tmp_path, stored.filename) is None
    assert list(tmp_path.iterdir()) == []


def test_concurrent_ensure_blurred_calls_agree(tmp_path: Path) -> None:
    stored = store_photo(encode(noise((600, 600)), "PNG"), LocalFolder(tmp_path))
    (tmp_path / stored.blur_filename).unlink()
    with ThreadPoolExecutor(8) as pool:
        paths = set(pool.map(lambda _: blurred_path(tmp_path, stored.filename), range(16)))
    assert paths == {tmp_path / stored.blur_filename}
    assert opened(tmp_path, stored.blur_filename).size == (400, 400)
    names = {stored.filename, stored.thumb_filename, stored.blur_filename}
    assert {p.name for p in tmp_path.iterdir()} == names  # no temp files left


def test_demo_photos_get_blurred_renditions_too(tmp_path: Path) -> None:
    avatar = draw_avatar(3, "female", "brown", "green", size=300, person_seed=3)
    filename, thumb_filename = save_avatar_files(avatar, LocalFolder(tmp_path), "demo3-0")
    assert thumb_filename == "demo3-0_thumb.jpg"

    path = blurred_path(tmp_path, thumb_filename)

    assert path == tmp_path / "demo3-0_b.jpg" == blurred_path(tmp_path, filename)
    assert_clean_jpeg(path)
    assert neighbour_difference(opened(tmp_path, path.name)) < 1
    delete_photo_files(LocalFolder(tmp_path), filename, thumb_filename)
    assert list(tmp_path.iterdir()) == []


SMALL_IMAGES = [
    encode(two_halves((200, 200)), fmt, **options)
    for fmt, options in [("PNG", {}), ("JPEG", {"quality": 30}), ("WEBP", {"quality": 30})]
]


def mangled(data: bytes) -> st.SearchStrategy[bytes]:
    """A valid image with a few bytes overwritten and maybe cut short."""
    edits = st.lists(st.tuples(st.integers(0, len(data) - 1), st.integers(0, 255)), max_size=6)
    cut = st.integers(1, len(data))

    def apply(edits_and_cut: tuple[list[tuple[int, int]], int]) -> bytes:
        result = bytearray(data)
        for position, value in edits_and_cut[0]:
            result[position] = value
        return bytes(result[: edits_and_cut[1]])

    return st.tuples(edits, cut).map(apply)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.binary(max_size=2000), *(mangled(data) for data in SMALL_IMAGES)))
def test_any_bytes_give_a_photo_or_a_rejection(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as directory:
        try:
            stored = store_photo(data, LocalFolder(Path(directory)))
        except PhotoRejected as error:
            assert error.message in {
                PHOTO_NOT_AN_IMAGE,
                PHOTO_TOO_LARGE,
                PHOTO_TOO_SMALL,
                PHOTO_TOO_MANY_PIXELS,
            }
        else:
            assert isinstance(stored, StoredPhoto)
            assert (Path(directory) / stored.thumb_filename).exists()
            assert (Path(directory) / stored.blur_filename).exists()
