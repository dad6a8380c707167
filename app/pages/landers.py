"""Landers (docs/acquisition.md, "Niches and landers"): pages a marketer buys traffic for, written
by the server with the niche's members nearest the visitor."""

import reflex as rx

from app.pages.registry import page
from components.landers.gallery import gallery_lander


@page("landers-gallery")
def gallery_page() -> rx.Component:
    return gallery_lander()
