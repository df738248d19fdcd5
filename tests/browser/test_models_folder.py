"""The models folder in a real browser (#21): a server started with TOKEX_MODELS_DIR naming a
folder made by the test offers its tokenizers to two sessions at once (two tabs, as two students),
each counting what the file's own library counts, from a teacher's link."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import tiktoken
import tiktoken.load

from tests.browser.conftest import (
    LAPTOP,
    SCREENSHOTS,
    PageLog,
    _start_streamlit,
    _stop,
    new_guarded_page,
    wait_for_app,
)
from tests.local_models_files import QWEN_SPECIALS, models_folder
from tokenizer_core.reference.open_models import QWEN_PAT


@pytest.fixture(scope="module")
def folder_server(browser, tmp_path_factory):
    folder = tmp_path_factory.mktemp("models")
    models_folder(folder)
    shutil.rmtree(folder / "deepseek")  # the big one: this test is about the folder, not a file
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TOKEX_MODELS_DIR", str(folder))
        patch.setenv("HF_HUB_CACHE", str(tmp_path_factory.mktemp("no-hf-cache") / "hub"))
        proc, url, _ = _start_streamlit(tmp_path_factory.mktemp("streamlit-models"))
    try:
        yield folder, url
    finally:
        _stop(proc)


def qwen_count(folder: Path, text: str, tmp: Path) -> int:
    import os

    os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(tmp))
    encoding = tiktoken.Encoding("qwen", pat_str=QWEN_PAT, special_tokens=QWEN_SPECIALS,
                                 mergeable_ranks=tiktoken.load.load_tiktoken_bpe(
                                     str(folder / "qwen.tiktoken")))
    return len(encoding.encode_ordinary(text))


def test_two_sessions_see_the_folders_tokenizers_with_their_librarys_counts(
        browser, folder_server, tmp_path):
    folder, url = folder_server
    pages = []
    for _ in range(2):
        log = PageLog()
        context, page = new_guarded_page(browser, log)
        page.set_viewport_size(LAPTOP)
        page.goto(f"{url}/?tok=gpt2,local:qwen")
        pages.append((context, page, log))
    for context, page, log in pages:
        wait_for_app(page, page.get_by_role("heading", name="Playground"))
        page.locator(".tokview").nth(1).wait_for()
        labels = [t.replace("\u2060", "") for t in
                  page.locator('[data-testid="stMarkdownContainer"] strong').all_inner_texts()]
        assert "local:qwen" in labels
        box = page.get_by_label("Text", exact=True)
        text = box.input_value()
        shown = page.locator('[data-testid="stMetricValue"]').all_inner_texts()
        assert shown[1] == f"{qwen_count(folder, text, tmp_path):,}"
        page.get_by_text("Tokenizers on this machine").click()
        page.get_by_role("button", name="Look again").wait_for()  # the listing, its table a canvas
        assert not log.problems(), log.problems()
        context.close()



def test_compression_names_each_found_tokenizer_beside_its_point_in_both_languages(
        browser, folder_server):
    """The folder's tokenizers get a reference point on Compression, named `local:NAME` beside
    it; with them the chart holds more names than ever (Mistral 7B and Qwen twice, at the same
    vocab sizes as the built-in ones), and no name may sit on another or run into the legend."""
    from tests.browser.test_compression import CHART, DRAWN_JS, FIRST_LOAD_MS, _meet

    _, url = folder_server
    log = PageLog()
    context, page = new_guarded_page(browser, log)
    page.set_viewport_size(LAPTOP)
    found = {"local:lower", "local:mistral7b", "local:qwen", "local:trained"}
    for language, query, nav in (("en", "", "Compression"), ("zh", "?lang=zh", "压缩率")):
        page.goto(f"{url}/{query}")
        link = page.locator('[data-testid="stSidebarNav"] a', has_text=nav)
        wait_for_app(page, link)
        link.click()
        chart = page.locator(f"{CHART} .js-plotly-plot").first
        page.wait_for_function(
            f"names => {{ const el = document.querySelector('{CHART} .js-plotly-plot');"
            " if (!el) return false;"
            " const drawn = [...el.querySelectorAll('.annotation-text')].map(t => t.textContent);"
            " return names.every(n => drawn.includes(n)); }",
            arg=sorted(found), timeout=FIRST_LOAD_MS)
        wait_for_app(page, timeout_ms=FIRST_LOAD_MS)
        chart.scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"compression-models-folder-{language}.png"))
        drawn = chart.evaluate(DRAWN_JS)  # every name on the chart, ours and the folder's
        labels = drawn["labels"]
        assert found <= {lab[0] for lab in labels}, labels
        clashes = [(a[0], b[0]) for a in labels for b in labels
                   if a[0] < b[0] and _meet(a[1:], b[1:])]
        assert clashes == [], clashes
        right = drawn["plot"][2]
        assert [lab[0] for lab in labels if lab[3] > right + 2] == []  # none runs into the legend
    assert not log.problems(), log.problems()
    context.close()
