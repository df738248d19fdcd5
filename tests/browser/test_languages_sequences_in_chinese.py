"""Languages and Sequences as a browser set to Chinese shows them (issue 20): at 1280x720 and
1920x1080, normal and in presentation mode, every tab's title is Chinese and nothing is cut or
scrolls sideways (the presentation test's own check, OVERFLOW_JS). Screenshots land in
screenshots/zh-<page>[-<tab>]-<width>x<height>[-presentation].png, to be looked at.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.conftest import APP_IDLE, LAPTOP, SCREENSHOTS, PageLog, new_guarded_page
from tests.browser.test_links import PROBE_404
from tests.browser.test_presentation import OVERFLOW_JS
from ui.common import i18n

ZH = i18n.translations("zh")
TABS = {
    "languages": ("lg_tab", ["Byte ruler", "English vs Chinese", "Many languages", "Emoji",
                             "Grow a vocabulary"]),
    "sequences": ("sq_tab", ["Model input", "Long text", "Batching", "Chat templates"]),
}
TITLES = {"languages": "Languages", "sequences": "Sequences"}


@pytest.fixture
def chinese_page(browser, page_log: PageLog) -> Iterator:
    page_log.allow_console_error(PROBE_404)  # a page's own URL: streamlit/streamlit#7074
    context, page = new_guarded_page(browser, page_log, locale="zh-CN")
    yield page
    context.close()


def _open(page, app_server, name: str, query: str) -> None:
    page.goto(f"{app_server.url}/{name}?{query}")
    page.get_by_role("heading", name=ZH.gettext(TITLES[name])).first.wait_for(timeout=60_000)
    page.wait_for_selector(APP_IDLE, timeout=120_000)


SCROLLER = '[data-testid="stMain"]'  # Streamlit scrolls its main area, not the page
SCREENS = 4  # the first four screens of each tab: what is below the fold is looked at too


def _shot(page, name: str) -> None:
    """The tab's first screen as <name>.png, the next ones as <name>-2.png ..."""
    SCREENSHOTS.mkdir(exist_ok=True)
    for k in range(SCREENS):
        moved = page.evaluate(f"""() => {{ const m = document.querySelector('{SCROLLER}');
            const before = m.scrollTop; m.scrollTop = {k} * m.clientHeight * 0.9;
            return {k} === 0 || m.scrollTop > before; }}""")
        if not moved:
            break
        page.wait_for_timeout(800)  # a plotly chart below the fold draws when scrolled to
        suffix = f"-{k + 1}" if k else ""
        page.screenshot(path=str(SCREENSHOTS / f"{name}{suffix}.png"), animations="disabled")
    page.evaluate(f"() => {{ document.querySelector('{SCROLLER}').scrollTop = 0; }}")


@pytest.mark.parametrize("present", [True], ids=["presentation"])  # normal mode and 1920: test_presentation
@pytest.mark.parametrize("size", [LAPTOP], ids=["1280x720"])  # the tightest fit
@pytest.mark.parametrize("name", list(TABS))
def test_every_tab_fits_in_chinese(chinese_page, app_server, name, size, present):
    key, tabs = TABS[name]
    chinese_page.set_viewport_size(size)
    where = f"{size['width']}x{size['height']}" + ("-presentation" if present else "")
    for k, tab in enumerate(tabs):
        query = f"{key}={tab.replace(' ', '+')}" + ("&present=1" if present else "")
        _open(chinese_page, app_server, name, query)
        selected = chinese_page.locator('[role="tab"][aria-selected="true"]').first
        assert selected.inner_text().strip() == ZH.gettext(tab)
        _shot(chinese_page, f"zh-{name}-{where}" if k == 0 else
              f"zh-{name}-{tab.lower().replace(' ', '-')}-{where}")
        assert chinese_page.evaluate(OVERFLOW_JS) == [], (name, tab, where)
