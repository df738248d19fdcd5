"""BPE vs WordPiece on the Merge steps page: both rules on the same words, stepped together, and
WordPiece's greedy longest-match encoding with `##` pieces and `[UNK]`.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import render_tokens
from tokenizer_core.lessons.narration import pair_text, why_wordpiece
from tokenizer_core.lessons.wordpiece_replay import MatchTrace, match_trace, why_unknown
from tokenizer_core.models.wordpiece import WordPieceTokenizer, bert_pieces
from tokenizer_core.render import escape
from tokenizer_core.trainers.wordpiece import bert_word_counts
from ui.common.i18n import N_, _, explain, ngettext, number
from ui.common.i18n import say as in_language  # the core's Say (words.say reads Phrases)
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.common.table_view import Mark, show_table
from ui.common.token_view import render_options
from ui.merge_steps import data as data
from ui.merge_steps.charts import race_figure
from ui.merge_steps.limits import MAX_COMPARE_MERGES, MAX_WORDPIECE_TEXT_CHARS, MAX_WORDPIECE_VOCAB
from ui.merge_steps.replay import LADDER_CSS
from ui.merge_steps.source import Source
from ui.merge_steps.tables import RACE_HEADERS, SAME, headed, race_candidates_frame, race_frame
from ui.merge_steps.words import joined, say

SCORE_LABELS = {"ratio": "count(ab) / (count(a)·count(b))", "likelihood": N_("likelihood gain")}
# What each score is, said as its formula (the likelihood form divides nothing by how common).
SCORE_INTROS = {
    "ratio": N_("WordPiece scores a pair count(ab) / (count(a)·count(b)), so rare parts that "
                "always go together win."),
    "likelihood": N_("WordPiece scores a pair by the likelihood it adds to the corpus, "
                     "count(ab)·ln(P(ab) / (P(a)·P(b))) with P(x) = count(x) / N, N the symbols "
                     "in the corpus; its usual teaching form is count(ab) / (count(a)·count(b))."),
}


def _highlight_difference(frame: pd.DataFrame, first: int | None) -> tuple[pd.DataFrame, dict[int, Mark]]:
    """The race table for the screen: headers and same/differs in the session's language, the
    first difference marked and every other difference marked softly."""
    marks: dict[int, Mark] = {}
    for i, (step, same) in enumerate(zip(frame["step"], frame["same?"])):
        if first is not None and step == first + 1:
            marks[i] = "mark"
        elif same == "differs":
            marks[i] = "soft"
    shown = headed(frame.assign(**{"same?": [_(SAME[v]) for v in frame["same?"]]}), RACE_HEADERS)
    return shown, marks


def race_ui(source: Source, big: bool) -> None:
    """Both rules trained on the word level of the corpus; one slider steps both charts."""
    score = st.segmented_control(
        _("WordPiece score"), ("ratio", "likelihood"), key="ms_wp_score", required=True,
        persist_state=KEEP, format_func=lambda v: _(SCORE_LABELS[v]),
        help=_("ratio: count(ab) / (count(a)·count(b)), the usual teaching form. likelihood: "
               "count(ab)·ln(P(ab) / (P(a)·P(b)))."),
    )
    merges = min(source.merges, MAX_COMPARE_MERGES)
    try:
        with st.spinner(_("Training both…")):
            view = data.race_of(source.key, source.level, merges, source.tie_break, score,
                                source.raw)
    except ValueError as error:
        st.error(_("BPE and WordPiece cannot be compared on this corpus: {reason}",
                   reason=literal(explain(error))), icon="⚠️")
        return
    if source.level == "word":
        same = _("Both rules see the same words, split into characters with </w>, and join the "
                 "same symbols; only the choice differs. BPE takes the most frequent pair.")
    else:
        same = _("Both rules see the same words (this corpus at the word level), split into "
                 "characters with </w>, and join the same symbols; only the choice differs. BPE "
                 "takes the most frequent pair.")
    parts = [same, _(SCORE_INTROS[score])]
    if merges < source.merges:
        parts.append(_("Shown: the first {shown} of {asked} steps.", shown=number(merges),
                       asked=number(source.merges)))
    st.caption(joined(parts))
    first = view.first_difference
    if not view.choices:
        st.info(_("No pair to merge in this corpus: every word is a single symbol."), icon="ℹ️")
        return
    if first is None:
        st.info(ngettext("Over this step both rules merge the same pair.",
                         "Over these {n} steps both rules merge the same pairs.",
                         len(view.choices)), icon="🤝")
    else:
        bpe, wp = view.bpe.steps[first], view.wordpiece.steps[first]
        why = say(why_wordpiece(wp.pair, wp.score, wp.count, wp.count_a, wp.count_b,
                                view.wordpiece.score, wp.total))
        st.warning(
            _("**First difference at step {step}.** BPE merges {bpe}, the most frequent pair "
              "({count} times). WordPiece merges {wordpiece}: {why}", step=number(first + 1),
              bpe=literal(pair_text(bpe.pair)), count=number(bpe.count),
              wordpiece=literal(pair_text(wp.pair)), why=literal(why)),
            icon="🚩",
        )
    st.plotly_chart(race_figure(race_candidates_frame(view), first, view.wordpiece.score, big),
                    key="ms_race_chart")
    st.caption(_("Drag the slider or press ▶ under the chart: both rankings step together. "
                 "Hover a bar for count(ab), count(a) and count(b)."))
    shown, marks = _highlight_difference(race_frame(view), first)
    show_table(shown, marks=marks, height=min(420, 38 + 35 * len(view.choices)),
               column_config={_("score"): st.column_config.NumberColumn(format="%.4f")})


def _piece_chip(piece: str, unknown: bool) -> str:
    return f'<span class="ms-chip{" unk" if unknown else " final"}">{escape(piece)}</span>'


def _trace_html(trace: MatchTrace, reason: str | None) -> str:
    """One word: its pieces as chips, then the greedy search, a line per position, and why the
    word is [UNK] when it is (all escaped)."""
    lines = []
    for step in trace.steps:  # plain text first, escaped once
        tried = ", ".join(step.tried[:-1])
        more = (_(" … ({n} more)", n=number(step.tries - len(step.tried)))
                if step.tries > len(step.tried) else "")
        at = escape(_("at {start}:", start=step.start))
        if step.match is not None:
            head = f"{at} <b>{escape(step.match)}</b>"
            rest = escape(_(", after trying {tried}{more}", tried=tried, more=more)
                          if step.tries > 1 else _(", the first try"))
        else:
            none = _("no piece fits")
            head = f"{at} <b>{escape(none)}</b>"
            rest = escape(_(" (tried {tried}{more}), so the whole word is [UNK]",
                            tried=", ".join(step.tried), more=more))
        lines.append(f"<li>{head}{rest}</li>")
    if reason:
        why = _("Why [UNK]: {reason}.", reason=reason)
        lines.append(f'<li class="ms-why-unk">{escape(why)}</li>')
    chips = "".join(_piece_chip(p, trace.unknown) for p in trace.pieces)
    return (f'<div class="ms-wp-word"><span class="ms-wp-head">{escape(trace.word)}</span> → '
            f'<span class="ms-parts">{chips}</span>'
            f'<ul class="ms-wp-search">{"".join(lines)}</ul></div>')


def _vocab_from_text(text: str) -> WordPieceTokenizer:
    pieces = [line.strip() for line in text.splitlines() if line.strip()]
    if len(pieces) > MAX_WORDPIECE_VOCAB:
        raise ValueError(_("the vocabulary has {pieces} pieces; the bound here is {bound}",
                           pieces=number(len(pieces)), bound=number(MAX_WORDPIECE_VOCAB)))
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
    return st.text_input(_("Words to encode"), key=key, persist_state=KEEP,
                         help=_("Up to {n} characters.", n=number(MAX_WORDPIECE_TEXT_CHARS)))


def wordpiece_ui(source: Source, big: bool) -> None:
    """Encode words with a WordPiece vocabulary: ## continuations, and [UNK] when nothing fits."""
    which = st.segmented_control(
        _("Vocabulary"), ("classroom", "trained"), key="ms_wp_which", required=True,
        persist_state=KEEP,
        format_func=lambda v: _("write your own") if v == "classroom" else _("trained on this corpus"),
    )
    left, right = st.columns([1, 2])
    try:
        if which == "trained":
            merges = min(source.merges, MAX_COMPARE_MERGES)
            with st.spinner(_("Training WordPiece…")):
                tokenizer = data.wordpiece_of(source.key, merges, source.raw)
            left.caption(_("WordPiece with its own ## split, {merges} merges on the words of this "
                           "corpus: {pieces} pieces.", merges=number(len(tokenizer.merges)),
                           pieces=number(tokenizer.vocab_size)))
            left.dataframe(pd.DataFrame({_("piece"): tokenizer.vocab}), height=260, hide_index=True)
        else:
            vocab = left.text_area(_("One piece per line"), key="ms_wp_vocab", height=260,
                                   persist_state=KEEP,
                                   help=_("A piece that continues a word starts with ##. [UNK] "
                                          "must be in the list."))
            tokenizer = _vocab_from_text(vocab)
    except ValueError as error:
        left.error(_("This vocabulary cannot be used: {reason}", reason=literal(explain(error))),
                   icon="⚠️")
        return
    with right:
        trained = which == "trained"
        text = _words_ui(source, trained)
        if not text.strip():
            st.info(_("Type a few words to encode."), icon="✍️")
            return
        if len(text) > MAX_WORDPIECE_TEXT_CHARS:
            st.error(_("Up to {bound} characters here; this text has {chars}. Shorten it (your "
                       "text is kept).", bound=number(MAX_WORDPIECE_TEXT_CHARS),
                       chars=number(len(text))), icon="⚠️")
            return
        tokens = tokenizer.encode(text, disallowed_special=())
        st.html(render_tokens(text, tokens, render_options(big=big, contrast=big)))
        parts = [ngettext("{n} token.", "{n} tokens.", len(tokens)),
                 _("Greedy longest match first: at each position take the longest piece in the "
                   "vocabulary (## after the first); if none fits, the whole word becomes [UNK].")]
        if trained:
            parts.append(_("This vocabulary holds every character of the corpus: try a word with "
                           "a letter the corpus never uses."))
        st.caption(joined(parts))
        words = list(dict.fromkeys(p.text for p in bert_pieces(text)))[:12]
        traces = [match_trace(tokenizer, w) for w in words]
        body = "".join(_trace_html(t, why_unknown(tokenizer, t, corpus=trained,
                                                       say=in_language)) for t in traces)
        size = "ms-big" if big else ""
        st.html(f'<style>{LADDER_CSS}</style><div class="{size}">{body}</div>')
