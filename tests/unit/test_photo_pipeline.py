"""The photo upload pipeline: content checks, limits, re-encoding without metadata, storage."""

import os
import re
import struct
import tempfile
import zlib
from io import BytesIO
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import ExifTags, Image, ImageFile, ImageOps

from services import photo_pipeline
from services.photo_pipeline import (
    MAX_UPLOAD_BYTES,
    PHOTO_NOT_AN_IMAGE,
    PHOTO_TOO_LARGE,
    PHOTO_TOO_MANY_PIXELS,
    PHOTO_TOO_SMALL,
    PhotoRejected,
    StoredPhoto,
    delete_photo_files,
    store_photo,
)

FILENAME = re.compile(r"^[A-Za-z0-9_-]{1,100}\.(jpg|jpeg|png|webp)$")
RED, BLUE = (220, 20, 20), (20, 20, 220)


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


def rejection(data: bytes, photo_dir: Path) -> PhotoRejected:
    with pytest.raises(PhotoRejected) as caught:
        store_photo(data, photo_dir)
    assert not photo_dir.exists() or not any(photo_dir.iterdir())  # nothing was written
    return caught.value


def opened(photo_dir: Path, name: str) -> Image.Image:
    image = Image.open(photo_dir / name)
    image.load()
    return image


def test_jpeg_loses_all_metadata_and_is_turned_upright(tmp_path: Path) -> None:
    data = jpeg_with_metadata()
    original = Image.open(BytesIO(data))
    assert original.getexif().get_ifd(ExifTags.IFD.GPSInfo)  # the input really has GPS

    stored = store_photo(data, tmp_path)

    for name in (stored.filename, stored.thumb_filename):
        image = opened(tmp_path, name)
        assert image.format == "JPEG"
        assert dict(image.getexif()) == {}
        assert not {"exif", "icc_profile", "xmp", "comment"} & set(image.info)
        raw = (tmp_path / name).read_bytes()
        assert b"Exif" not in raw and b"secret" not in raw and b"PhoneMaker" not in raw
    photo = opened(tmp_path, stored.filename)
    assert (stored.width, stored.height) == photo.size == (200, 300)
    top, bottom = photo.getpixel((100, 20)), photo.getpixel((100, 280))
    assert top[0] > 150 > top[2] and bottom[2] > 150 > bottom[0]  # red went to the top


def test_malformed_exif_does_not_lose_the_photo(tmp_path: Path) -> None:
    data = bytearray(jpeg_with_metadata())
    data[92] = 1  # found by fuzzing: exif_transpose would fail re-writing this EXIF block
    stored = store_photo(bytes(data), tmp_path)
    assert dict(opened(tmp_path, stored.filename).getexif()) == {}


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_turns_the_photo_upright(tmp_path: Path, orientation: int) -> None:
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = orientation
    source = Image.new("RGB", (300, 200), BLUE)
    source.paste(RED, (0, 0, 150, 100))  # red top-left quadrant: every turn looks different
    expected = ImageOps.exif_transpose(Image.open(BytesIO(encode(source, "PNG", exif=exif))))
    stored = store_photo(encode(source, "PNG", exif=exif), tmp_path)
    photo = opened(tmp_path, stored.filename)
    assert photo.size == expected.size
    right, bottom = photo.width - 10, photo.height - 10
    for corner in ((10, 10), (right, 10), (10, bottom), (right, bottom)):
        assert (photo.getpixel(corner)[0] > 127) == (expected.getpixel(corner)[0] > 127)


def test_png_with_transparency_becomes_jpeg_on_white(tmp_path: Path) -> None:
    image = Image.new("RGBA", (300, 300), (0, 0, 0, 0))
    image.paste((0, 128, 0, 255), (0, 0, 150, 300))
    stored = store_photo(encode(image, "PNG"), tmp_path)
    photo = opened(tmp_path, stored.filename)
    assert (photo.format, photo.mode) == ("JPEG", "RGB")
    assert all(channel > 245 for channel in photo.getpixel((250, 150)))
    assert photo.getpixel((50, 150))[1] > 100


def test_webp_is_accepted(tmp_path: Path) -> None:
    stored = store_photo(encode(two_halves((320, 240)), "WEBP"), tmp_path)
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
    ],
    ids=["random", "text", "svg", "heic", "empty"],
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
    "make_png",
    [
        lambda: encode(Image.new("1", (6500, 6500)), "PNG"),  # 42 MP: our own limit
        lambda: png_with_header_size(20000, 20000),  # 400 MP: Pillow's bomb error
    ],
    ids=["42-megapixels", "400-megapixels"],
)
def test_huge_dimensions_are_rejected_without_decoding(tmp_path: Path, monkeypatch, make_png):
    data = make_png()
    assert len(data) < 100_000

    def must_not_load(*_args: object) -> None:
        raise AssertionError("decoded the pixels of a decompression bomb")

    monkeypatch.setattr(ImageFile.ImageFile, "load", must_not_load)
    error = rejection(data, tmp_path)
    assert (error.message, error.params) == (PHOTO_TOO_MANY_PIXELS, {"megapixels": 40})


@pytest.mark.parametrize(
    ("size", "expected"),
    [((2400, 1800), (1600, 1200)), ((1000, 3000), (533, 1600)), ((800, 600), (800, 600))],
)
def test_long_side_is_capped_at_1600(tmp_path: Path, size, expected) -> None:
    stored = store_photo(encode(two_halves(size), "JPEG"), tmp_path)
    assert (stored.width, stored.height) == opened(tmp_path, stored.filename).size == expected


def test_thumbnail_is_a_400_square_centre_crop(tmp_path: Path) -> None:
    image = Image.new("RGB", (1200, 300), RED)
    image.paste(BLUE, (500, 0, 700, 300))  # a blue band in the middle
    stored = store_photo(encode(image, "PNG"), tmp_path)
    thumb = opened(tmp_path, stored.thumb_filename)
    assert thumb.size == (400, 400)
    assert thumb.getpixel((200, 200))[2] > 150  # the centre survives the crop
    assert thumb.getpixel((5, 200))[0] > 150


def test_filenames_are_random_and_safe(tmp_path: Path) -> None:
    data = encode(two_halves((300, 300)), "JPEG")
    first, second = store_photo(data, tmp_path / "photos"), store_photo(data, tmp_path / "photos")
    for stored in (first, second):
        assert FILENAME.match(stored.filename) and FILENAME.match(stored.thumb_filename)
        assert stored.thumb_filename == stored.filename.removesuffix(".jpg") + "_t.jpg"
    assert first.filename != second.filename
    names = {first.filename, first.thumb_filename, second.filename, second.thumb_filename}
    assert {p.name for p in (tmp_path / "photos").iterdir()} == names  # no temp files left


def test_delete_photo_files_removes_both_and_ignores_missing(tmp_path: Path) -> None:
    stored = store_photo(encode(two_halves((300, 300)), "JPEG"), tmp_path)
    delete_photo_files(tmp_path, stored.filename, stored.thumb_filename, "missing.jpg")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["../x.jpg", "x.jpg\n", "a/b.jpg", "x.gif", ".jpg", "x.JPG"])
def test_delete_photo_files_refuses_unsafe_names(tmp_path: Path, name: str) -> None:
    photo_dir = tmp_path / "photos"
    photo_dir.mkdir()
    outside = tmp_path / "x.jpg"
    outside.write_bytes(b"keep me")
    with pytest.raises(ValueError):
        delete_photo_files(photo_dir, name)
    assert outside.exists()


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
            stored = store_photo(data, Path(directory))
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
