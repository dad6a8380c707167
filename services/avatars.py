"""Flat-illustration portrait avatars drawn with Pillow, deterministic from a seed.

Shapes are laid out in unit coordinates (0..1 of the image side), drawn at a larger
scale and downscaled with LANCZOS for smooth edges.
"""

import math
import random
from dataclasses import dataclass
from io import BytesIO

from PIL import Image, ImageDraw

from services.photo_store import PhotoStore

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]

_SUPERSAMPLE = 2
THUMB_WIDTH = 200

_SKIN_TONES: tuple[Colour, ...] = (
    (250, 221, 200), (244, 204, 177), (236, 188, 156), (226, 172, 136), (212, 156, 118),
    (192, 134, 98), (166, 110, 78), (139, 90, 62), (112, 72, 50),
)  # fmt: skip
_SKIN_WEIGHTS = (4, 4, 4, 3, 3, 2, 2, 1.5, 1.5)
_HAIR: dict[str, Colour] = {
    "black": (38, 32, 32),
    "brown": (104, 68, 44),
    "blond": (222, 184, 110),
    "red": (178, 82, 42),
    "grey": (176, 174, 172),
}
_DYED_HAIR: tuple[Colour, ...] = ((222, 120, 160), (96, 122, 196), (140, 96, 180), (236, 230, 214))
_EYES: dict[str, Colour] = {
    "brown": (110, 66, 38),
    "blue": (72, 128, 190),
    "green": (88, 140, 76),
    "grey": (128, 140, 148),
    "hazel": (146, 110, 56),
}
_CLOTHING: tuple[Colour, ...] = (
    (52, 84, 140), (190, 64, 78), (56, 128, 112), (232, 176, 64), (120, 86, 160),
    (236, 236, 232), (48, 52, 60), (208, 112, 84), (98, 148, 196), (150, 170, 90),
    (200, 120, 160), (110, 70, 60),
)  # fmt: skip
_BACKGROUNDS: tuple[tuple[Colour, Colour], ...] = (
    ((255, 222, 210), (246, 170, 160)), ((210, 232, 250), (150, 190, 232)),
    ((222, 244, 226), (160, 210, 180)), ((252, 240, 206), (240, 200, 140)),
    ((236, 224, 250), (190, 168, 230)), ((214, 240, 240), (140, 200, 204)),
    ((250, 228, 240), (228, 168, 200)), ((232, 232, 226), (196, 196, 186)),
)  # fmt: skip
_LIPS = (198, 92, 100)
_FEMALE_STYLES = ("long", "wavy", "bob", "bun", "ponytail", "pixie")
_MALE_STYLES = ("crop", "side_part", "quiff", "buzz", "curly", "receding")


@dataclass(frozen=True)
class _Person:
    """What stays the same across one member's photos."""

    female: bool
    skin: Colour
    hair: Colour
    facial_hair: Colour  # brows and beard keep a natural colour under dyed hair
    eye: Colour
    style: str
    fringe: bool
    beard: str  # none, stubble or full
    glasses: bool
    face_width: float
    face_height: float


@dataclass(frozen=True)
class _Outfit:
    """What changes from photo to photo."""

    background: tuple[Colour, Colour]
    clothing: Colour
    neckline: str  # crew or vee
    smile_open: bool
    earrings: bool
    shift: float


def _shade(colour: Colour, factor: float) -> Colour:
    return (
        min(255, int(colour[0] * factor)),
        min(255, int(colour[1] * factor)),
        min(255, int(colour[2] * factor)),
    )


def _mix(a: Colour, b: Colour, share_b: float) -> Colour:
    return (
        round(a[0] + (b[0] - a[0]) * share_b),
        round(a[1] + (b[1] - a[1]) * share_b),
        round(a[2] + (b[2] - a[2]) * share_b),
    )


def _hair_colour(name: str, rng: random.Random) -> Colour:
    return _HAIR.get(name) or rng.choice(_DYED_HAIR)


def _skin(rng: random.Random, hair_colour: str) -> Colour:
    """Natural blond and red hair come with the lighter tones."""
    tones = 6 if hair_colour in ("blond", "red") else len(_SKIN_TONES)
    return rng.choices(_SKIN_TONES[:tones], _SKIN_WEIGHTS[:tones])[0]


def _person(rng: random.Random, gender: str, hair_colour: str, eye_colour: str) -> _Person:
    female = gender == "female"
    return _Person(
        female=female,
        skin=_skin(rng, hair_colour),
        hair=_hair_colour(hair_colour, rng),
        facial_hair=_HAIR.get(hair_colour, _HAIR["brown"]),
        eye=_EYES.get(eye_colour, _EYES["brown"]),
        style=rng.choice(_FEMALE_STYLES if female else _MALE_STYLES),
        fringe=rng.random() < 0.4,
        beard="none" if female else rng.choice(("none", "none", "stubble", "full")),
        glasses=rng.random() < 0.18,
        face_width=rng.uniform(0.27, 0.30) if female else rng.uniform(0.29, 0.32),
        face_height=rng.uniform(0.37, 0.40),
    )


def _outfit(rng: random.Random, female: bool) -> _Outfit:
    return _Outfit(
        background=rng.choice(_BACKGROUNDS),
        clothing=rng.choice(_CLOTHING),
        neckline=rng.choice(("crew", "vee")),
        smile_open=rng.random() < 0.5,
        earrings=female and rng.random() < 0.5,
        shift=rng.uniform(-0.02, 0.02),
    )


class _Canvas:
    """An image with drawing helpers that take unit coordinates."""

    def __init__(self, size: int, background: tuple[Colour, Colour]) -> None:
        self.size = size
        self.image = Image.new("RGB", (size, size))
        self.draw = ImageDraw.Draw(self.image, "RGBA")
        top, bottom = background
        for y in range(size):
            self.draw.line(((0, y), (size, y)), fill=_mix(top, bottom, y / (size - 1)))

    def px(self, box: Box) -> tuple[int, int, int, int]:
        return (
            round(box[0] * self.size),
            round(box[1] * self.size),
            round(box[2] * self.size),
            round(box[3] * self.size),
        )

    def points(self, pts: list[tuple[float, float]]) -> list[tuple[int, int]]:
        return [(round(x * self.size), round(y * self.size)) for x, y in pts]

    def width(self, unit: float) -> int:
        return max(1, round(unit * self.size))

    def mask(self) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        layer = Image.new("L", (self.size, self.size), 0)
        return layer, ImageDraw.Draw(layer)

    def paste(self, colour: Colour, mask: Image.Image) -> None:
        self.image.paste(colour, (0, 0), mask)


@dataclass(frozen=True)
class _Face:
    """The face oval in unit coordinates."""

    cx: float
    top: float
    width: float
    height: float

    @property
    def box(self) -> Box:
        half = self.width / 2
        return (self.cx - half, self.top, self.cx + half, self.top + self.height)

    @property
    def left(self) -> float:
        return self.cx - self.width / 2

    @property
    def right(self) -> float:
        return self.cx + self.width / 2

    def at(self, dx: float, dy: float) -> tuple[float, float]:
        """A point relative to the centre, in fractions of the face size."""
        return self.cx + dx * self.width, self.top + self.height * (0.5 + dy)


def _draw_backdrop(canvas: _Canvas, background: tuple[Colour, Colour], rng: random.Random) -> None:
    glow = (*background[0], 110)
    x, y, r = rng.uniform(0.1, 0.9), rng.uniform(0.05, 0.4), rng.uniform(0.18, 0.3)
    canvas.draw.ellipse(canvas.px((x - r, y - r, x + r, y + r)), fill=glow)


def _draw_back_hair(canvas: _Canvas, face: _Face, person: _Person) -> None:
    left, right, top = face.left - 0.035, face.right + 0.035, face.top - 0.03
    draw, hair = canvas.draw, person.hair
    if person.style in ("long", "wavy"):
        draw.ellipse(canvas.px((left - 0.01, top, right + 0.01, top + face.height)), hair)
        draw.rectangle(canvas.px((left - 0.01, top + 0.15, right + 0.01, top + 0.5)), hair)
    elif person.style == "bob":
        draw.rounded_rectangle(
            canvas.px((left, top, right, face.top + face.height * 0.92)),
            radius=canvas.width(0.09),
            fill=hair,
        )
    elif person.style == "ponytail":
        for i in range(6):
            x, y, r = right - 0.01 + i * 0.012, face.top + 0.06 + i * 0.05, 0.05 - i * 0.004
            draw.ellipse(canvas.px((x - r, y - r, x + r, y + r)), fill=hair)
    elif person.style == "bun":
        r = face.width * 0.26
        draw.ellipse(canvas.px((face.cx - r, top - r * 1.5, face.cx + r, top + r * 0.5)), hair)


def _draw_body(canvas: _Canvas, face: _Face, person: _Person, outfit: _Outfit) -> None:
    draw, skin = canvas.draw, person.skin
    neck_half = face.width * (0.2 if person.female else 0.24)
    neck_top, neck_bottom = face.top + face.height * 0.7, face.top + face.height + 0.09
    draw.rectangle(
        canvas.px((face.cx - neck_half, neck_top, face.cx + neck_half, neck_bottom)), skin
    )
    shoulder = 0.33 if person.female else 0.39
    torso_top = face.top + face.height + 0.045
    draw.rounded_rectangle(
        canvas.px((face.cx - shoulder, torso_top, face.cx + shoulder, 1.25)),
        radius=canvas.width(0.17 if person.female else 0.14),
        fill=outfit.clothing,
    )
    collar_y, hem = torso_top - 0.004, _shade(outfit.clothing, 0.82)
    if outfit.neckline == "vee":
        vee = [(face.cx - neck_half * 1.3, collar_y), (face.cx, collar_y + 0.11)]
        vee.append((face.cx + neck_half * 1.3, collar_y))
        draw.line(canvas.points(vee), fill=hem, width=canvas.width(0.012), joint="curve")
        draw.polygon(canvas.points(vee), fill=skin)
    else:
        half = neck_half * 1.25
        box = (face.cx - half, collar_y - 0.05, face.cx + half, collar_y + 0.05)
        rim = (box[0] - 0.012, box[1] - 0.012, box[2] + 0.012, box[3] + 0.012)
        draw.arc(canvas.px(rim), 0, 180, fill=hem, width=canvas.width(0.024))
        draw.chord(canvas.px(box), 0, 180, fill=skin)
    chin_shadow = (face.cx - neck_half, neck_top, face.cx + neck_half, neck_top + 0.09)
    draw.ellipse(canvas.px(chin_shadow), fill=(*_shade(skin, 0.8), 120))


def _draw_hair_locks(canvas: _Canvas, face: _Face, person: _Person) -> None:
    """Long hair falling in front of the shoulders."""
    if person.style not in ("long", "wavy"):
        return
    bottom = face.top + face.height + 0.2
    for side in (-1, 1):
        edge = face.cx + side * face.width / 2
        outer, inner = edge + side * 0.045, edge - side * 0.035
        lock = [(inner, face.top + 0.08), (outer, face.top + 0.16), (outer + side * 0.05, bottom)]
        lock += [(inner + side * 0.03, bottom + 0.03), (inner, face.top + face.height * 0.8)]
        canvas.draw.polygon(canvas.points(lock), fill=person.hair)
        if person.style == "wavy":
            for i in range(5):
                x, y, r = outer + side * 0.01 * (i - 1), face.top + 0.16 + i * 0.075, 0.035
                canvas.draw.ellipse(canvas.px((x - r, y - r, x + r, y + r)), fill=person.hair)


def _draw_head(canvas: _Canvas, face: _Face, person: _Person, outfit: _Outfit) -> None:
    draw, skin = canvas.draw, person.skin
    ear_y = face.top + face.height * 0.42
    for x in (face.left, face.right):
        if person.style not in ("long", "wavy"):
            ear = (x - 0.025, ear_y, x + 0.025, ear_y + 0.075)
            draw.ellipse(canvas.px(ear), fill=_shade(skin, 0.93))
        if outfit.earrings:
            r = 0.009
            stud = (x - r, ear_y + 0.075 - r, x + r, ear_y + 0.075 + r)
            draw.ellipse(canvas.px(stud), (238, 196, 90))
    draw.ellipse(canvas.px(face.box), fill=skin)


def _hair_dome(draw: ImageDraw.ImageDraw, canvas: _Canvas, face: _Face, style: str) -> None:
    grow = {"buzz": 0.008, "receding": 0.01, "curly": 0.03, "pixie": 0.022}.get(style, 0.02)
    box = (
        face.left - grow,
        face.top - grow * 1.6,
        face.right + grow,
        face.top + face.height * 0.75,
    )
    draw.ellipse(canvas.px(box), 255)
    if style == "quiff":
        draw.ellipse(
            canvas.px((face.cx - 0.14, face.top - 0.045, face.cx + 0.1, face.top + 0.1)), 255
        )
    if style == "curly":
        for i in range(11):
            angle = math.pi * (0.95 + i * 1.1 / 10)
            x = face.cx + math.cos(angle) * face.width * 0.5
            y = face.top + face.height * 0.32 + math.sin(angle) * face.height * 0.36
            draw.ellipse(canvas.px((x - 0.03, y - 0.03, x + 0.03, y + 0.03)), 255)


def _cut_forehead(draw: ImageDraw.ImageDraw, canvas: _Canvas, face: _Face, person: _Person) -> None:
    hairline = {"buzz": 0.2, "receding": 0.24, "pixie": 0.22}.get(person.style, 0.18)
    if person.fringe and person.style not in ("buzz", "receding"):
        hairline = 0.3
    side = 0.0 if person.female else 0.012
    line_y = face.top + face.height * hairline
    mid_y = line_y + face.height * 0.35
    draw.ellipse(canvas.px((face.left + side, line_y, face.right - side, mid_y * 2 - line_y)), 0)
    draw.rectangle(canvas.px((face.left + side, mid_y, face.right - side, 1.0)), 0)


def _hair_over_face(
    draw: ImageDraw.ImageDraw, canvas: _Canvas, face: _Face, person: _Person
) -> None:
    """A swept fringe or locks framing the face."""
    if person.style in ("side_part", "pixie") and not person.fringe:
        drop = 0.16 if person.female else 0.11
        sweep = [(face.cx - 0.1, face.top + 0.02), (face.right + 0.01, face.top + 0.04)]
        sweep += [(face.right + 0.01, face.top + drop), (face.cx - 0.04, face.top + 0.07)]
        draw.polygon(canvas.points(sweep), 255)
    locks = {"long": 0.65, "wavy": 0.65, "bob": 0.65, "pixie": 0.45}.get(person.style)
    if locks:
        for x in (face.left - 0.01, face.right + 0.01):
            draw.ellipse(
                canvas.px((x - 0.03, face.top + 0.05, x + 0.03, face.top + face.height * locks)),
                255,
            )


def _hair_cap_mask(canvas: _Canvas, face: _Face, person: _Person) -> Image.Image:
    """The hair over the head: a dome over the face minus the forehead below the hairline."""
    mask, draw = canvas.mask()
    _hair_dome(draw, canvas, face, person.style)
    _cut_forehead(draw, canvas, face, person)
    _hair_over_face(draw, canvas, face, person)
    return mask


def _draw_front_hair(canvas: _Canvas, face: _Face, person: _Person) -> None:
    canvas.paste(person.hair, _hair_cap_mask(canvas, face, person))
    if person.style in ("buzz", "receding"):
        return
    shine = (face.cx - 0.08, face.top + 0.005, face.cx + 0.02, face.top + 0.06)
    highlight = (*_shade(person.hair, 1.35), 90)
    canvas.draw.arc(canvas.px(shine), 200, 300, fill=highlight, width=canvas.width(0.01))


def _draw_beard(canvas: _Canvas, face: _Face, person: _Person) -> None:
    if person.beard == "none":
        return
    mask, draw = canvas.mask()
    draw.ellipse(canvas.px(face.box), 255)
    cut = (face.left - 0.2, face.top - 0.6, face.right + 0.2, face.top + face.height * 0.74)
    draw.ellipse(canvas.px(cut), 0)
    mustache = (*face.at(-0.2, 0.18), *face.at(0.2, 0.28))
    draw.ellipse(canvas.px(mustache), 255)
    if person.beard == "stubble":
        mask = mask.point(lambda v: v * 70 // 255)
    canvas.paste(_shade(person.facial_hair, 0.9), mask)


def _draw_eye(canvas: _Canvas, centre: tuple[float, float], face: _Face, person: _Person) -> None:
    draw, (cx, cy) = canvas.draw, centre
    w, h = face.width * 0.12, face.width * 0.075
    draw.ellipse(canvas.px((cx - w, cy - h, cx + w, cy + h)), fill=(250, 250, 248))
    iris, pupil, glint = h * 0.95, h * 0.48, h * 0.27
    draw.ellipse(canvas.px((cx - iris, cy - iris, cx + iris, cy + iris)), fill=person.eye)
    draw.ellipse(canvas.px((cx - pupil, cy - pupil, cx + pupil, cy + pupil)), fill=(30, 24, 24))
    gx, gy = cx + pupil * 0.4, cy - pupil
    draw.ellipse(canvas.px((gx - glint, gy - glint, gx + glint, gy + glint)), fill="white")
    lid = (cx - w * 1.05, cy - h * 1.05, cx + w * 1.05, cy + h * 1.05)
    lid_width = canvas.width(0.008 if person.female else 0.005)
    draw.arc(canvas.px(lid), 195, 345, fill=(40, 30, 30), width=lid_width)
    brow = (cx - w * 1.2, cy - h * 3.2, cx + w * 1.2, cy - h * 0.3)
    brow_width = canvas.width(0.009 if person.female else 0.013)
    draw.arc(canvas.px(brow), 210, 330, fill=_shade(person.facial_hair, 0.75), width=brow_width)


def _draw_eyes(canvas: _Canvas, face: _Face, person: _Person) -> None:
    for side in (-1, 1):
        _draw_eye(canvas, face.at(side * 0.2, -0.02), face, person)


def _draw_mouth_and_nose(canvas: _Canvas, face: _Face, person: _Person, outfit: _Outfit) -> None:
    draw = canvas.draw
    nose = (*face.at(-0.07, 0.08), *face.at(0.07, 0.16))
    draw.arc(canvas.px(nose), 20, 160, fill=_shade(person.skin, 0.72), width=canvas.width(0.007))
    lips = _shade(_LIPS, 0.85) if person.female else _shade(person.skin, 0.62)
    mouth = (*face.at(-0.17, 0.17), *face.at(0.17, 0.33))
    if outfit.smile_open:
        draw.chord(canvas.px(mouth), 0, 180, fill=(120, 40, 48))
        teeth = (*face.at(-0.14, 0.245), *face.at(0.14, 0.29))
        draw.rectangle(canvas.px(teeth), fill=(250, 248, 244))
        draw.arc(canvas.px(mouth), 0, 180, fill=lips, width=canvas.width(0.007))
        draw.line(
            canvas.points([face.at(-0.17, 0.25), face.at(0.17, 0.25)]), lips, canvas.width(0.006)
        )
    else:
        draw.arc(canvas.px(mouth), 20, 160, fill=lips, width=canvas.width(0.009))
    for side in (-1, 1):
        blush = (*face.at(side * 0.3 - 0.1, 0.1), *face.at(side * 0.3 + 0.1, 0.18))
        draw.ellipse(canvas.px(blush), fill=(236, 120, 120, 45))


def _draw_glasses(canvas: _Canvas, face: _Face, person: _Person) -> None:
    if not person.glasses:
        return
    frame, width = (40, 36, 40), canvas.width(0.007)
    r = face.width * 0.15
    (left, y), (right, _) = face.at(-0.2, -0.02), face.at(0.2, -0.02)
    for cx in (left, right):
        canvas.draw.rounded_rectangle(
            canvas.px((cx - r, y - r * 0.8, cx + r, y + r * 0.8)),
            radius=canvas.width(0.02),
            outline=frame,
            width=width,
        )
    canvas.draw.line(canvas.points([(left + r, y), (right - r, y)]), fill=frame, width=width)


def draw_avatar(
    seed: int,
    gender: str,
    hair_colour: str,
    eye_colour: str,
    size: int = 600,
    person_seed: int | None = None,
) -> Image.Image:
    """A square portrait; photos sharing `person_seed` show the same person in other outfits."""
    person_rng = random.Random(seed if person_seed is None else person_seed)
    person = _person(person_rng, gender, hair_colour, eye_colour)
    rng = random.Random(seed * 7919 + 1)  # independent of the person's draws on the same seed
    outfit = _outfit(rng, person.female)
    canvas = _Canvas(size * _SUPERSAMPLE, outfit.background)
    face = _Face(0.5 + outfit.shift, 0.2, person.face_width, person.face_height)
    _draw_backdrop(canvas, outfit.background, rng)
    _draw_back_hair(canvas, face, person)
    _draw_body(canvas, face, person, outfit)
    _draw_hair_locks(canvas, face, person)
    _draw_head(canvas, face, person, outfit)
    _draw_beard(canvas, face, person)
    _draw_front_hair(canvas, face, person)
    _draw_eyes(canvas, face, person)
    _draw_mouth_and_nose(canvas, face, person, outfit)
    _draw_glasses(canvas, face, person)
    return canvas.image.resize((size, size), Image.Resampling.LANCZOS)


def save_avatar_files(image: Image.Image, store: PhotoStore, stem: str) -> tuple[str, str]:
    """Write `stem`.jpg and a thumbnail `stem`_thumb.jpg; return their file names."""
    filename, thumb_filename = f"{stem}.jpg", f"{stem}_thumb.jpg"
    rgb = image.convert("RGB")
    height = round(rgb.height * THUMB_WIDTH / rgb.width)
    thumb = rgb.resize((THUMB_WIDTH, height), Image.Resampling.LANCZOS)
    store.put(filename, _jpeg(rgb))
    store.put(thumb_filename, _jpeg(thumb))
    return filename, thumb_filename


def _jpeg(image: Image.Image) -> bytes:
    buffer = BytesIO()
    image.save(buffer, "JPEG", quality=85, optimize=True)
    return buffer.getvalue()
