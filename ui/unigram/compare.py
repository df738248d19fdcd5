"""The four tokenizers side by side: how each cuts the lesson's examples (and your word), and
the lesson's comparison table, every cell probed from the trained tokenizers
(tokenizer_core/lessons/four_way.py) rather than typed.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.interface import Tokenizer
from tokenizer_core.lessons.four_way import EXAMPLES, Cut, Row, compare_row, cut
from tokenizer_core.models.unigram import UNK_TOKEN
from tokenizer_core.models.wordpiece import UNK_TOKEN as WORDPIECE_UNK
from tokenizer_core.models.wordpiece import WordPieceTokenizer
from tokenizer_core.render import escape
from ui.common.i18n import _, current_language, explain, number, say
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.unigram import data
from ui.unigram.limits import MAX_COMPARE_CHARS
from ui.unigram.source import Settings

# The lesson's WordPiece vocabulary ([UNK] added: an encoder needs one for what it cannot spell)
UNKNOWN = {UNK_TOKEN, WORDPIECE_UNK}
LESSON_VOCAB = ["play", "##ing", "##ed", "un", "##believ", "##able"]


COMPARE_CSS = """
.ugcmp {border-collapse: collapse; width: 100%; font-size: 0.92rem; table-layout: fixed}
.ugcmp th, .ugcmp td {border: 1px solid #dde1e8; padding: 6px 8px; vertical-align: top;
  text-align: left; overflow-wrap: anywhere}
.ugcmp th {background: #f4f5f8; font-weight: 600}
.ugcmp .ugp {display: inline-block; margin: 1px 2px; padding: 0 4px; border-radius: 4px;
  background: #e8eefb; border: 1px solid #c5d2ee; font-family: monospace; white-space: pre}
.ugcmp .ugp.unk {background: #fde2e1; border-color: #f1a9a5}
.ugcmp .ok {color: #1b7f3b; font-weight: 700} .ugcmp .bad {color: #b3261e; font-weight: 700}
.ugcmp .refused {color: #b3261e}
"""


def _cell(result: Cut) -> str:
    """One cut as HTML: each piece a chip, then ✔ or ✘ for the round trip; every text escaped."""
    if result.error:
        refused = _("⛔ refused (hover: why)")
        return f'<span class="refused" title="{escape(result.error)}">{escape(refused)}</span>'
    chips = "".join(f'<span class="ugp{" unk" if p in UNKNOWN else ""}">{escape(p)}</span>'
                    for p in result.pieces)
    if result.round_trip:
        return f'{chips} <span class="ok" title="decode(encode(x)) == x">✔</span>'
    return (f'{chips} <span class="bad" title="decode gives {escape(repr(result.decoded))}">'
            "✘</span>")


def cuts_html(tokenizers: dict[str, Tokenizer], examples: list[tuple[str, str]]) -> str:
    """Rows: the examples; columns: the tokenizers; cells: the pieces and the round trip."""
    head = "".join(f"<th>{escape(name)}</th>" for name in tokenizers)
    rows = []
    for text, what in examples:
        cells = "".join(f"<td>{_cell(cut(t, text))}</td>" for t in tokenizers.values())
        rows.append(f"<tr><td><b>{escape(text)}</b><br><small>{escape(what)}</small></td>"
                    f"{cells}</tr>")
    text_head = escape(_("text"))
    return (f'<table class="ugcmp"><thead><tr><th>{text_head}</th>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def frame_html(frame: pd.DataFrame) -> str:
    """A small table of plain strings as wrapping HTML (every cell escaped)."""
    head = "".join(f"<th>{escape(str(c))}</th>" for c in frame.columns)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in row) + "</tr>"
                   for row in frame.itertuples(index=False))
    return f'<table class="ugcmp"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def table_frame(rows: list[Row]) -> pd.DataFrame:
    """The lesson's comparison table, one row per tokenizer, from the probes."""
    return pd.DataFrame({
        _("tokenizer"): [r.name for r in rows],
        _("how the vocabulary is chosen"): [r.criterion for r in rows],
        _("spaces"): [r.spaces.describe(say) for r in rows],
        _("subword marker"): [r.said_marker_meaning(say) + (
            _(" ({n} pieces)", n=number(r.marker_pieces)) if r.marker_pieces else "")
            for r in rows],
        _("a character never seen (ꙮ)"): [r.unseen for r in rows],
        "decode(encode(x)) == x": [_("{passed} of {n} examples", passed=number(r.round_trips),
                                     n=number(r.examples)) for r in rows],
    })


@st.cache_resource(max_entries=16, show_spinner=False)
def comparison(corpus: str, vocab_size: int, shrink_share: float, word: str,
               lang: str) -> tuple[str, pd.DataFrame, tuple[str, str]]:
    tokenizers = data.contenders(corpus, vocab_size, shrink_share)
    examples = [(text, _(what)) for text, what in EXAMPLES] + (
        [(word, _("your word"))] if word else [])
    known = data.known_words(corpus)
    rows = [compare_row(name, t, [text for text, _what in examples], known, say)
            for name, t in tokenizers.items()]
    return cuts_html(tokenizers, examples), table_frame(rows), known


def compare_ui(settings: Settings) -> None:
    st.text_input(_("Your own word (or short text)"), key="ug_word", persist_state=KEEP,
                  help=_("Up to {n} characters, cut by all five beside the lesson's examples.",
                         n=number(MAX_COMPARE_CHARS)))
    word = str(st.session_state.get("ug_word", "")).strip()
    if len(word) > MAX_COMPARE_CHARS:
        st.error(_("Your word has {chars} characters; this table takes up to {bound}. Shorten "
                   "it: your text is kept.", chars=number(len(word)),
                   bound=number(MAX_COMPARE_CHARS)), icon="⚠️")
        word = ""
    try:
        with st.spinner(_("Training BPE, WordPiece and SentencePiece…")):
            cuts, table, known = comparison(settings.corpus, settings.vocab_size,
                                            settings.shrink_share, word, current_language())
    except ValueError as error:
        st.error(_("These tokenizers cannot be trained: {reason}",
                   reason=literal(explain(error))), icon="⚠️")
        return
    st.subheader(_("How each cuts the same text"))
    st.caption(_("All trained on the same corpus at about the same vocabulary size "
                 "(SentencePiece gets its 256 byte pieces and 5 specials on top). ✔: "
                 "decode(encode(x)) == x, checked now; ✘: decoding gives something else back. "
                 "Pieces as each model holds them: `</w>` ends a BPE word, `##` continues a "
                 "WordPiece word, `▁` is a space."))
    st.html(f"<style>{COMPARE_CSS}</style>{cuts}")
    st.subheader(_("The lesson's comparison table, probed"))
    st.caption(_("Every cell but the first is measured on the trained tokenizers: the marker "
                 "from their vocabularies, spaces by encoding “{a} {b}” and “ {a}  {b}” and "
                 "decoding, the unseen character by encoding it, reversibility on the examples "
                 "above. The first column is read from what training made (a vocabulary does "
                 "not say how it was chosen).", a=known[0], b=known[1]))
    st.html(frame_html(table))
    st.subheader(_("The lesson's WordPiece vocabulary"))
    lesson = WordPieceTokenizer.from_vocab(["[UNK]", *LESSON_VOCAB], name="lesson WordPiece")
    pieces = cut(lesson, "unbelievable").pieces
    st.markdown(_("Vocabulary `{vocab}` (plus `[UNK]`) encodes **unbelievable** as "
                  "**{pieces}**: greedy longest match first, `##` marking pieces that continue "
                  "a word.", vocab=LESSON_VOCAB, pieces=literal(" ".join(pieces))))
