"""Lesson files in a real browser: a screen saved with text too long for its link reopens whole
in a fresh browser; a path of two screens walks with next/previous; a bad file is refused in
words. Screenshots: screenshots/lesson-*.png.
"""

from __future__ import annotations

import json

from tests.browser.conftest import LAPTOP, SCREENSHOTS, new_guarded_page, wait_for_app
from ui.playground.limits import MAX_URL_TEXT_CHARS

LONG_TEXT = "A lesson text too long for any link, kept whole by the file. " * 40
SIDEBAR = '[data-testid="stSidebar"]'


def open_tools(page) -> None:
    page.locator(SIDEBAR).get_by_text("Lesson links and files", exact=True).click()
    page.get_by_text("This screen as a lesson file").wait_for()


def upload(page, path) -> None:
    page.locator(f'{SIDEBAR} [data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))


def test_a_screen_saved_as_a_file_reopens_whole_in_a_fresh_browser(browser, page, page_log,
                                                                    app_server, tmp_path):
    assert len(LONG_TEXT) > MAX_URL_TEXT_CHARS
    page.set_viewport_size(LAPTOP)
    page.goto(f"{app_server.url}/?tok=gpt2,cl100k_base")
    wait_for_app(page, page.locator(".tokview").nth(1))
    box = page.get_by_label("Text", exact=True)
    box.fill(LONG_TEXT)
    box.press("Control+Enter")
    wait_for_app(page, page.get_by_text("too long to keep in the link").first)
    open_tools(page)
    with page.expect_download() as saved:
        page.get_by_text("This screen as a lesson file").click()
    path = tmp_path / "lesson.json"
    saved.value.save_as(path)
    step = json.loads(path.read_text("utf-8"))["steps"][0]
    assert step["page"] == "playground" and step["params"]["text"] == LONG_TEXT
    assert step["params"]["tok"] == "gpt2,cl100k_base"

    context, fresh = new_guarded_page(browser, page_log)
    try:
        fresh.set_viewport_size(LAPTOP)
        fresh.goto(app_server.url)
        wait_for_app(fresh, fresh.locator(".tokview").first)
        open_tools(fresh)
        upload(fresh, path)
        wait_for_app(fresh, fresh.get_by_text("Opened lesson.json: one screen."))
        fresh.wait_for_function(
            "t => document.querySelector('textarea[aria-label=\"Text\"]').value === t", arg=LONG_TEXT)
        assert fresh.locator(".tokview").count() == 2
        fresh.screenshot(path=str(SCREENSHOTS / "lesson-reopened.png"))
    finally:
        context.close()


def test_a_path_of_two_screens_walks_next_and_previous(page, app_server, tmp_path, screenshot):
    lesson = {"format": "tokenization-explorer-lesson", "version": 1, "steps": [
        {"page": "merge_steps", "title": "BPE on low/lower/newest",
         "params": {"ms_source": "preset:low_newest", "ms_merges": "3", "ms_step": "2"}},
        {"page": "languages", "title": "What Chinese costs",
         "params": {"lg_tab": "Byte ruler", "lg_text": "你好 hello", "lg_tok": "gpt2"}},
    ]}
    path = tmp_path / "path.json"
    path.write_text(json.dumps(lesson, ensure_ascii=False), "utf-8")
    page.set_viewport_size(LAPTOP)
    page.goto(app_server.url)
    wait_for_app(page, page.locator(".tokview").first)
    open_tools(page)
    upload(page, path)
    wait_for_app(page, page.get_by_role("heading", name="Merge steps", exact=True))
    sidebar = page.locator(SIDEBAR)
    sidebar.get_by_text("step 1 of 2").wait_for()
    screenshot("lesson-path-step-1")
    sidebar.get_by_role("button", name="Next ▶").click()
    wait_for_app(page, page.get_by_role("heading", name="Languages", exact=True))
    page.wait_for_function(
        "() => document.querySelector('textarea[aria-label=\"Text\"]')?.value === '你好 hello'")
    sidebar.get_by_text("step 2 of 2").wait_for()
    assert sidebar.get_by_role("button", name="Next ▶").is_disabled()
    sidebar.get_by_role("button", name="◀ Previous").click()
    wait_for_app(page, page.get_by_role("heading", name="Merge steps", exact=True))


def test_a_bad_lesson_file_is_refused_in_words(page, app_server, tmp_path, screenshot):
    path = tmp_path / "evil.json"
    path.write_text(json.dumps({"format": "tokenization-explorer-lesson", "version": 1,
                                "steps": [{"page": "../../etc/passwd"}]}), "utf-8")
    page.set_viewport_size(LAPTOP)
    page.goto(app_server.url)
    wait_for_app(page, page.locator(".tokview").first)
    open_tools(page)
    upload(page, path)
    error = page.locator(f'{SIDEBAR} [data-testid="stAlertContentError"]')
    error.wait_for()
    assert "evil.json was not opened" in error.inner_text()
    assert "does not have" in error.inner_text()
    screenshot("lesson-bad-file")
