"""The Unigram & SentencePiece page as a zh-CN browser shows it (issue 20): screenshots in
Chinese at 1280x720 and 1920x1080, normal and presentation mode, the lattice tab open (its
plotly buttons and slider speak Chinese), nothing cut or scrolling sideways."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from tests.browser.conftest import (
    APP_IDLE,
    LAPTOP,
    SCREENSHOTS,
    wait_for_app,
)
from tests.browser.test_links import PROBE_404
from tests.browser.test_presentation import OVERFLOW_JS, TOGGLE
from ui.common import i18n
from ui.unigram.source import TABS

zh = i18n.translations("zh").gettext


@pytest.mark.parametrize("present", [True], ids=["presentation"])  # normal mode and 1920: test_presentation
@pytest.mark.parametrize("size", [LAPTOP], ids=["1280x720"])  # the tightest fit
def test_screenshots_in_chinese(chinese_page, page_log, app_server, size, present):
    page_log.allow_console_error(PROBE_404)  # a page's own URL: streamlit/streamlit#7074
    page = chinese_page
    page.set_viewport_size(size)
    query = "?ug_tab=" + quote(TABS[1]) + ("&present=1" if present else "")
    page.goto(f"{app_server.url}/unigram{query}")
    wait_for_app(page, page.locator("h1", has_text=zh("Unigram & SentencePiece")))
    page.wait_for_selector(APP_IDLE, timeout=90_000)
    assert page.locator(TOGGLE).is_checked() == present
    assert page.get_by_role("tab", name=zh(TABS[1])).get_attribute("aria-selected") == "true"
    page.get_by_text(zh("filling dp[i], i = ")).first.wait_for(timeout=60_000)  # its slider
    SCREENSHOTS.mkdir(exist_ok=True)
    suffix = "-presentation" if present else ""
    page.screenshot(path=str(SCREENSHOTS / f"zh-unigram-{size['width']}x{size['height']}"
                             f"{suffix}.png"), animations="disabled")
    assert page.evaluate(OVERFLOW_JS) == []
