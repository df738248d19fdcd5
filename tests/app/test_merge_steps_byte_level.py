"""Merge steps at the byte level and its numbers (issue 23, item 9): the merges table keeps the
leading space (as `·`, the token views' mark), a lesson written for `</w>` words says what
changes at the byte level, the likelihood score is named by its formula, and ids have no
thousands separators.
"""

from __future__ import annotations

import re

from tests.shared import html_frames, tiktoken_encoding
from tokenizer_core import corpus_from_text, train_bpe
from tokenizer_core.samples import sample_text

from .conftest import open_page
from .test_merge_steps import PAGE, choose, html, tab


def test_the_merges_table_shows_the_leading_space(app):
    open_page(app, PAGE)
    choose(app, "sample:english")
    training = train_bpe(corpus_from_text(sample_text("english"), "byte"), 60)
    spaced = [s.rank + 1 for s in training.steps if s.new_token.startswith(b" ")]
    assert spaced  # GPT-2's chunks keep the space before a word
    table = html_frames(app)[0].set_index("merge")  # drawn as HTML (a light first visit)
    for merge in spaced:
        token = next(s.new_token for s in training.steps if s.rank + 1 == merge)
        assert table.loc[f"{merge:,}", "new token"] == "·" + token[1:].decode("utf-8", "replace")


def test_a_word_level_lesson_at_the_byte_level_has_no_end_of_word_hint(app):
    open_page(app, PAGE)
    assert any("est</w>" in c.value for c in app.caption)  # the lesson at its own (word) level
    app.segmented_control(key="ms_level").set_value("byte").run()
    hints = [c.value for c in app.caption if c.value.startswith("💡")]
    assert hints and not any("est</w>" in h for h in hints)
    assert any("no </w>" in h and "byte level" in h for h in hints)


def test_likelihood_mode_says_its_own_score(app):
    open_page(app, PAGE)
    tab(app, "versus")
    app.segmented_control(key="ms_wp_score").set_value("likelihood").run()
    intro = next(c.value for c in app.caption if c.value.startswith("Both rules see"))
    assert "divides by how common" not in intro
    assert "ln(P(ab) / (P(a)·P(b)))" in intro
    app.segmented_control(key="ms_wp_score").set_value("ratio").run()
    intro = next(c.value for c in app.caption if c.value.startswith("Both rules see"))
    assert "count(ab) / (count(a)·count(b))" in intro


def test_replay_ids_have_no_thousands_separator(app):
    open_page(app, PAGE)
    tab(app, "replay")
    app.segmented_control(key="ms_replay_model").set_value("gpt2").run()
    app.text_input(key="ms_replay_text").set_value(" lowest").run()
    expected = tiktoken_encoding("gpt2").encode_ordinary(" lowest")
    assert max(expected) >= 1000  # an id a separator would have cut
    (written,) = re.findall(r"ids ([0-9, ]+) ·", html(app))
    assert written == ", ".join(str(i) for i in expected)
    assert not re.search(r"<b>\d{1,3},\d{3}</b>", html(app))  # ranks are ids too
