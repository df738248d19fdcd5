"""The Merge steps page as a zh-CN browser shows it (issue 20): the player's controls, counter
and narration are Chinese (the words read from the catalog, not copied from the page), stepping
still works, an English browser still gets English; and screenshots of the page in Chinese at
1280x720 and 1920x1080, normal and presentation mode, with nothing cut or scrolling sideways.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import APP_IDLE, LAPTOP, wait_for_app
from tests.browser.test_links import PROBE_404
from tests.browser.test_presentation import OVERFLOW_JS, TOGGLE
from ui.common import i18n

zh = i18n.translations("zh").gettext
STEP = ".ms-player .stepno"
HEADLINE = ".ms-player .headline"


def open_merge_steps(page, app_server, query: str = "") -> None:
    page.goto(f"{app_server.url}/merge_steps{query}")
    wait_for_app(page, page.locator(".ms-player"))


def test_the_player_speaks_chinese_in_a_chinese_browser(chinese_page, page_log, app_server):
    page_log.allow_console_error(PROBE_404)  # a page's own URL: streamlit/streamlit#7074
    page = chinese_page
    open_merge_steps(page, app_server)
    assert page.locator("h1").first.inner_text().strip() == zh("Merge steps")
    assert page.locator(STEP).inner_text() == zh("Step {k} / {n}").format(k=0, n=10)
    assert page.locator(".ms-player .btn.play").inner_text() == zh("▶ Play")
    assert page.locator(".ms-player h3").first.inner_text() == zh("Corpus")
    page.get_by_role("button", name=zh("Next step (→)")).click()
    assert page.locator(STEP).inner_text() == zh("Step {k} / {n}").format(k=1, n=10)
    headline = page.locator(HEADLINE).inner_text()
    # low_newest's first merge: ('e','s') in newest (6) and widest (3), 9 times, in Chinese
    head = zh("Merge {k}: {narration}").split("{narration}")[0].format(k=1)
    assert headline.startswith(head + "('e','s') "), headline
    assert "newest（6）" in headline and "appears" not in headline
    assert page.locator(".ms-player .made-label").inner_text() == zh("new token")


def test_the_player_stays_english_in_an_english_browser(open_app, page, page_log):
    page_log.allow_console_error(PROBE_404)
    open_app("merge_steps", expect=page.locator(".ms-player"))
    assert page.locator(STEP).inner_text() == "Step 0 / 10"
    page.get_by_role("button", name="Next step (→)").click()
    assert page.locator(HEADLINE).inner_text() == (
        "Merge 1: ('e','s') appears in newest (6) and widest (3): 9 times")


@pytest.mark.parametrize("present", [True], ids=["presentation"])  # normal mode and 1920: test_presentation
@pytest.mark.parametrize("size", [LAPTOP], ids=["1280x720"])  # the tightest fit
def test_screenshots_in_chinese(chinese_page, page_log, app_server, size, present):
    page_log.allow_console_error(PROBE_404)
    page = chinese_page
    page.set_viewport_size(size)
    open_merge_steps(page, app_server, "?present=1" if present else "")
    page.wait_for_selector(APP_IDLE, timeout=60_000)
    assert page.locator(TOGGLE).is_checked() == present
    page.get_by_role("button", name=zh("Next step (→)")).click()
    suffix = "-presentation" if present else ""
    from tests.browser.conftest import SCREENSHOTS
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"zh-merge_steps-{size['width']}x{size['height']}"
                             f"{suffix}.png"), animations="disabled")
    assert page.evaluate(OVERFLOW_JS) == []
