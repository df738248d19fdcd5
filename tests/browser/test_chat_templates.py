"""A found model's own chat template on the Sequences chat tab, in a real browser (#21).

A server started with TOKEX_MODELS_DIR naming folders made by the test
(tests/chat_template_files.py: ChatML's and Llama 3's layouts over DeepSeek-V4's tokenizer.json
with their markers added) draws the page's conversation in each template; the chosen one's
tokens are drawn last, its markers as special tokens, and a message with markup stays text.
Screenshots in English and Chinese: screenshots/chat-templates-{en,zh}.png.
"""

from __future__ import annotations

import shutil

import pytest

from tests.browser.conftest import (
    LAPTOP,
    SCREENSHOTS,
    PageLog,
    _start_streamlit,
    _stop,
    new_guarded_page,
    wait_for_app,
)
from tests.browser.test_links import PROBE_404
from tests.chat_template_files import folders
from tokenizer_core.reference.open_models import DEEPSEEK_FILE, packaged_path

FIRST_LOAD_MS = 120_000  # the first session starts the folder's workers
HEADINGS = {"en": "Each found model's own chat template", "zh": "每个找到的模型自己的对话模板"}


@pytest.fixture(scope="module")
def template_server(browser, tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    made = folders(root, packaged_path(DEEPSEEK_FILE))
    for name in ("tojson", "strict", "named", "jinja_wins"):
        shutil.rmtree(made[name])
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TOKEX_MODELS_DIR", str(root))
        patch.setenv("HF_HUB_CACHE", str(tmp_path_factory.mktemp("no-hf-cache") / "hub"))
        proc, url, _ = _start_streamlit(tmp_path_factory.mktemp("streamlit-chat-templates"))
    try:
        yield url
    finally:
        _stop(proc)


def test_the_chat_tab_draws_each_found_template_in_both_languages(browser, template_server):
    log = PageLog()
    context, page = new_guarded_page(browser, log)
    page.set_viewport_size(LAPTOP)
    log.allow_console_error(PROBE_404)  # a page's own URL: streamlit/streamlit#7074
    for language in ("en", "zh"):
        page.goto(f"{template_server}/sequences?sq_tab=Chat+templates&lang={language}")
        heading = page.get_by_role("heading", name=HEADINGS[language])
        wait_for_app(page, heading, timeout_ms=FIRST_LOAD_MS)
        wait_for_app(page, timeout_ms=FIRST_LOAD_MS)
        last_view = page.locator(".tokview").last
        # ChatML's template: three turns, each opened and closed by one special token
        specials = last_view.locator(".special").all_inner_texts()
        assert specials == ["<|im_start|>", "<|im_end|>"] * 3, specials
        heading.scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"chat-templates-{language}.png"))
    # a message with markup is drawn as its characters in the template's tokens too
    box = page.locator(".st-key-sq_c_user textarea")
    box.fill("<img src=x onerror=alert(1)>")
    box.press("Control+Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.tokview')].pop().textContent.includes('onerror')",
        timeout=FIRST_LOAD_MS)
    wait_for_app(page)
    assert page.locator("img[onerror]").count() == 0  # nowhere on the page
    assert not log.problems(), log.problems()
    context.close()
