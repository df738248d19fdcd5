"""The Unigram & SentencePiece page, driven by AppTest: training shows its rounds, the lattice
tab shows Viterbi's path, the dp table, n-best and a sampled cut for a typed word (equal to the
core's own answers), bad text says why, and the comparison tab shows the lesson's examples."""

from __future__ import annotations

import inspect
import json
import random
import re

from tokenizer_core import corpus_from_text
from tokenizer_core.lessons.viterbi_shortcut import lesson_viterbi
from tokenizer_core.models.unigram import UnigramModel, viterbi_textbook
from tokenizer_core.trainers.unigram import train_unigram
from ui.unigram.limits import MAX_LATTICE_CHARS
from ui.unigram.source import TABS, corpus_text

from .conftest import shown
from .test_query_params import open_link

PAGE = "pages/unigram.py"
SMALL = {"ug_corpus": "english", "ug_vocab": "300"}


def our_model(vocab: int = 300) -> UnigramModel:
    """The model the page trains, trained here by the core with the page's defaults."""
    return train_unigram(corpus_from_text(corpus_text("english"), "word"), vocab,
                         shrink_share=0.25).model()


def open_tab(app, tab: str, query: dict[str, str] | None = None):
    """Open the page from a link (a small corpus and vocabulary) on one tab."""
    open_link(app, PAGE, {**SMALL, "ug_tab": tab, **(query or {})})
    assert app.session_state["ug_tab"] == tab
    return app


def markdown(app) -> str:
    return "\n".join(shown(m.value) for m in app.markdown)


def test_page_trains_and_shows_every_round(app):
    open_tab(app, TABS[0])
    assert app.title[0].value == "Unigram & SentencePiece"
    rounds = app.dataframe[0].value
    training = train_unigram(corpus_from_text(corpus_text("english"), "word"), 300)
    assert list(rounds["pieces"]) == [r.vocab_size for r in training.rounds]
    assert rounds["pieces"].iloc[-1] == 300
    removed = app.dataframe[1].value
    assert len(removed) == sum(len(r.removed) for r in training.rounds)
    assert len(app.get("plotly_chart")) == 1


def test_lattice_for_a_typed_word_matches_viterbi_and_nbest(app):
    open_tab(app, TABS[1], {"ug_text": "lowest"})
    model = our_model()
    trace = model.viterbi("\u2581lowest")
    assert f"**Viterbi path:** {' · '.join(trace.pieces)}" in markdown(app)
    dp = app.dataframe[1].value
    assert list(dp["i"]) == list(range(len("\u2581lowest") + 1))
    assert dp["dp[i]"].iloc[-1] == round(trace.score, 3)
    nbest = app.dataframe[0].value
    assert list(nbest["segmentation"]) == [" · ".join(s.pieces)
                                           for s in model.nbest("\u2581lowest", 5)]
    assert nbest["log p"].is_monotonic_decreasing
    shown_code = [c.value.strip() for c in app.code]  # the real functions, not pasted copies
    assert inspect.getsource(viterbi_textbook).strip() in shown_code
    assert inspect.getsource(lesson_viterbi).strip() in shown_code


def test_sample_button_changes_the_seed_and_shows_the_cores_sample(app):
    open_tab(app, TABS[1], {"ug_text": "unbelievable", "ug_seed": "3", "ug_alpha": "0.1"})
    model = our_model()
    seen = set()
    for seed in (3, 4, 5, 6):
        drawn = model.sample("\u2581unbelievable", random.Random(seed), 0.1)
        text = markdown(app)
        assert f"**seed {seed}, alpha 0.1:** {' · '.join(drawn.pieces)}" in text
        seen.add(drawn.pieces)
        app.button(key="ug_sample").click().run()
    assert len(seen) > 1  # at alpha 0.1 the same word is cut differently


def test_unseen_character_shows_where_the_lessons_shortcut_breaks(app):
    open_tab(app, TABS[1], {"ug_text": "low\ua66e"})
    assert any("shortcut breaks" in w.value for w in app.warning)
    assert "lesson's dp[i] (0 = unset)" in app.dataframe[1].value.columns


def test_over_bound_and_empty_text_say_why(app):
    open_tab(app, TABS[1])
    app.text_input(key="ug_text").set_value("a" * (MAX_LATTICE_CHARS + 1)).run()
    assert any(f"up to {MAX_LATTICE_CHARS}" in e.value for e in app.error)
    assert not app.get("plotly_chart")
    app.text_input(key="ug_text").set_value("   ").run()
    assert any("Type a word" in i.value for i in app.info)


def test_vocab_over_the_bound_says_why(app):
    open_link(app, PAGE, {"ug_corpus": "english"})
    app.number_input(key="ug_vocab").set_value(99_999).run()
    assert any("over this page's bound" in e.value for e in app.error)


def test_comparison_shows_the_lessons_examples_and_wordpiece_example(app):
    open_tab(app, TABS[2], {"ug_word": "lowering"})
    cuts, table = [h.proto.body for h in app.get("html")][:2]
    rows = re.findall(r"<tr><td><b>(.*?)</b>(.*?)</tr>", cuts)
    assert [text for text, _ in rows][:2] == ["unbelievable", "lowest"]
    assert rows[-1][0] == "lowering"
    heads = re.findall(r"<th>(.*?)</th>", cuts)
    for name in ("SentencePiece Unigram", "SentencePiece BPE"):
        column = heads.index(name) - 1
        for _, cells in rows:  # exact round trip on every example, ▁ shown as the lesson shows it
            cell = re.findall(r"<td>(.*?)</td>", cells)[column]
            assert 'class="ok"' in cell
        assert "\u2581" in re.findall(r"<td>(.*?)</td>", rows[0][1])[column]
    lines = {cells[0]: cells for cells in
             (re.findall(r"<td>(.*?)</td>", r) for r in re.findall(r"<tr>(<td>.*?)</tr>", table))}
    assert lines["BPE"][3].startswith("&lt;/w&gt; ends a word")
    assert lines["WordPiece"][3].startswith("## continues a word")
    assert lines["Unigram (ours)"][3].startswith("▁ starts a word")
    assert lines["SentencePiece Unigram"][2].endswith("decode restores every space exactly")
    assert "**un ##believ ##able**" in markdown(app)


def test_a_bad_link_value_gives_the_default_and_a_note(app):
    open_link(app, PAGE, {"ug_vocab": "99999999", "ug_share": "0.9", "ug_corpus": "english"})
    notes = "\n".join(shown(c.value) for c in app.caption if "This link's" in c.value)
    assert "ug_vocab" in notes and "ug_share" in notes
    assert app.number_input(key="ug_vocab").value == 800
    assert app.session_state["ug_share"] == 0.25


def test_the_seed_count_and_the_round_table_agree_and_say_what_they_count(app):
    open_tab(app, TABS[0])
    caption = next(shown(c.value) for c in app.caption if "Our Unigram" in shown(c.value))
    start = int(re.search(r"([\d,]+) pieces to start", caption).group(1).replace(",", ""))
    rounds = app.dataframe[0].value
    assert start == rounds["pieces"].iloc[0]  # the caption's first size is round 0's
    seeds = int(re.search(r"([\d,]+) seed pieces and <unk>", caption).group(1).replace(",", ""))
    assert seeds + 1 == start  # the seed, and <unk> on top: named, not an off-by-one


def test_the_shrink_figure_opens_on_a_round_whose_removals_cost_something(app):
    # the page's default corpus and size: its first rounds prune only unused pieces (loss 0)
    open_link(app, PAGE, {"ug_tab": TABS[0]})
    training = train_unigram(corpus_from_text(corpus_text("samples"), "word"), 800,
                             shrink_share=0.25)
    assert all(x.loss == 0 for x in training.rounds[0].removed)  # why the audit saw 0.00
    spec = json.loads(app.get("plotly_chart")[0].proto.spec)
    bars = next(t for t in spec["data"] if t["type"] == "bar")
    assert bars["x"] and max(bars["x"]) > 0
    opened = spec["layout"]["sliders"][0]["active"]
    assert any(x.loss > 0 for x in training.rounds[opened].removed)
    assert all(x.loss == 0 for r in training.rounds[:opened] for x in r.removed)


def test_the_default_word_shows_a_choice_between_a_few_pieces(app):
    # at the page's default settings: a few pieces, and close runners-up to choose between
    open_link(app, PAGE, {"ug_tab": TABS[1]})
    word = app.text_input(key="ug_text").value
    model = train_unigram(corpus_from_text(corpus_text("samples"), "word"), 800,
                          shrink_share=0.25).model()
    nbest = model.nbest("\u2581" + word, 5)
    assert 2 <= len(nbest[0].pieces) <= 4, nbest[0].pieces
    assert len(nbest) == 5
    close = [s for s in nbest[1:] if nbest[0].score - s.score < 3.0]
    assert len(close) >= 2  # two other cuts within 3 nats: Viterbi really chooses
    assert f"**Viterbi path:** {' · '.join(nbest[0].pieces)}" in markdown(app)
