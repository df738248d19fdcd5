"""BPE vs WordPiece on the Merge steps page: both rules on the same words, stepped together, and
WordPiece's greedy longest-match encoding with `##` pieces and `[UNK]`.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import RenderOptions, render_tokens
from tokenizer_core.lessons.narration import pair_text, why_wordpiece
from tokenizer_core.lessons.wordpiece_replay import MatchTrace, match_trace, why_unknown
from tokenizer_core.models.wordpiece import WordPieceTokenizer, bert_pieces
from tokenizer_core.render import escape
from tokenizer_core.trainers.wordpiece import bert_word_counts
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.merge_steps import data as data
from ui.merge_steps.charts import race_figure
from ui.merge_steps.limits import MAX_COMPARE_MERGES, MAX_WORDPIECE_TEXT_CHARS, MAX_WORDPIECE_VOCAB
from ui.merge_steps.replay import LADDER_CSS
from ui.merge_steps.source import Source
from ui.merge_steps.tables import race_candidates_frame, race_frame

SCORE_LABELS = {"ratio": "count(ab) / (count(a)·count(b))", "likelihood": "likelihood gain"}


def _highlight_difference(frame: pd.DataFrame, first: int | None):
    def style(row: pd.Series) -> list[str]:
        if first is not None and row["step"] == first + 1:
            return ["background-color: #ffe08a; font-weight: 700; color: #111"] * len(row)
        if row["same?"] == "differs":
            return ["background-color: #fff6d6; color: #111"] * len(row)
        return [""] * len(row)

    return frame.style.apply(style, axis=1).format({"score": "{:.4f}"}, na_rep="")


def race_ui(source: Source, big: bool) -> None:
    """Both rules trained on the word level of the corpus; one slider steps both charts."""
    score = st.segmented_control(
        "WordPiece score", ("ratio", "likelihood"), key="ms_wp_score", required=True, persist_state=KEEP,
        format_func=SCORE_LABELS.get,
        help="ratio: count(ab) / (count(a)·count(b)), the usual teaching form. likelihood: "
        "count(ab)·ln(P(ab) / (P(a)·P(b))).",
    )
    merges = min(source.merges, MAX_COMPARE_MERGES)
    try:
        view = data.race_of(source.key, source.level, merges, source.tie_break, score, source.raw)
    except ValueError as error:
        st.error(f"BPE and WordPiece cannot be compared on this corpus: {literal(str(error))}",
                 icon="⚠️")
        return
    note = "" if source.level == "word" else " (this corpus at the word level)"
    st.caption(
        f"Both rules see the same words{note}, split into characters with </w>, and join the "
        f"same symbols; only the choice differs. BPE takes the most frequent pair; WordPiece "
        f"divides by how common the parts already are, so rare parts that always go together win."
        + (f" Shown: the first {merges} of {source.merges} steps."
           if merges < source.merges else "")
    )
    first = view.first_difference
    if not view.choices:
        st.info("No pair to merge in this corpus: every word is a single symbol.", icon="ℹ️")
        return
    if first is None:
        st.info(f"Over these {len(view.choices)} steps both rules merge the same pairs.",
                icon="🤝")
    else:
        bpe, wp = view.bpe.steps[first], view.wordpiece.steps[first]
        st.warning(
            f"**First difference at step {first + 1}.** BPE merges {literal(pair_text(bpe.pair))}, "
            f"the most frequent pair ({bpe.count:,} times). WordPiece merges "
            f"{literal(pair_text(wp.pair))}: "
            + literal(why_wordpiece(wp.pair, wp.score, wp.count, wp.count_a, wp.count_b,
                                    view.wordpiece.score, wp.total)),
            icon="🚩",
        )
    st.plotly_chart(race_figure(race_candidates_frame(view), first, view.wordpiece.score, big),
                    key="ms_race_chart")
    st.caption("Drag the slider or press ▶ under the chart: both rankings step together. Hover a "
               "bar for count(ab), count(a) and count(b).")
    st.dataframe(_highlight_difference(race_frame(view), first), hide_index=True,
                 width="stretch", height=min(420, 38 + 35 * len(view.choices)))


def _piece_chip(piece: str, unknown: bool) -> str:
    return f'<span class="ms-chip{" unk" if unknown else " final"}">{escape(piece)}</span>'


def _trace_html(trace: MatchTrace, reason: str | None) -> str:
    """One word: its pieces as chips, then the greedy search, a line per position, and why the
    word is [UNK] when it is (all escaped)."""
    lines = []
    for step in trace.steps:
        tried = ", ".join(escape(t) for t in step.tried[:-1])
        more = f" … ({step.tries - len(step.tried)} more)" if step.tries > len(step.tried) else ""
        if step.match is not None:
            head = f"at {step.start}: <b>{escape(step.match)}</b>"
            rest = f", after trying {tried}{more}" if step.tries > 1 else ", the first try"
        else:
            head = f"at {step.start}: <b>no piece fits</b>"
            rest = f" (tried {escape(', '.join(step.tried))}{more}), so the whole word is [UNK]"
        lines.append(f"<li>{head}{rest}</li>")
    if reason:
        lines.append(f'<li class="ms-why-unk">Why [UNK]: {escape(reason)}.</li>')
    chips = "".join(_piece_chip(p, trace.unknown) for p in trace.pieces)
    return (f'<div class="ms-wp-word"><span class="ms-wp-head">{escape(trace.word)}</span> → '
            f'<span class="ms-parts">{chips}</span>'
            f'<ul class="ms-wp-search">{"".join(lines)}</ul></div>')


def _vocab_from_text(text: str) -> WordPieceTokenizer:
    pieces = [line.strip() for line in text.splitlines() if line.strip()]
    if len(pieces) > MAX_WORDPIECE_VOCAB:
        raise ValueError(f"the vocabulary has {len(pieces):,} pieces; the bound here is "
                         f"{MAX_WORDPIECE_VOCAB:,}")
    return WordPieceTokenizer.from_vocab(pieces, name="classroom vocabulary")


CORPUS_WORDS = 8  # words of the corpus the trained vocabulary starts on


def corpus_words(source: Source) -> str:
    """The first few words of the corpus, cut as WordPiece cuts them (punctuation apart), those
    with a letter or digit first: every one is spelled by a vocabulary trained on the corpus."""
    words = list(source.raw) if source.text is None else list(bert_word_counts(source.text))
    wordy = [w for w in words if any(c.isalnum() for c in w)] or words
    shown: list[str] = []
    for word in wordy[:CORPUS_WORDS]:
        if len(" ".join([*shown, word])) > MAX_WORDPIECE_TEXT_CHARS:
            break
        shown.append(word)
    return " ".join(shown)


def _words_ui(source: Source, trained: bool) -> str:
    """The words to encode; each vocabulary keeps its own. The trained one starts on words of the
    corpus (again when the corpus changes), the hand-written one on the classroom's words."""
    key = "ms_wp_trained_text" if trained else "ms_wp_text"
    if trained and st.session_state.get("ms_wp_trained_for") != source.key:
        st.session_state["ms_wp_trained_for"] = source.key
        st.session_state[key] = corpus_words(source)
    return st.text_input("Words to encode", key=key, persist_state=KEEP,
                         help=f"Up to {MAX_WORDPIECE_TEXT_CHARS} characters.")


def wordpiece_ui(source: Source, big: bool) -> None:
    """Encode words with a WordPiece vocabulary: ## continuations, and [UNK] when nothing fits."""
    which = st.segmented_control(
        "Vocabulary", ("classroom", "trained"), key="ms_wp_which", required=True, persist_state=KEEP,
        format_func={"classroom": "write your own", "trained": "trained on this corpus"}.get,
    )
    left, right = st.columns([1, 2])
    try:
        if which == "trained":
            merges = min(source.merges, MAX_COMPARE_MERGES)
            tokenizer = data.wordpiece_of(source.key, merges, source.raw)
            left.caption(f"WordPiece with its own ## split, {len(tokenizer.merges)} merges on the "
                         f"words of this corpus: {tokenizer.vocab_size:,} pieces.")
            left.dataframe(pd.DataFrame({"piece": tokenizer.vocab}), height=260, hide_index=True)
        else:
            vocab = left.text_area("One piece per line", key="ms_wp_vocab", height=260, persist_state=KEEP,
                                   help="A piece that continues a word starts with ##. "
                                   "[UNK] must be in the list.")
            tokenizer = _vocab_from_text(vocab)
    except ValueError as error:
        left.error(f"This vocabulary cannot be used: {literal(str(error))}", icon="⚠️")
        return
    with right:
        trained = which == "trained"
        text = _words_ui(source, trained)
        if not text.strip():
            st.info("Type a few words to encode.", icon="✍️")
            return
        if len(text) > MAX_WORDPIECE_TEXT_CHARS:
            st.error(f"Up to {MAX_WORDPIECE_TEXT_CHARS} characters here; this text has "
                     f"{len(text):,}. Shorten it (your text is kept).", icon="⚠️")
            return
        tokens = tokenizer.encode(text, disallowed_special=())
        st.html(render_tokens(text, tokens, RenderOptions(big=big, contrast=big)))
        st.caption(f"{len(tokens)} tokens. Greedy longest match first: at each position take the "
                   "longest piece in the vocabulary (## after the first); if none fits, the whole "
                   "word becomes [UNK]."
                   + (" This vocabulary holds every character of the corpus: try a word with a "
                      "letter the corpus never uses." if trained else ""))
        words = list(dict.fromkeys(p.text for p in bert_pieces(text)))[:12]
        traces = [match_trace(tokenizer, w) for w in words]
        body = "".join(_trace_html(t, why_unknown(tokenizer, t, corpus=trained)) for t in traces)
        size = "ms-big" if big else ""
        st.html(f'<style>{LADDER_CSS}</style><div class="{size}">{body}</div>')
