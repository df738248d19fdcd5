"""Vocabulary and Practice in Chinese, as a browser set to zh-CN meets them (issue 20): at
1280x720 and 1920x1080, normal and presentation mode, the title is Chinese and nothing overflows
sideways or is cut (the presentation test's own check). Screenshots land in
screenshots/zh-<page>-<width>[-presentation].png, to be looked at."""

from __future__ import annotations

import pytest

from tests.browser.conftest import APP_IDLE, LAPTOP, SCREENSHOTS
from tests.browser.test_links import PROBE_404
from tests.browser.test_presentation import OVERFLOW_JS
from ui.common import i18n

ZH = i18n.translations("zh")
PAGES = {"vocabulary": "Vocabulary", "practice": "Practice"}


@pytest.mark.parametrize("present", [True], ids=["presentation"])  # normal mode and 1920: test_presentation
@pytest.mark.parametrize("size", [LAPTOP], ids=["1280x720"])  # the tightest fit
@pytest.mark.parametrize("name", list(PAGES))
def test_the_page_in_chinese_fits(chinese_page, page_log, app_server, wait_for_app, name, size,
                                  present):
    page_log.allow_console_error(PROBE_404)  # a page's own URL: streamlit/streamlit#7074
    chinese_page.set_viewport_size(size)
    chinese_page.goto(f"{app_server.url}/{name}" + ("?present=1" if present else ""))
    wait_for_app(chinese_page, chinese_page.get_by_role("heading", name=ZH.gettext(PAGES[name])))
    chinese_page.wait_for_selector(APP_IDLE, timeout=60_000)
    assert "lang=zh" in chinese_page.url  # the browser's language, kept in the page's link
    SCREENSHOTS.mkdir(exist_ok=True)
    suffix = "-presentation" if present else ""
    chinese_page.screenshot(path=str(SCREENSHOTS / f"zh-{name}-{size['width']}{suffix}.png"),
                            animations="disabled")
    assert chinese_page.evaluate(OVERFLOW_JS) == []


TABS = {  # a tab of each page past the first, opened from the link (its English value)
    "vocabulary-compare": "vocabulary?vc_tab=Compare",
    "vocabulary-design": "vocabulary?vc_tab=Design",
    "practice-masking": "practice?pr_tab=Random+masking&pr_seed=4242",
    "practice-guess": "practice?pr_tab=Guess+the+count",
}


@pytest.mark.parametrize("name", list(TABS))
def test_the_tabs_in_chinese_fit_a_laptop_in_presentation_mode(chinese_page, page_log,
                                                                 app_server, name):
    page_log.allow_console_error(PROBE_404)
    chinese_page.set_viewport_size(LAPTOP)
    chinese_page.goto(f"{app_server.url}/{TABS[name]}&present=1")
    chinese_page.wait_for_selector("h1", timeout=60_000)
    chinese_page.wait_for_selector(APP_IDLE, timeout=120_000)
    chinese_page.wait_for_timeout(500)  # the open tab's last elements settle
    chinese_page.screenshot(path=str(SCREENSHOTS / f"zh-{name}-1280-presentation.png"),
                            animations="disabled")
    assert chinese_page.evaluate(OVERFLOW_JS) == []
