"""The Playground as a zh-CN browser shows it (issue 20): at 1280x720 and 1920x1080, normal and
presentation mode, its title and switches are Chinese, nothing is clipped or scrolls sideways
(the presentation test's own check), and the first tokens are on the first screen.

Screenshots land in screenshots/zh-playground-<size>[-presentation].png (the first screen) and
...-numbers.png (the tables), to be looked at.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import (
    APP_IDLE,
    LAPTOP,
    SCREENSHOTS,
    wait_for_app,
)
from tests.browser.test_presentation import OVERFLOW_JS
from ui.common import i18n

ZH = i18n.translations("zh")


@pytest.mark.parametrize("present", [True], ids=["presentation"])  # normal mode and 1920: test_presentation
@pytest.mark.parametrize("size", [LAPTOP], ids=["1280x720"])  # the tightest fit
def test_the_playground_in_chinese_fits(chinese_page, app_server, size, present):
    page = chinese_page
    page.set_viewport_size(size)
    page.goto(f"{app_server.url}/" + ("?present=1" if present else ""))
    wait_for_app(page, page.get_by_role("heading", name=ZH.gettext("Playground")))
    page.wait_for_selector(APP_IDLE, timeout=60_000)
    page.locator(".tokview .tok").first.wait_for(state="visible")
    for words in ("Encode special tokens", "Mark disagreements", "Classic quirks"):
        # each widget drawn, not its loading placeholder
        page.get_by_text(ZH.gettext(words), exact=True).first.wait_for(state="visible")
    assert page.get_by_text(ZH.gettext("Hover a token to see its id and bytes.")).count() == 3
    SCREENSHOTS.mkdir(exist_ok=True)
    suffix = "-presentation" if present else ""
    page.screenshot(path=str(SCREENSHOTS / f"zh-playground-{size['width']}x{size['height']}"
                                           f"{suffix}.png"))
    # and the numbers table and the token table below, to be looked at too
    page.get_by_role("heading", name=ZH.gettext("Numbers")).scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"zh-playground-{size['width']}x{size['height']}"
                                           f"{suffix}-numbers.png"))
    assert page.evaluate(OVERFLOW_JS) == []
    if not present:  # the first tokens of the three default panels on a laptop's first screen
        first = page.locator(".tokview .tok").first.bounding_box()
        assert first is not None and first["y"] + first["height"] <= size["height"]
