"""The Unigram page's charts, as pure functions: the lattice figure draws the model's own arcs
and Viterbi path with one frame per position (user text escaped), and the shrink figure has one
frame per training round showing that round's removals."""

from __future__ import annotations

import math

from tokenizer_core import corpus_from_text
from tokenizer_core.models.unigram import UnigramModel
from tokenizer_core.trainers.unigram import train_unigram
from ui.unigram.lattice import lattice_figure
from ui.unigram.limits import SHOWN_REMOVALS
from ui.unigram.shrink import shrink_figure

PIECES = [("<b>", -1.0), ("<", -3.0), ("b", -3.0), (">", -3.0), ("a", -2.0), ("ab", -2.5)]
MODEL = UnigramModel(PIECES)


def test_lattice_figure_draws_every_arc_and_the_path_escaped():
    text = "a<b>ab"
    trace, arcs = MODEL.viterbi(text), MODEL.lattice(text)
    fig = lattice_figure(text, arcs, trace)
    by_name = {t.name: i for i, t in enumerate(fig.data) if t.name}
    path_tops = fig.data[by_name["Viterbi path: labels"]]
    assert list(path_tops.x) == [(a + b) / 2 for a, b in trace.path]
    assert trace.pieces == ("a", "<b>", "ab")
    assert "&lt;b&gt;<br>-1.0" in path_tops.text and "<b><br>" not in "".join(path_tops.text)
    others = fig.data[by_name["other pieces: labels"]]
    assert len(others.x) + len(path_tops.x) == len(arcs)


def test_lattice_frames_fill_dp_one_position_at_a_time():
    text = "a<b>ab"
    trace = MODEL.viterbi(text)
    fig = lattice_figure(text, MODEL.lattice(text), trace)
    assert [f.name for f in fig.frames] == [str(i) for i in range(len(text) + 1)]
    dp_row = fig.data[len(fig.data) - 4]
    assert len(dp_row.text) == len(text) + 1 and dp_row.text[0] == "0.0"
    for i, frame in enumerate(fig.frames):
        candidates, chosen, cover = frame.data
        ending = [a for a in MODEL.lattice(text) if a.end == i]
        assert sum(x is None for x in candidates.x) == len(ending)  # one gap after each arc
        assert (sum(x is None for x in chosen.x) == 1) == (i > 0)
        assert (cover.x[0] == i + 0.45) if i < len(text) else not cover.x
        if i:
            start = trace.back[i]
            assert chosen.x[0] == start and math.isfinite(trace.dp[i])


def test_shrink_figure_has_a_frame_per_round_with_its_costliest_removals():
    corpus = corpus_from_text("low lower lowest newer newest wider widest " * 10, "word")
    training = train_unigram(corpus, 30, shrink_share=0.3)
    fig = shrink_figure(training)
    assert [f.name for f in fig.frames] == [str(r.round) for r in training.rounds]
    for frame, one in zip(fig.frames, training.rounds):
        bars = frame.data[1]
        costliest = sorted(one.removed, key=lambda x: (x.loss, x.piece))[-SHOWN_REMOVALS:]
        if any(x.loss > 0 for x in one.removed):
            assert list(bars.x) == [x.loss for x in costliest]
        else:  # nothing cost anything: no bars of 0.00, the words say why
            assert not bars.x
            assert "never" in frame.layout.annotations[3].text or not one.removed
        assert f"Round {one.round}:" in frame.layout.annotations[1].text
