"""The gift catalogue: every gift has a translated name and a picture that is a plain SVG."""

import xml.etree.ElementTree as ElementTree

from components.gift_labels import GIFT_LABELS
from models.gifts import GIFTS, gift_picture
from services.config import PROJECT_ROOT


def test_every_gift_has_a_name_and_a_picture() -> None:
    assert set(GIFT_LABELS) == set(GIFTS)
    for key in GIFTS:
        picture = PROJECT_ROOT / "assets" / gift_picture(key).lstrip("/")
        root = ElementTree.parse(picture).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg", key
        assert not root.findall(".//{http://www.w3.org/2000/svg}script"), key
