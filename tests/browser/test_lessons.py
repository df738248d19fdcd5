"""Lesson files in a real browser: a screen saved with text too long for its link reopens whole
in a fresh browser; a path of two screens walks with next/previous; a bad file is refused in
words. Screenshots: screenshots/lesson-*.png.
"""

from __future__ import annotations

import json

from tests.browser.conftest import LAPTOP, SCREENSHOTS, new_guarded_page, wait_for_app
from tests.browser.test_file_names import assert_no_markup_from, hostile_name, listener

__all__ = ["listener"]  # the loopback listener fixture, shared with test_file_names
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
    wait_for_app(page)
    with page.expect_download(timeout=60_000) as saved:
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


def _lesson_file(tmp_path, name: str, steps: list[dict]):
    path = tmp_path / name
    path.write_text(json.dumps({"format": "tokenization-explorer-lesson", "version": 1,
                                "steps": steps}), "utf-8")
    return path


PRACTICE_777 = {"page": "practice", "title": "Masking, seed 777",
                "params": {"pr_tab": "Random masking", "pr_seed": "777"}}


def _type_seed(page, seed: str) -> None:
    box = page.get_by_label("Seed", exact=True)
    box.fill(seed)
    box.press("Enter")
    page.wait_for_function(
        "s => document.querySelector('input[aria-label=\"Seed\"]')?.value === s", arg=seed)
    wait_for_app(page, page.get_by_text(f"seed {seed}").first)


def test_an_opened_lesson_file_is_opened_once(page, app_server, tmp_path, screenshot):
    """Issue 23 item 1: the file stayed live in the upload box, so the next change of any
    control opened it again (the seed went back to 777, the path back to step 1)."""
    page.set_viewport_size(LAPTOP)
    page.goto(app_server.url)
    wait_for_app(page, page.locator(".tokview").first)
    open_tools(page)
    upload(page, _lesson_file(tmp_path, "one.json", [PRACTICE_777]))
    wait_for_app(page, page.get_by_text("seed 777").first)
    _type_seed(page, "1234")
    _type_seed(page, "4321")  # the second change took before; the first must too
    assert page.get_by_label("Seed", exact=True).input_value() == "4321"

    path = _lesson_file(tmp_path, "path.json", [
        {"page": "languages", "title": "What Chinese costs", "params": {}},
        {"page": "sequences", "title": "Windows", "params": {}},
        PRACTICE_777])
    if not page.get_by_text("This screen as a lesson file").is_visible():
        open_tools(page)  # the expander closes when the page switches
    upload(page, path)
    sidebar = page.locator(SIDEBAR)
    wait_for_app(page, page.get_by_role("heading", name="Languages", exact=True))
    sidebar.get_by_text("step 1 of 3").wait_for()
    for heading in ("Sequences", "Practice"):
        sidebar.get_by_role("button", name="Next ▶").click()
        wait_for_app(page, page.get_by_role("heading", name=heading, exact=True))
    wait_for_app(page, page.get_by_text("seed 777").first)
    _type_seed(page, "1234")
    assert page.get_by_role("heading", name="Practice", exact=True).is_visible()
    assert sidebar.get_by_text("step 3 of 3").is_visible()
    assert page.get_by_label("Seed", exact=True).input_value() == "1234"
    screenshot("lesson-opened-once")


def _upload_named(page, name: str, body: dict) -> None:
    raw = json.dumps(body, ensure_ascii=False).encode("utf-8")
    page.locator(f'{SIDEBAR} [data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": raw}])


def test_a_lesson_files_own_words_stay_text(page, app_server, listener, screenshot):
    """Issue 23 item 4: the file's name, a page name, a version and the step titles reached
    the sidebar's Markdown, so an image in them was fetched. A listener on loopback counts."""
    port, hits = listener
    image = f"![x](http://127.0.0.1:{port}/a.png)"
    page.set_viewport_size(LAPTOP)
    page.goto(app_server.url)
    wait_for_app(page, page.locator(".tokview").first)
    open_tools(page)
    sidebar = page.locator(SIDEBAR)
    fmt = {"format": "tokenization-explorer-lesson"}
    for body, words in [({**fmt, "version": 1, "steps": [{"page": image}]}, "does not have"),
                        ({**fmt, "version": image, "steps": []}, "of version"),
                        ({"format": image}, "not a lesson file")]:
        _upload_named(page, hostile_name(port, ".json"), body)
        wait_for_app(page, sidebar.locator('[data-testid="stAlertContentError"]').filter(
            has_text=words))
    steps = [{"page": "playground", "title": f"{image} one"},
             {"page": "languages", "title": f"[two](http://127.0.0.1:{port}/b) {image}"}]
    _upload_named(page, hostile_name(port, ".json"), {**fmt, "version": 1, "steps": steps})
    wait_for_app(page, sidebar.get_by_text("step 1 of 2"))
    sidebar.get_by_role("button", name="Next ▶").click()
    wait_for_app(page, page.get_by_role("heading", name="Languages", exact=True))
    open_tools(page)  # the path's titles, listed inside the tools
    # the titles as their characters (less the invisible word joiners that break autolinks)
    page.wait_for_function(
        "t => document.querySelector('[data-testid=\"stSidebar\"]').innerText"
        ".replaceAll('\\u2060', '').includes(t)", arg=f"[two](http://127.0.0.1:{port}/b) {image}")
    wait_for_app(page)
    assert f"{image} one" in sidebar.inner_text().replace("\u2060", "")
    screenshot("lesson-hostile-words")
    assert_no_markup_from(page, port)
    assert hits == [], f"the browser fetched {hits} from a lesson file's words"
