"""The Merge steps page, driven by AppTest: presets, steps, tie-break, replays, bad input.

Expected values come from the lessons (('e','s') with 9; ('t','h') with a tie) or from the core's
own oracles (the textbook loop, tiktoken, the truncated encoder), never from the page's output.
"""

from __future__ import annotations

import inspect
import json

import pytest

from tests.shared import tiktoken_encoding
from tokenizer_core import corpus_from_counts, corpus_from_text, textbook_train, train_bpe
from tokenizer_core.measure.merge_prefix import model_with_first
from tokenizer_core.samples import load_preset
from tokenizer_core.trainers.textbook import textbook_train as textbook_function
from ui.merge_steps.limits import MAX_CORPUS_CHARS, MAX_MERGES

from .conftest import open_page, page_components, shown, uploader

PAGE = "pages/merge_steps.py"
TABS = {"learn": "🎬 Watch BPE learn", "replay": "🔁 Encode replay", "versus": "⚖️ BPE vs WordPiece",
        "code": "📜 Show me the code"}


def trace(app) -> dict:
    """What the player was sent: the whole trace, plus the step it opens at."""
    (player,) = page_components(app)
    data = json.loads(player.proto.json)
    return {**json.loads(data["trace"]), "step": data["step"]}


def said(element) -> str:
    """A message as the reader sees it: Markdown escapes (ui.common.safe_text.literal) undone."""
    return shown(element.value)


def html(app) -> str:
    return "".join(h.proto.body for h in app.get("html"))


def tab(app, name: str):
    app.session_state["ms_tab"] = TABS[name]
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def choose(app, source: str):
    app.selectbox(key="ms_source").set_value(source).run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def test_step_one_of_low_newest_is_es_with_nine(app):
    open_page(app, PAGE)
    data = trace(app)
    assert data["step"] == 0 and len(data["steps"]) == 10
    first = data["steps"][0]
    assert first["narration"] == "('e','s') appears in newest (6) and widest (3): 9 times"
    assert first["pair"] == "('e','s')" and first["count"] == 9 and first["token"] == "es"
    assert first["cands"][:3] == [["('e','s')", 9, 2], ["('s','t')", 9, 1], ["('t','</w>')", 9, 1]]
    assert first["ties"] == 3 and "met first" in first["why"]
    merges, counts = textbook_train(corpus_from_counts(load_preset("low_newest")), 10)
    assert [s["count"] for s in data["steps"]] == counts  # the textbook loop, merge for merge
    script = html(app)
    assert "Merge 1.</b> (&#x27;e&#x27;,&#x27;s&#x27;) appears in newest (6) and widest (3): 9 times" in script


def test_step_two_of_the_ten_sentences_is_th_with_a_tie(app):
    open_page(app, PAGE)
    choose(app, "preset:ten_sentences")
    assert app.segmented_control(key="ms_level").value == "sentence"  # the preset's level
    second = trace(app)["steps"][1]
    assert second["pair"] == "('t','h')" and second["count"] == 10
    assert second["ties"] == 2 and second["cands"][1] == ["('h','e ')", 10, 1]  # the tie, shown
    assert second["why"].startswith("Tie: 2 pairs have 10")
    assert "('t','h') wins: in 'the cat sat on the mat' it comes before ('h','e ')" in second["why"]


def test_the_tie_break_switch_changes_step_two(app):
    open_page(app, PAGE)
    choose(app, "preset:ten_sentences")
    app.segmented_control(key="ms_tie").set_value("lexical").run()
    second = trace(app)["steps"][1]
    assert second["pair"] == "('h','e ')" and second["cands"][1] == ["('t','h')", 10, 1]
    assert "alphabetically smallest" in second["why"]
    oracle, _ = textbook_train(corpus_from_text(load_preset("ten_sentences"), "sentence"), 10, "lexical")
    assert oracle[1] == ("h", "e ")


def test_stepping_keeps_the_step_and_puts_it_in_the_link(app):
    open_page(app, PAGE)
    for step in (1, 2, 3):
        app.session_state["ms_step"] = step  # what the player's report does on a click or pause
        app.run()
        assert trace(app)["step"] == step
        assert app.query_params["ms_step"] in (str(step), [str(step)])
    app.segmented_control(key="ms_tie").set_value("lexical").run()
    assert trace(app)["step"] == 3  # same step, other rule: the classic comparison
    choose(app, "preset:hug_pug")
    assert trace(app)["step"] == 0  # a new corpus starts over


def test_a_link_reopens_the_lesson_at_its_step(app):
    """Opened straight from a link (not after the Playground, which rewrites the query)."""
    app.query_params["ms_step"] = "4"
    app.query_params["ms_tie"] = "lexical"
    app.switch_page(PAGE)
    app.run()
    assert not app.exception
    assert trace(app)["step"] == 4
    assert app.segmented_control(key="ms_tie").value == "lexical"


def test_a_step_past_the_end_is_clamped(app):
    open_page(app, PAGE)
    app.session_state["ms_step"] = 99
    app.run()
    assert trace(app)["step"] == 10


def test_samples_train_at_the_byte_level(app):
    open_page(app, PAGE)
    choose(app, "sample:chinese")
    data = trace(app)
    assert data["level"] == "byte" and len(data["steps"]) == 60
    assert all("\ufffd" not in s["token"] for s in data["steps"])  # stray bytes as <E5 A5>, never U+FFFD
    assert any(s["token"].startswith("<") for s in data["steps"])


def test_encode_replay_of_lowest_gives_low_and_est(app):
    open_page(app, PAGE)
    tab(app, "replay")
    assert app.text_input(key="ms_replay_text").value == "lowest"
    body = html(app)
    assert "2 tokens, ids" in body
    final = body[body.rindex("merge <b>5</b>"):]
    assert ('class="ms-chip joined">low</span><span class="ms-chip final">est'
            '<span class="ms-wend">&lt;/w&gt;</span></span>') in final  # `</w>` as a marker
    model_ids = [t.id for t in train_and_encode("low_newest", "lowest")]
    assert f"ids {model_ids[0]}, {model_ids[1]}" in body


def train_and_encode(preset: str, text: str):
    from tokenizer_core import bpe_model

    return bpe_model(train_bpe(corpus_from_counts(load_preset(preset)), 10)).encode(text)


def test_gpt2_replay_of_tokenization_ends_in_tiktokens_ids(app):
    open_page(app, PAGE)
    tab(app, "replay")
    app.segmented_control(key="ms_replay_model").set_value("gpt2").run()
    app.text_input(key="ms_replay_text").set_value(" tokenization").run()
    expected = tiktoken_encoding("gpt2").encode_ordinary(" tokenization")
    assert expected == [11241, 1634]
    assert any(f"Ids {expected}" in s.value and "tiktoken" in s.value for s in app.success)
    body = html(app)
    assert "rank <b>11241</b>" in body and "rank <b>256</b>" in body  # real rank numbers, written as the ids they are
    app.text_input(key="ms_replay_text").set_value("你好").run()
    assert "&lt;E4 BD&gt;" in html(app)  # the bytes of 你, shown honestly


def test_merge_k_slider_retokenizes_with_the_first_k_merges(app):
    open_page(app, PAGE)
    tab(app, "replay")
    text = app.text_area(key="ms_prefix_text").value
    training = train_bpe(corpus_from_counts(load_preset("low_newest")), 10)
    for k in (0, 3, 10):
        app.slider(key="ms_prefix_k").set_value(k).run()
        expected = len(model_with_first(training, k).encode(text))
        assert app.metric[0].value == f"{expected:,}"


def test_bpe_vs_wordpiece_shows_the_first_difference(app):
    open_page(app, PAGE)
    tab(app, "versus")
    (warning,) = app.warning
    text = said(warning)
    assert "First difference at step 1" in text
    assert "('e','s')" in text and "('i','d')" in text
    assert "3 / (3 × 3)" in text
    table = app.dataframe[0].value
    assert list(table["BPE merges"][:2]) == ["('e','s')", "('es','t')"]


def test_likelihood_mode_tells_the_likelihoods_own_formula(app):
    """Issue 9, item 11. Worked by hand: low lower newest widest (5, 2, 6, 3), `</w>`-split, has
    N = 5*4 + 2*6 + 6*7 + 3*7 = 95 symbols; s, t and (s,t) each 9 (newest 6, widest 3), so the
    likelihood of (s,t) is 9 * ln(9 * 95 / (9 * 9)) = 21.21, the ratio's 9 / (9 * 9) is not."""
    open_page(app, PAGE)
    tab(app, "versus")
    app.segmented_control(key="ms_wp_score").set_value("likelihood").run()
    text = said(app.warning[0])
    assert "('s','t') scores 9 × ln(9 × 95 / (9 × 9)) = 21.21" in text
    assert "9 / (9 × 9)" not in text
    spec = json.loads(app.get("plotly_chart")[0].proto.spec)
    (title,) = [a["text"] for a in spec["layout"]["annotations"] if "WordPiece" in a["text"]]
    assert "ln(count(ab)" in title
    first_bar = spec["frames"][0]["data"][1]["text"][0]
    assert first_bar.startswith("9·ln(9·95/(9·9)) = 21.2")


def test_wordpiece_encoding_uses_hash_pieces_and_unk(app):
    open_page(app, PAGE)
    tab(app, "versus")
    app.text_area(key="ms_wp_vocab").set_value("[UNK]\nun\n##believ\n##able").run()
    app.text_input(key="ms_wp_text").set_value("unbelievable believable").run()
    body = html(app)
    assert ('unbelievable</span> → <span class="ms-parts"><span class="ms-chip final">un</span>'
            '<span class="ms-chip final">##believ</span><span class="ms-chip final">##able</span>') in body
    assert '<span class="ms-chip unk">[UNK]</span>' in body


def test_trained_wordpiece_encodes_the_corpus_words_and_says_why_a_word_is_unk(app):
    """Issue 9, item 13: the trained vocabulary starts on words of its own corpus (none [UNK]),
    and a word it cannot spell is [UNK] with the reason: low lower newest widest has no `q`."""
    open_page(app, PAGE)
    tab(app, "versus")
    app.segmented_control(key="ms_wp_which").set_value("trained").run()
    words = app.text_input(key="ms_wp_trained_text").value.split()
    assert words == list(load_preset("low_newest"))
    body = html(app)
    assert "[UNK]" not in body[body.index("ms-wp-word"):]
    app.text_input(key="ms_wp_trained_text").set_value("lowest quiet").run()
    body = html(app)
    assert "quiet</span> → <span class=\"ms-parts\"><span class=\"ms-chip unk\">[UNK]" in body
    assert "&#x27;q&#x27; never appears in the corpus, so no piece can spell it" in body
    app.segmented_control(key="ms_wp_which").set_value("classroom").run()
    assert app.text_input(key="ms_wp_text").value.startswith("unbelievable")  # each keeps its own


def test_a_vocabulary_without_unk_is_refused_kindly(app):
    open_page(app, PAGE)
    tab(app, "versus")
    app.text_area(key="ms_wp_vocab").set_value("un\n##able").run()
    assert any("[UNK]" in said(e) for e in app.error)
    assert app.text_area(key="ms_wp_vocab").value == "un\n##able"


def test_show_me_the_code_is_the_real_function(app):
    open_page(app, PAGE)
    tab(app, "code")
    shown = [c.value for c in app.code]
    assert inspect.getsource(textbook_function).strip() in [c.strip() for c in shown]


# --- bad input: a clear message, and nothing the user typed is lost -----------------------------


def test_empty_own_text_asks_for_a_corpus(app):
    open_page(app, PAGE)
    choose(app, "own")
    assert any("Type or paste a corpus" in i.value for i in app.info)
    assert not page_components(app)


def test_too_many_merges_says_the_bound_and_keeps_the_number(app):
    open_page(app, PAGE)
    app.number_input(key="ms_merges").set_value(MAX_MERGES + 1).run()
    assert any(f"bound of {MAX_MERGES:,}" in e.value for e in app.error)
    assert app.number_input(key="ms_merges").value == MAX_MERGES + 1
    assert not app.exception


def test_too_long_a_text_says_the_bound_and_keeps_the_text(app):
    open_page(app, PAGE)
    choose(app, "own")
    long_text = "word " * (MAX_CORPUS_CHARS // 5 + 10)
    app.text_area(key="ms_text").set_value(long_text).run()
    assert any(f"up to {MAX_CORPUS_CHARS:,}" in e.value for e in app.error)
    assert app.text_area(key="ms_text").value == long_text


@pytest.mark.parametrize("content, message", [
    (b"caf\xe9 au lait", "not UTF-8 text (byte 0xE9 at offset 3)"),
    (b"x" * 100_001, "bounded at 100,000 bytes"),
])
def test_a_bad_upload_keeps_the_text_and_says_why(app, content, message):
    open_page(app, PAGE)
    choose(app, "own")
    app.text_area(key="ms_text").set_value("my own corpus text").run()
    uploader(app, "ms_upload").set_value(("bad.txt", content, "text/plain")).run()
    assert any(message in said(e) for e in app.error)
    assert app.text_area(key="ms_text").value == "my own corpus text"


def test_a_good_upload_becomes_the_corpus(app):
    open_page(app, PAGE)
    choose(app, "own")
    uploader(app, "ms_upload").set_value(("c.txt", "low lower lowest".encode(), "text/plain")).run()
    assert app.text_area(key="ms_text").value == "low lower lowest"
    assert trace(app)["steps"][0]["pair"] == "('l','o')"


def test_own_text_trains_and_an_unseen_character_is_named_in_the_replay(app):
    open_page(app, PAGE)
    choose(app, "own")
    app.text_area(key="ms_text").set_value("abab abab cd").run()
    assert trace(app)["steps"][0]["narration"] == "('a','b') appears in abab (2×2): 4 times"
    tab(app, "replay")
    app.segmented_control(key="ms_replay_model").set_value("model").run()
    app.text_input(key="ms_replay_text").set_value("abz").run()
    assert any("'z'" in said(e) and "alphabet" in said(e) for e in app.error)
    assert app.text_input(key="ms_replay_text").value == "abz"


def test_user_text_stays_inert_in_messages_and_charts(app):
    """Markdown messages get the user's text literally; plotly labels get it escaped."""
    from ui.common.safe_text import literal

    open_page(app, PAGE)
    choose(app, "own")
    name = "![x](http://example.com/x.png).txt"
    uploader(app, "ms_upload").set_value((name, b"\xff\xfe", "text/plain")).run()
    assert any(literal(name) in e.value for e in app.error)  # no image, no link: the characters
    app.text_area(key="ms_text").set_value("<b>b</b> <b>b</b> <a>").run()
    tab(app, "versus")
    spec = json.loads(app.get("plotly_chart")[0].proto.spec)
    labels = [t for frame in spec["frames"] for axis in ("yaxis", "yaxis2")
              for t in frame["layout"][axis]["ticktext"]]
    assert labels and all("<" not in t for t in labels)
    assert any("&lt;" in t for t in labels)
