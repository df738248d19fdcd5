"""Presentation mode on a projector: every page, at 1280x720 and 1920x1080, opened from a link
with ?present=1; nothing overflows sideways, no widget label or tab row is clipped, the
headline numbers get bigger (not smaller), and the P key toggles it (but not while typing).

Screenshots land in screenshots/presentation-<page>-<width>.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import APP_IDLE, LAPTOP
from tests.browser.test_links import PROBE_404

REPO = Path(__file__).resolve().parents[2]
PROJECTOR = {"width": 1920, "height": 1080}
# Every page of the router; the default page (the Playground) lives at the root.
PAGES = sorted(p.stem for p in (REPO / "pages").glob("*.py"))
TOGGLE = '[data-testid="stSidebar"] [data-testid="stCheckbox"] input[role="switch"]'

# What does not fit: the page (or Streamlit's scrolling main area) wider than the window; a row
# of tabs or a segmented control that scrolls; a label (widget, button, sidebar link) cut with
# "…"; a byte ruler wider than its column. Scrollers by design (tables, code, a text box's
# value, the sequence grids) and visually hidden inputs (1 px wide) are not counts of clipping.
OVERFLOW_JS = """() => {
  const wide = (e) => e && e.scrollWidth > e.clientWidth + 1;
  const out = [];
  const what = (e) => (e.getAttribute('role') || e.tagName) + ' "' + e.textContent.trim().slice(0, 50) + '"';
  if (wide(document.documentElement)) out.push('page ' + document.documentElement.scrollWidth);
  const main = document.querySelector('[data-testid="stMain"]');
  if (wide(main)) out.push('main ' + main.scrollWidth + ' > ' + main.clientWidth);
  for (const e of document.querySelectorAll('[data-testid="stAppViewContainer"] *')) {
    if (e.offsetParent === null || e.clientWidth <= 2 || !wide(e)) continue;
    const cs = getComputedStyle(e);
    if (cs.overflowX === 'visible' && cs.textOverflow !== 'ellipsis') continue;
    const role = e.getAttribute('role');
    if (role === 'tablist' || role === 'radiogroup') out.push('scrolls: ' + what(e));
    else if (cs.textOverflow === 'ellipsis' && e.tagName !== 'INPUT') out.push('cut: ' + what(e));
    else if (e.closest('[data-testid="stWidgetLabel"]')) out.push('label: ' + what(e));
    else if (e.classList.contains('ruler')) out.push('ruler: ' + e.scrollWidth + ' > ' + e.clientWidth);
  }
  return out;
}"""


def url_of(app_server, page: str) -> str:
    path = "" if page == "playground" else page
    return f"{app_server.url}/{path}?present=1"


@pytest.mark.parametrize("size", [LAPTOP, PROJECTOR], ids=["1280x720", "1920x1080"])
@pytest.mark.parametrize("name", PAGES)
def test_every_page_fits_in_presentation_mode(page, page_log, app_server, wait_for_app, screenshot,
                                             name, size):
    page_log.allow_console_error(PROBE_404)  # a page's own URL: streamlit/streamlit#7074
    page.set_viewport_size(size)
    page.goto(url_of(app_server, name))
    wait_for_app(page, page.locator("h1").first)
    page.wait_for_selector(APP_IDLE, timeout=60_000)
    assert page.locator(TOGGLE).is_checked(), "?present=1 opens in presentation mode"
    assert "present=1" in page.url, "and the page's own link keeps it"
    screenshot(f"presentation-{name}-{size['width']}")
    assert page.evaluate(OVERFLOW_JS) == []


@pytest.mark.parametrize("path", ["", "practice"])
def test_headline_numbers_grow_in_presentation_mode(page, page_log, app_server, wait_for_app, path):
    """Counts and scores are metrics: presentation mode must make the digits themselves larger
    (the text inside the metric, which a rule for paragraphs once made smaller)."""
    page_log.allow_console_error(PROBE_404)
    page.set_viewport_size(LAPTOP)
    sizes = []
    for query in ("", "?present=1"):
        page.goto(f"{app_server.url}/{path}{query}")
        value = page.locator('[data-testid="stMetricValue"]').first
        wait_for_app(page, value)
        sizes.append(value.evaluate("""e => {
            const leaf = [...e.querySelectorAll('*')].filter(c => !c.children.length)[0] || e;
            return parseFloat(getComputedStyle(leaf).fontSize); }"""))
    assert sizes[1] >= 1.3 * sizes[0], sizes


def test_the_p_key_toggles_presentation_mode_but_not_while_typing(page, app_server, wait_for_app):
    page.set_viewport_size(LAPTOP)
    page.goto(app_server.url)
    wait_for_app(page, page.locator(".tokview").first)
    toggle = page.locator(TOGGLE)
    assert not toggle.is_checked()
    box = page.get_by_label("Text", exact=True)
    box.click()
    box.press("Control+End")
    box.type(" p")
    page.wait_for_timeout(500)
    assert not toggle.is_checked(), "typing p in a text box is typing"
    assert box.input_value().endswith(" p")
    page.locator("h1").first.click()
    page.keyboard.press("p")
    page.wait_for_function(f"() => document.querySelector('{TOGGLE}').checked")
    wait_for_app(page)
    assert "present=1" in page.url
    page.locator("h1").first.click()
    page.keyboard.press("p")
    page.wait_for_function(f"() => !document.querySelector('{TOGGLE}').checked")
