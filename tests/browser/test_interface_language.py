"""The interface's language as a person meets it (issue 20): a browser set to Chinese opens the
app in Chinese, the sidebar's switch changes it and the session keeps it across pages, and a
link with lang=zh opens Chinese in a browser set to English."""

from __future__ import annotations

from tests.browser.conftest import (
    APP_TITLE,
    LAPTOP,
    SCREENSHOTS,
    wait_for_app,
)

NAV = '[data-testid="stSidebarNav"]'
CHINESE_TITLES = ["试验场", "合并步骤", "Unigram 与 SentencePiece", "压缩率", "多语言", "序列", "词表",
                  "练习"]
ENGLISH_TITLES = ["Playground", "Merge steps", "Unigram & SentencePiece", "Compression",
                  "Languages", "Sequences", "Vocabulary", "Practice"]


def nav_titles(page) -> list[str]:
    return [t.strip() for t in page.locator(f"{NAV} a").all_inner_texts()]


def test_a_browser_set_to_chinese_opens_the_interface_in_chinese(chinese_page, app_server):
    chinese_page.set_viewport_size(LAPTOP)
    chinese_page.goto(app_server.url)
    wait_for_app(chinese_page, APP_TITLE)
    assert [t.split("\n")[-1] for t in nav_titles(chinese_page)] == CHINESE_TITLES
    assert chinese_page.get_by_text("演示模式").is_visible()
    SCREENSHOTS.mkdir(exist_ok=True)
    chinese_page.screenshot(path=str(SCREENSHOTS / "zh_playground_1280.png"))


def test_the_switch_changes_the_language_and_other_pages_keep_it(chinese_page, app_server):
    chinese_page.goto(app_server.url)
    wait_for_app(chinese_page, APP_TITLE)
    chinese_page.locator('[data-testid="stSidebar"] [role="radiogroup"]').get_by_text(
        "English").click()
    wait_for_app(chinese_page, chinese_page.get_by_text("Presentation mode"))
    chinese_page.locator(f"{NAV} a", has_text="Vocabulary").click()
    wait_for_app(chinese_page, chinese_page.get_by_role("heading", name="Vocabulary"))
    assert [t.split("\n")[-1] for t in nav_titles(chinese_page)] == ENGLISH_TITLES
    assert "lang=" not in chinese_page.url


def test_a_link_with_lang_zh_opens_chinese_in_an_english_browser(open_app, page):
    open_app("?lang=zh", expect=page.get_by_text("演示模式"))  # waits for it, or fails
    assert "lang=zh" in page.url  # the Playground rewrites its link and keeps the language
