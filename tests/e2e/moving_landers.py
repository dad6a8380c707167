"""What the browser tests of the two moving landers share (test_lander_video.py,
test_lander_transitionsvideolanding.py): the page's largest paint and its layout shift as
Chromium measured them, and a member's slide's state at a moment of the sequence."""

from playwright.sync_api import Locator, Page

LARGEST_PAINT = """() => new Promise(resolve => new PerformanceObserver(list => {
    const element = list.getEntries().at(-1).element;
    resolve(element ? {tag: element.tagName, priority: element.getAttribute('fetchpriority'),
                       opacity: getComputedStyle(element.closest('[style]') || element).opacity}
                    : null);
}).observe({type: 'largest-contentful-paint', buffered: true}))"""
LAYOUT_SHIFT = """() => new Promise(resolve => {
    let total = 0;
    new PerformanceObserver(list => {
        for (const shift of list.getEntries()) if (!shift.hadRecentInput) total += shift.value;
    }).observe({type: 'layout-shift', buffered: true});
    setTimeout(() => resolve(total), 200);
})"""


def assert_fast_paint(page: Page) -> None:
    """The largest paint is the first photo (fetched first, never invisible) or text, and
    nothing moved."""
    largest = page.evaluate(LARGEST_PAINT)
    assert largest is not None
    if largest["tag"] == "IMG":
        assert largest["priority"] == "high" and largest["opacity"] == "1", largest
    assert page.evaluate(LAYOUT_SHIFT) < 0.05


def shown(slide: Locator) -> bool:
    """Whether a slide is on the screen now (laid out, visible, opaque)."""
    return slide.evaluate(
        "s => { const c = getComputedStyle(s);"
        " return c.display !== 'none' && c.visibility === 'visible' && c.opacity === '1'; }"
    )
