"""A corpus with no spaces gets an answer within the normal wait, in a real browser (issue 9, 6c).

Text with no spaces is one enormous chunk. 60 KB of Chinese once kept Compression training for
minutes and made Merge steps send a 229 MB trace; both pages must now answer while a person
still waits (wait_for_app's usual timeout), with words that say what was left out and why.
"""

from __future__ import annotations

import random

from tests.browser.conftest import APP_TITLE, LAPTOP, WAIT_TIMEOUT_MS, AppServer, wait_for_app
from tokenizer_core.bounds import MAX_HISTORY_SYMBOLS

UPLOAD_INPUT = '[data-testid="stFileUploaderDropzoneInput"]'  # inside its expander
CHART = '[data-testid="stPlotlyChart"]'
FIRST_LOAD_MS = 240_000  # test_compression's: a cold page trains ours and twelve HF models


def random_chinese(n: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    return "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(n))


def upload(page, expander_title: str, name: str, data: bytes) -> None:
    page.get_by_text(expander_title).first.click()
    expander = page.locator('[data-testid="stExpander"]').filter(has_text=expander_title).first
    expander.locator(UPLOAD_INPUT).set_input_files(
        files=[{"name": name, "mimeType": "text/plain", "buffer": data}]
    )
    page.wait_for_timeout(300)  # let the upload's rerun start before waiting for it to end


def open_by_sidebar(page, app_server: AppServer, name: str, expect, timeout_ms: int) -> None:
    """Open the app, then a page by its sidebar link (a page's own link first logs two 404s,
    issue 9 item 3, which the page log would report here)."""
    page.goto(app_server.url)
    wait_for_app(page, APP_TITLE)
    page.locator('[data-testid="stSidebarNav"] a', has_text=name).click()
    wait_for_app(page, expect, timeout_ms=timeout_ms)


def test_compression_trains_on_60_kb_of_chinese_and_says_why_no_hf_lines(
    page, app_server: AppServer, screenshot
) -> None:
    page.set_viewport_size(LAPTOP)
    open_by_sidebar(page, app_server, "Compression", page.locator(CHART).first, FIRST_LOAD_MS)
    upload(page, "Train on your own text", "chinese.txt", random_chinese(20_000).encode())
    # the wait test_file_names gives a Compression upload (three corpora are measured)
    wait_for_app(page, "No Hugging Face lines for Your text (chinese.txt)",
                 timeout_ms=3 * WAIT_TIMEOUT_MS)
    assert page.get_by_text("3,744 merges learned").count() >= 1  # our curve: all of it
    page.get_by_text("No Hugging Face lines for").first.scroll_into_view_if_needed()
    screenshot("training_cost_compression")


def test_merge_steps_answers_a_huge_chunk_and_plays_what_fits(
    page, app_server: AppServer, screenshot
) -> None:
    page.set_viewport_size(LAPTOP)
    text = random_chinese(19_990)
    fits = MAX_HISTORY_SYMBOLS // len(text.encode("utf-8"))  # one chunk, stored at every merge
    open_by_sidebar(page, app_server, "Merge steps", page.get_by_role("heading", name="Merge steps"),
                    WAIT_TIMEOUT_MS)
    page.get_by_role("combobox", name="Corpus").click()
    page.get_by_role("option", name="Your own text or upload").click()
    wait_for_app(page, page.get_by_label("Your corpus", exact=True))
    page.get_by_role("radiogroup", name="Level").get_by_role("radio", name="byte").click()
    wait_for_app(page)
    merges = page.get_by_label("Merges", exact=True).and_(page.locator("input"))
    merges.fill("500")
    merges.press("Enter")
    wait_for_app(page)
    upload(page, "Upload a .txt file", "chinese.txt", text.encode())
    wait_for_app(page, f"Ask for {fits} merges or fewer")
    screenshot("training_cost_merge_steps_refused")

    merges.fill(str(fits))
    merges.press("Enter")
    wait_for_app(page, "Not drawn from the chunk")
    note = page.get_by_text("Not drawn from the chunk").first
    assert "past its bound of 4 MB" in note.inner_text()
    note.scroll_into_view_if_needed()
    screenshot("training_cost_merge_steps_cut")
