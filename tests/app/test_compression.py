"""The Compression page, driven by AppTest: it trains once per corpus and setting (moving a view
widget never retrains), reference points equal tiktoken's counts, the classroom sentence splits
as in the lesson, and a bad upload is refused with a message while the page keeps its state."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import replace

import pytest

from tests.shared import tiktoken, tiktoken_encoding
from tokenizer_core import store
from tokenizer_core.measure.compression import split_held_out
from tokenizer_core.samples import corpus_text, english_reference_corpus, sample_text
from ui.compression.limits import MAX_CORPUS_BYTES
from ui.compression.sentences import BYTE_LEVEL_TAB

from .conftest import open_page, shown, uploader

PAGE = "pages/compression.py"


class StoreTrainings(Mapping[str, int]):
    """Our curve trainings ("ours") and HF / SentencePiece model trainings ("hf") since this was
    made (or last `update`d), counted as the entries they wrote into the on-disk store.

    Why the store: the page trains in worker processes (#22), where no wrapper of this process
    sees the training; every training the page makes is kept in the store as one entry named by
    its recipe (compute._kept), and a result read from the store writes none. Read live: `dict()`
    of it is a snapshot, comparing it again counts anew."""

    def __init__(self) -> None:
        self._before = self._entries()

    @staticmethod
    def _entries() -> dict[str, tuple[str, int]]:
        folder = store.store_dir()
        found = {}
        for path in folder.glob("*.json") if folder else ():
            try:
                recipe = json.loads(path.read_text(encoding="utf-8"))["recipe"]
                found[path.name] = (recipe, path.stat().st_mtime_ns)
            except (OSError, ValueError, KeyError):  # one being written: counted when whole
                continue
        return found

    def _counts(self) -> dict[str, int]:
        counts = {"ours": 0, "hf": 0}
        for name, (recipe, written) in self._entries().items():
            if self._before.get(name) == (recipe, written):
                continue
            if recipe.startswith("compression curve "):
                counts["ours"] += 1
            elif recipe.startswith("compression hf "):
                counts["hf"] += 1
        return counts

    def __getitem__(self, key: str) -> int:
        return self._counts()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(("ours", "hf"))

    def __len__(self) -> int:
        return 2

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and self._counts() == dict(other)

    def __repr__(self) -> str:
        return f"StoreTrainings({self._counts()})"

    def update(self, **zero: int) -> None:
        """Count from here on (`update(ours=0, hf=0)`: what came before is not counted)."""
        assert set(zero.values()) == {0}, "only a reset to zero is meant"
        self._before = self._entries()


@pytest.fixture
def runs(monkeypatch, tmp_path) -> StoreTrainings:
    """Count our training runs and HF model trainings while the page runs (made in worker
    processes: counted by the store entries they leave), with an empty on-disk store of the
    test's own (so nothing comes from an earlier test's results)."""
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "store"))
    return StoreTrainings()


@pytest.fixture
def trainings() -> StoreTrainings:
    """Count the trainings as `runs` does, over the run's shared store: for tests that compare
    counts before and after a step (what an earlier test trained is read, which is quicker)."""
    return StoreTrainings()


def open_compression(app, corpora=("code", "emoji"), hf=(), **state):
    """The page with small corpora and no HF lines unless asked (fast), state set before it runs."""
    app.session_state["cp_corpora"] = list(corpora)
    app.session_state["cp_hf"] = list(hf)
    for key, value in state.items():
        app.session_state[key] = value
    return open_page(app, PAGE)


def quality_rows(app):
    frame = app.dataframe[1].value
    return {(row["corpus"], row["tokenizer"].split(",")[0]): row for _, row in frame.iterrows()}


def markdown_texts(app) -> list[str]:
    return [m.value for m in app.markdown]


def test_default_view_english_and_chinese_with_hf_lines(app, runs):
    open_page(app, PAGE)
    assert runs == {"ours": 2, "hf": 2 * 3 * 4}  # 2 corpora; 3 families at 500 ... 4,000
    assert len(app.get("plotly_chart")) == 1
    captions = [c.value for c in app.caption]
    assert any(c.startswith("**English**: trained on the first 80%") for c in captions)
    # the long Chinese corpus (data/corpora/chinese.txt) runs past the default 4,000 vocab
    assert not any("line ends at" in c for c in captions)
    assert any("hides up to" in c and "[UNK]" in c for c in captions)  # WordPiece on Chinese
    rows = quality_rows(app)
    assert {corpus for corpus, _ in rows} == {"English", "Chinese"}
    assert rows[("English", "HF WordPiece")]["vocab size"] == 1_000


def test_reference_points_equal_each_libraries_counts(app):
    """GPT-2 to o200k (tiktoken) and the open models (issue 11), each by its own library."""
    from tests.shared import own_library_counter

    open_compression(app, corpora=("english",))
    held_out = split_held_out(english_reference_corpus(), 0.2).held_out
    rows = quality_rows(app)
    for name, label in [("gpt2", "GPT-2"), ("cl100k_base", "cl100k_base (GPT-4)"),
                        ("o200k_base", "o200k_base (GPT-4o)"), ("llama3", "Llama 3"),
                        ("qwen2.5", "Qwen 2.5"), ("mistral-nemo", "Mistral Nemo"),
                        ("mistral-7b", "Mistral 7B"), ("deepseek-v4", "DeepSeek-V4")]:
        assert rows[("English", label)]["tokens"] == own_library_counter(name)(held_out), name
    assert rows[("English", "Llama 3")]["vocab size"] == 128_256
    assert rows[("English", "Mistral 7B")]["vocab size"] == 32_000
    notes = " ".join(c.value for c in app.caption)
    assert "Built with Meta Llama 3" in notes


def test_our_row_equals_a_separate_training_run(app):
    """The quality table's 'ours at 500' is the first 244 merges of the page's one run; a fresh
    run of exactly 244 merges must cut the held-out text into as many tokens. At 8,000 the code
    corpus has run out of pairs: the row and the caption say which size it reached."""
    from tokenizer_core import bpe_model, corpus_from_text, train_bpe

    open_compression(app, corpora=("code",), cp_compare=500)
    split = split_held_out(corpus_text("code"), 0.2)
    fresh = bpe_model(train_bpe(corpus_from_text(split.train, "byte"), 500 - 256))
    row = quality_rows(app)[("Code", "Ours: byte-level BPE")]
    assert row["tokens"] == len(fresh.encode_ordinary_ids(split.held_out))
    assert row["vocab size"] == 500
    app.select_slider(key="cp_vocab").set_value(8_000).run()
    app.select_slider(key="cp_compare").set_value(8_000).run()
    row = quality_rows(app)[("Code", "Ours: byte-level BPE")]
    learned = len(train_bpe(corpus_from_text(split.train, "byte"), 8_000 - 256).merges)
    assert 4_000 < 256 + learned < 8_000
    assert row["tokenizer"] == f"Ours: byte-level BPE, {256 + learned:,} (asked for 8,000)"
    assert any(f"Code's line ends at {256 + learned:,}" in c.value for c in app.caption)


def test_classroom_pieces_by_hand():
    from ui.compression.sentences import classroom_tokens

    pieces = {k: [t.piece for t in classroom_tokens("sentence", "the cat sat on the mat", k)]
              for k in (5, 15, 30)}
    assert len(pieces[5]) == 13
    assert pieces[15] == ["the cat ", "sat o", "n", " the ", "m", "at"]
    assert pieces[30] == ["the cat ", "sat on the ", "m", "at"]
    unknown = classroom_tokens("sentence", "the zebra", 30)  # z and b never occur: <unk>
    assert [t.piece for t in unknown if t.unknown] == ["<unk>", "<unk>"]


def test_byte_level_rows_grow_then_reach_the_real_tokenizers(app):
    # only the open tab runs (the real tokenizers load when it is asked for)
    open_compression(app, corpora=("code",), cp_sentence_tab=BYTE_LEVEL_TAB)
    app.text_input(key="cp_byte_text").set_value("def total(items): return sum(items)").run()
    text = " ".join(markdown_texts(app))
    assert "Ours, 500 vocab (244 merges on Code)" in text
    assert "Ours, 4,000 vocab (3,744 merges on Code)" in text  # the long code corpus gets there
    assert "GPT-2, 50,257 vocab" in text and "o200k_base (GPT-4o), 200,019 vocab" in text


def test_good_upload_becomes_a_corpus(app):
    open_compression(app, corpora=("code",), cp_sentence_tab=BYTE_LEVEL_TAB)
    text = "The quick brown fox jumps over the lazy dog.\n" * 20
    uploader(app, "cp_upload").set_value(("fox.txt", text.encode(), "text/plain")).run()
    assert not app.exception and not app.error
    assert app.pills(key="cp_corpora").value == ["code", "upload"]
    assert any(shown(c.value).startswith("**Your text (fox.txt)**") for c in app.caption)
    # one sentence twenty times runs out of pairs long before 500: the byte-level view says so
    app.selectbox(key="cp_byte_corpus").set_value("upload").run()
    assert any("**500 vocab**: not reached" in c.value for c in app.caption)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"caf\xe9 au lait " * 40, "not UTF-8 text (byte 0xE9 at offset 3)"),
        (b"x" * (MAX_CORPUS_BYTES + 1), f"bounded at {MAX_CORPUS_BYTES:,} bytes"),
        (b"too short", "needs at least 200"),
    ],
)
def test_bad_upload_keeps_the_page_and_says_why(app, trainings, content, message):
    open_compression(app, corpora=("code", "emoji"))
    app.select_slider(key="cp_compare").set_value(500).run()
    trained = dict(trainings)
    uploader(app, "cp_upload").set_value(("bad.txt", content, "text/plain")).run()
    assert any(message in shown(e.value) for e in app.error)
    assert app.pills(key="cp_corpora").value == ["code", "emoji"]
    assert app.select_slider(key="cp_compare").value == 500
    assert "upload" not in app.pills(key="cp_corpora").options
    assert trainings == trained and not app.exception


def test_the_upload_name_cannot_become_markdown(app):
    """The file's name is user text: in the pills, the captions and the errors it stays literal."""
    open_compression(app, corpora=("code",))
    name = "**x**![y](http://evil.example/y.png).txt"
    text = "The quick brown fox jumps over the lazy dog.\n" * 20
    uploader(app, "cp_upload").set_value((name, text.encode(), "text/plain")).run()
    assert not app.exception
    from ui.common.catalog import ATTRIBUTIONS

    # Llama 3's attribution, the page's own text, is the one link the notes may hold
    written = [w.replace(ATTRIBUTIONS["llama3"], "") for w in
               [c.value for c in app.caption] + [m.value for m in app.markdown]]
    assert any(f"Your text ({name})" in shown(w) for w in written)
    assert not any("![" in w or "](" in w or "**x**" in w for w in written)
    uploader(app, "cp_upload").set_value((name, b"too short", "text/plain")).run()
    (error,) = [e.value for e in app.error]
    assert "![" not in error and "](" not in error and name in shown(error)


def test_choices_survive_a_visit_to_another_page(app, trainings):
    open_compression(app)
    app.select_slider(key="cp_vocab").set_value(2_000).run()
    app.select_slider(key="cp_compare").set_value(500).run()
    app.pills(key="cp_corpora").set_value(["emoji"]).run()
    app.segmented_control(key="cp_metric").set_value("tokens_per_word").run()
    trained = dict(trainings)
    app.switch_page("pages/playground.py").run()
    app.switch_page(PAGE).run()
    assert app.select_slider(key="cp_vocab").value == 2_000
    assert app.select_slider(key="cp_compare").value == 500
    assert app.pills(key="cp_corpora").value == ["emoji"]
    assert app.segmented_control(key="cp_metric").value == "tokens_per_word"
    assert trainings == trained and not app.exception


# --- the pure builders behind the page ----------------------------------------------------------

def small_frame():
    """Our line (and its training part), an HF WordPiece line and GPT-2, on the English sample."""
    from tokenizer_core.measure.compression import compression_curve
    from tokenizer_core.measure.metrics import text_stats
    from tokenizer_core.measure.quality import hf_lines
    from ui.compression.frames import curve_frame, curve_rows, hf_rows, reference_rows

    split = split_held_out(sample_text("english"), 0.2)
    curve = compression_curve(split, 300)
    rows = curve_rows("English", "english", curve, 20, (500,), train=True)
    points = hf_lines("wordpiece", split.train, split.held_out, (400, 500))
    rows += hf_rows("English", "english", "wordpiece", points, True)
    gpt2 = len(tiktoken_encoding("gpt2").encode_ordinary(split.held_out))
    stats = replace(text_stats(split.held_out, []), tokens=gpt2)
    rows += reference_rows("English", "english", [("gpt2", 50_257, stats, 0.0)], True)
    return curve_frame(rows), curve, split


def test_curve_frame_holds_every_point_of_every_line():
    frame, curve, split = small_frame()
    ours = frame[(frame.family == "ours") & (frame.kind == "held-out")]
    assert ours.vocab_size.iloc[0] == 256 and ours.vocab_size.iloc[-1] == 556
    assert 500 in set(ours.vocab_size)  # the sizes the HF lines use are always drawn
    row = ours[ours.vocab_size == 500].iloc[0]
    assert row.tokens == curve.held_out_tokens[244]
    assert row.chars_per_token == pytest.approx(len(split.held_out) / row.tokens)
    assert set(frame.kind) == {"held-out", "train", "reference"}
    assert frame[frame.family == "gpt2"].vocab_size.tolist() == [50_257]


def test_curve_figure_is_a_log_axis_chart_with_one_trace_per_line():
    from ui.compression.charts import curve_figure

    frame, _, _ = small_frame()
    fig = curve_figure(frame, "bytes_per_token", {"english": "#0072B2"}, mark_vocab=500)
    drawn = [trace for trace in fig.data if trace.showlegend is False]  # the data itself
    assert [trace.name for trace in drawn] == [
        "Ours: byte-level BPE", "Ours, on its training part", "HF WordPiece", "GPT-2"]
    # the legend: each corpus once by its colour, each tokenizer once by its shape, and the
    # warning that WordPiece spells unseen words as [UNK]
    legend = [trace.name for trace in fig.data if trace.showlegend is not False]
    assert legend[0] == "English" and legend[-1] == "hides text in [UNK]"
    assert fig.layout.xaxis.type == "log"
    assert fig.layout.yaxis.title.text == "UTF-8 bytes per token"
    # the mark at 500 (beside the reference points' names): on a log axis, at log10(x)
    assert any(a.x == pytest.approx(math.log10(500)) for a in fig.layout.annotations)
    assert all(trace.line.color == "#0072B2" for trace in drawn if trace.mode == "lines")
    with pytest.raises(ValueError, match="unknown measure"):
        curve_figure(frame, "words_per_dollar", {})


def test_quality_frame_keeps_fractions_and_the_views_show_percent():
    from tokenizer_core.measure.quality import measure
    from ui.compression.frames import percent_view, projector_view, quality_frame

    q = measure(tiktoken("gpt2"), "the cat sat on the mat", {"the", "cat"})
    frame = quality_frame([("English", "GPT-2, 50,257", q)])
    assert frame["words kept whole"].iloc[0] == 1.0 and frame["round trip"].iloc[0] == "OK"
    assert percent_view(frame)["words kept whole"].iloc[0] == 100.0
    assert projector_view(frame).loc["GPT-2, 50,257", "words kept whole"] == "100%"
    csv = frame.to_csv(index=False)
    assert csv.splitlines()[0].startswith("tokenizer,corpus,vocab size,tokens,chars / token")


def test_an_uploaded_name_reaches_the_chart_escaped():
    """Plotly draws <a href> and <b> in legend and hover text: a file name must arrive as text."""
    from ui.compression.charts import curve_figure

    frame, _, _ = small_frame()
    hostile = '<a href="http://evil.example/">notes</a>.txt'
    fig = curve_figure(frame.assign(corpus=hostile), "bytes_per_token", {}, mark_vocab=500)
    names = {trace.name for trace in fig.data}  # the corpus is a legend entry of its own
    assert "&lt;a href=&quot;http://evil.example/&quot;&gt;notes&lt;/a&gt;.txt" in names
    assert not any("<a " in name for name in names)
    assert all("<a " not in str(row[0]) for trace in fig.data for row in (trace.customdata or []))


def test_classroom_rows_at_the_word_level_show_the_end_of_word_marker():
    """Issue 9, item 12: the classroom rows draw `</w>` in the box of the token holding it, as
    every other view does (a word-level token covers its word; `</w>` covers nothing)."""
    from html.parser import HTMLParser

    from tokenizer_core import render_tokens
    from ui.compression.sentences import classroom_tokens

    class Boxes(HTMLParser):
        def __init__(self):
            super().__init__()
            self.texts, self.depth = [], 0

        def handle_starttag(self, tag, attrs):
            if self.depth:
                self.depth += 1
            elif "tok" in (dict(attrs).get("class") or "").split():
                self.texts.append("")
                self.depth = 1

        def handle_endtag(self, tag):
            self.depth -= 1 if self.depth else 0

        def handle_data(self, data):
            if self.depth:
                self.texts[-1] += data

    sentence = "the cat sat on the mat"
    tokens = classroom_tokens("word", sentence, 30)
    boxes = Boxes()
    boxes.feed(render_tokens(sentence, tokens))
    assert boxes.texts == [t.piece for t in tokens]
    assert any(p.endswith("</w>") and p != "</w>" for p in boxes.texts)


def test_sentencepiece_lines_beside_hf_are_the_library_trained_on_the_same_split(app, runs):
    """Issue 10: SentencePiece Unigram and BPE as lines (one run per size); the quality row at
    1,000 is the real library trained on the same training part at 1,000 with the lesson's
    parameters, counting the held-out part as the library does."""
    import sentencepiece as spm

    from tokenizer_core.reference.sentencepiece_models import train_sentencepiece

    open_compression(app, corpora=("code",), hf=["sp_unigram", "sp_bpe"], cp_vocab=2_000)
    assert not app.exception
    split = split_held_out(corpus_text("code"), 0.2)
    rows = quality_rows(app)
    for family, label in (("unigram", "SentencePiece Unigram"), ("bpe", "SentencePiece BPE")):
        own = spm.SentencePieceProcessor(
            model_proto=train_sentencepiece(split.train, 1_000, family).model_proto)
        assert rows[("Code", label)]["tokens"] == len(own.encode(split.held_out))
        assert rows[("Code", label)]["vocab size"] == own.get_piece_size()
    assert runs["hf"] == 2 * 3  # two families at 500, 1,000 and 2,000: one run per size
    spec = app.get("plotly_chart")[0].proto.spec  # the figure's JSON
    assert "SentencePiece Unigram" in spec and "SentencePiece BPE" in spec


def test_a_size_hf_unigram_refuses_is_named_where_its_row_would_be(app, runs):
    """Issue 23, item 11: HF Unigram cannot train 500 or 1,000 pieces on Chinese (more distinct
    characters than that); the page says so under the chart and above the quality table,
    instead of leaving the row out without a word."""
    from tokenizer_core.measure.quality import unigram_alphabet

    open_compression(app, corpora=("chinese",), hf=("unigram",), cp_vocab=2_000, cp_compare=1_000)
    train = split_held_out(corpus_text("chinese"), 0.2).train
    alphabet = unigram_alphabet(train)  # HF's own threshold (tests/core/measure/test_quality.py)
    assert alphabet > 1_000
    expected = (f"HF Unigram cannot train a 500- or 1,000-piece vocabulary on Chinese: its "
                f"training part has {alphabet:,} distinct characters")
    captions = [shown(c.value) for c in app.caption]
    assert any(expected in c for c in captions)  # under the chart
    assert any(f"Not in the table: {expected}" in c for c in captions)  # where the row would be
    assert ("Chinese", "HF Unigram") not in quality_rows(app)
    app.select_slider(key="cp_compare").set_value(2_000).run()
    assert ("Chinese", "HF Unigram") in quality_rows(app)
    assert not any("Not in the table" in shown(c.value) for c in app.caption)


def test_a_found_tokenizers_name_reaches_the_chart_escaped():
    """#21: a models-folder tokenizer is named by its file (local:NAME), so its name is user
    text too: legend, hover text and the label beside its marker get it as text."""
    from ui.compression.charts import curve_figure

    frame, _, _ = small_frame()
    hostile = 'local:<img src="http://127.0.0.1:9/x">'
    references = frame[frame.kind == "reference"]
    assert not references.empty
    frame.loc[references.index, "family"] = hostile
    fig = curve_figure(frame, "bytes_per_token", {}, mark_vocab=500)
    texts = [trace.name or "" for trace in fig.data]
    texts += [str(row[0]) for trace in fig.data for row in (trace.customdata or [])]
    texts += [a.text or "" for a in fig.layout.annotations]
    assert any("&lt;img" in t for t in texts)
    assert not any("<img" in t for t in texts)
