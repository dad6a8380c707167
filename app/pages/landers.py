"""Landers (docs/acquisition.md, "Niches and landers"): pages a marketer buys traffic for, written
by the server with the niche's members nearest the visitor."""

import reflex as rx

from app.pages.registry import page
from components.landers.alonetonight import alonetonight_lander
from components.landers.collagelanding import collage_lander
from components.landers.gallery import gallery_lander
from components.landers.iconslanding import icons_lander
from components.landers.maplanding import maplanding_lander
from components.landers.socialnetwork import social_lander
from components.landers.tinderswipe import tinderswipe_lander
from components.landers.transitionsvideolanding import transitions_video_lander
from components.landers.video import video_lander


@page("landers-gallery")
def gallery_page() -> rx.Component:
    return gallery_lander()


@page("landers-maplanding")
def maplanding_page() -> rx.Component:
    return maplanding_lander()


@page("landers-collagelanding")
def collage_page() -> rx.Component:
    return collage_lander()


@page("landers-iconslanding")
def icons_page() -> rx.Component:
    return icons_lander()


@page("landers-socialnetwork")
def social_page() -> rx.Component:
    return social_lander()


@page("landers-tinderswipe")
def tinderswipe_page() -> rx.Component:
    return tinderswipe_lander()


@page("landers-alonetonight")
def alonetonight_page() -> rx.Component:
    return alonetonight_lander()


@page("landers-video")
def video_page() -> rx.Component:
    return video_lander()


@page("landers-transitionsvideolanding")
def transitions_video_page() -> rx.Component:
    return transitions_video_lander()
