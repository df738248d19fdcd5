"""The Compression page as a zh-CN browser shows it (issue 20), at 1280x720 and 1920x1080, normal
and presentation mode: the chart's axis titles and legend are Chinese, nothing is cut or scrolls
sideways, and screenshots land in screenshots/zh-compression-<width>[-presentation].png to be
looked at (the legend and the axis titles beside the plot)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import LAPTOP, SCREENSHOTS, new_guarded_page, wait_for_app
from tests.browser.test_links import PROBE_404
from tests.browser.test_presentation import OVERFLOW_JS
from ui.common import i18n

ZH = i18n.translations("zh")
CHART = '[data-testid="stPlotlyChart"]'
FIRST_LOAD_MS = 240_000  # a cold page trains ours and the HF models per corpus


@pytest.mark.parametrize("present", [True], ids=["presentation"])  # normal mode and 1920: test_presentation
@pytest.mark.parametrize("size", [LAPTOP], ids=["1280x720"])  # the tightest fit
def test_the_compression_page_in_chinese_fits(browser, page_log, app_server, size, present):
    page_log.allow_console_error(PROBE_404)  # a page's own URL: streamlit/streamlit#7074
    context, page = new_guarded_page(browser, page_log, locale="zh-CN")
    try:
        page.set_viewport_size(size)
        page.goto(f"{app_server.url}/compression" + ("?present=1" if present else ""))
        chart = page.locator(CHART).first
        wait_for_app(page, chart.locator(".main-svg").first, timeout_ms=FIRST_LOAD_MS)
        assert page.locator("h1").first.inner_text().strip() == ZH.gettext("Compression")
        assert chart.locator(".xtitle").text_content() == ZH.gettext("Vocabulary size (log scale)")
        legend = chart.locator(".legend .legendtext").all_text_contents()
        assert ZH.gettext("Ours: byte-level BPE") in legend, legend
        assert "Ours: byte-level BPE" not in legend
        SCREENSHOTS.mkdir(exist_ok=True)
        name = f"zh-compression-{size['width']}x{size['height']}" + (
            "-presentation" if present else "")
        chart.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), animations="disabled")
        page.screenshot(path=str(SCREENSHOTS / f"{name}-full.png"), full_page=True,
                        animations="disabled")
        # the legend sits right of the plot area, not over it; the y title inside the figure
        plot = chart.locator(".nsewdrag").first.bounding_box()  # the plot area
        box = chart.locator(".legend").first.bounding_box()
        figure = chart.locator(".main-svg").first.bounding_box()
        assert plot and box and figure
        assert box["x"] >= plot["x"] + plot["width"] - 1, (box, plot)
        assert box["x"] + box["width"] <= figure["x"] + figure["width"] + 1, (box, figure)
        ytitle = chart.locator(".ytitle").first.bounding_box()
        assert ytitle and ytitle["x"] >= figure["x"] - 1, ytitle
        assert page.evaluate(OVERFLOW_JS) == []
        # the tables below: the doubling table, then the quality table's headers and tabs
        quality = ZH.gettext("Quality at {vocab} vocab, on the held-out text").format(vocab="1,000")
        page.get_by_text(ZH.gettext("What each doubling buys")).first.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"{name}-doubling.png"), animations="disabled")
        heading = page.get_by_text(quality).first
        wait_for_app(page, heading, timeout_ms=FIRST_LOAD_MS)
        heading.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"{name}-quality.png"), animations="disabled")
        assert page.evaluate(OVERFLOW_JS) == []
    finally:
        context.close()
