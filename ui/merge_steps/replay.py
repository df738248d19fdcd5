"""Encode replay on the Merge steps page: the ladder of rules that turns a word into tokens, for
this page's model and for GPT-2's real ranks, and the merge-k slider with its token-count curve.

The ladders are HTML built here from symbols that all pass through `render.escape` (the one
escaping road); token views use `render_tokens`.
"""

from __future__ import annotations

import streamlit as st

from tokenizer_core import render_tokens
from tokenizer_core.lessons.encode_replay import PieceReplay, Replay, replay
from tokenizer_core.lessons.narration import pair_text
from tokenizer_core.levels import Symbol
from tokenizer_core.pretokenize import WORD_END
from tokenizer_core.render import escape
from tokenizer_core.tokens import show_whitespace
from ui.common import catalog
from ui.common.i18n import N_, _, explain, ngettext, number
from ui.common.page_state import KEEP
from ui.common.pills import fill_from_pills
from ui.common.safe_text import literal
from ui.common.token_view import render_options
from ui.merge_steps import data as data
from ui.merge_steps.charts import prefix_figure
from ui.merge_steps.limits import MAX_PREFIX_TEXT_CHARS, MAX_REPLAY_CHARS
from ui.merge_steps.player import shown
from ui.merge_steps.source import Source, default_replay_text
from ui.merge_steps.tables import prefix_frame

LADDER_CSS = """
.ms-ladders { display: grid; grid-template-columns: repeat(auto-fill, minmax(30rem, 1fr));
  gap: .8rem; }
.ms-ladder { border: 1px solid rgba(120,120,130,.35); border-radius: .6rem; padding: .5rem .7rem; }
.ms-ladder h4 { margin: 0 0 .4rem 0; font-size: 1.05rem; white-space: pre;
  font-family: ui-monospace, "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace; }
.ms-rung { display: grid; grid-template-columns: 8rem 1fr; gap: .5rem; align-items: center;
  padding: .18rem 0; border-top: 1px dashed rgba(120,120,130,.3); }
.ms-rule { font-size: .88rem; color: #5b5f6a; line-height: 1.2; }
.ms-rule b { color: #1b1b1f; font-variant-numeric: tabular-nums; }
.ms-parts { display: flex; flex-wrap: wrap; gap: 3px; }
.ms-chip { font-family: ui-monospace, "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace;
  font-size: var(--ms-chip, 1.05rem); padding: .05em .3em; border: 1px solid rgba(0,0,0,.45);
  border-radius: .3em; background: #fff; color: #111; white-space: pre; }
.ms-chip.joined { background: #fff3a6; border: 2px solid #111; font-weight: 700; }
.ms-chip.final { background: #d4f5d0; }
.ms-wend, .ms-chip.ms-wend-only { color: #6b6b78; font-size: .72em; font-weight: 400; }
.ms-chip.hex { font-size: calc(var(--ms-chip, 1.05rem) * .8); }
.ms-ids { font-size: .9rem; color: #5b5f6a; margin-top: .3rem; font-variant-numeric: tabular-nums; }
.ms-chip.unk { background: repeating-linear-gradient(45deg, #ddd, #ddd 4px, #fff 4px, #fff 8px);
  color: #8a0000; font-weight: 700; }
.ms-big { --ms-chip: 1.4rem; }
.ms-wp-word { margin: .2rem 0 .7rem 0; }
.ms-wp-word .ms-parts { display: inline-flex; vertical-align: middle; }
.ms-wp-head { font-weight: 700; font-size: 1.1rem; }
.ms-wp-search { margin: .25rem 0 0 0; color: #5b5f6a; font-size: .92rem; }
.ms-wp-search .ms-why-unk { color: #8a0000; font-weight: 600; }
"""


def _chip(symbol: Symbol, cls: str, visible: bool) -> str:
    """A symbol's chip; `</w>` drawn small and grey in the chip that holds it, as the player and
    the token views draw it (a lone `</w>` is a small grey chip of its own)."""
    text = shown(symbol, visible)
    hexed = " hex" if text.startswith("<") and isinstance(symbol, bytes) else ""
    word_level = isinstance(symbol, str) and not visible  # sentence level: `</w>` is just text
    if word_level and symbol == WORD_END:
        return f'<span class="ms-chip {cls} ms-wend-only">{escape(text)}</span>'
    if word_level and symbol.endswith(WORD_END):  # type: ignore[union-attr]
        head = escape(text[: -len(WORD_END)])
        return (f'<span class="ms-chip {cls}">{head}'
                f'<span class="ms-wend">{escape(WORD_END)}</span></span>')
    return f'<span class="ms-chip {cls}{hexed}">{escape(text)}</span>'


def _parts(parts: tuple[Symbol, ...], joined: int | None, final: bool, visible: bool) -> str:
    chips = []
    for i, part in enumerate(parts):
        cls = "joined" if i == joined else ("final" if final else "")
        chips.append(_chip(part, cls, visible))
    return f'<span class="ms-parts">{"".join(chips)}</span>'


def _joined_at(before: tuple[Symbol, ...], after: tuple[Symbol, ...]) -> int | None:
    """Index in `after` of the (first) part a step made."""
    for i, (x, y) in enumerate(zip(before, after)):
        if x != y:
            return i
    return None


RULE_NAMES = {"merge": N_("merge"), "rank": N_("rank")}  # a rung's rule, as the ladder names it


def ladder_html(piece: PieceReplay, rule_name: str, visible: bool) -> str:
    """One piece: its starting parts, one rung per rule that fired, the final tokens and ids.

    rule_name "merge" numbers rules from 1 (merge 1 is rank 0, as the player counts them);
    "rank" shows the rank itself (GPT-2's real rank numbers, which are also token ids).
    """
    title = escape(repr(show_whitespace(piece.text) if visible else piece.text))
    last = len(piece.steps) - 1
    start = _("start")
    rungs = [f'<div class="ms-rung"><span class="ms-rule">{escape(start)}</span>'
             f'{_parts(piece.parts, None, last < 0, visible)}</div>']
    before = piece.parts
    rule_label = _(RULE_NAMES[rule_name])
    for i, step in enumerate(piece.steps):
        rank = step.rank + 1 if rule_name == "merge" else step.rank  # a rank is an id: no commas
        rule = f'{escape(rule_label)} <b>{rank}</b><br>{escape(pair_text(step.pair))}'
        parts = _parts(step.parts, _joined_at(before, step.parts), i == last, visible)
        rungs.append(f'<div class="ms-rung"><span class="ms-rule">{rule}</span>{parts}</div>')
        before = step.parts
    ids = ", ".join(str(i) for i in piece.ids)  # ids are names, not amounts: 1169, not 1,169
    fired = len(piece.steps)
    summary = _("{tokens}, ids {ids} · {fired}",
                tokens=ngettext("{n} token", "{n} tokens", len(piece.ids)), ids=ids,
                fired=ngettext("{n} rule fired", "{n} rules fired", fired))
    return (f'<div class="ms-ladder"><h4>{title}</h4>{"".join(rungs)}'
            f'<div class="ms-ids">{escape(summary)}</div></div>')


def ladders_html(result: Replay, rule_name: str, visible: bool, big: bool) -> str:
    body = "".join(ladder_html(p, rule_name, visible) for p in result.pieces)
    size = " ms-big" if big else ""
    return f'<style>{LADDER_CSS}</style><div class="ms-ladders{size}">{body}</div>'


@st.cache_data(max_entries=64, show_spinner=False)
def _gpt2_reference(text: str) -> list[int]:
    """tiktoken's own ids for the text (special-token strings read as text), to check the
    replay against. Plain ints are cached, not Token records: they survive a module reload."""
    return list(catalog.load_tiktoken("gpt2").encode_ordinary_ids(text))


GPT2_EXAMPLES = [" tokenization", "tokenization", " lowest", "你好", "🙂", " SolidGoldMagikarp"]


def pill_label(example: str) -> str:
    """A pill's label: the example as text. Pills read Markdown and the model's examples are
    words of the user's corpus, so they go through `literal` (an image there would be fetched);
    a leading or trailing space shows as its repr."""
    return literal(repr(example) if example != example.strip() else example)


def _model_examples(source: Source) -> list[str]:
    """The lesson's replay word and the corpus's first few entries (all encodable)."""
    first = [default_replay_text(source.key, source.text)]
    labels = list(source.raw)[:4] if source.text is None else source.text.split()[:4]
    return list(dict.fromkeys(w for w in first + labels if w))


def replay_ui(source: Source, big: bool) -> None:
    """Type a word or sentence; see every rule that fires, for this page's model or GPT-2."""
    which = st.segmented_control(
        _("Replay with"), ("model", "gpt2"), key="ms_replay_model", required=True,
        persist_state=KEEP,
        format_func=lambda v: _("this page's model") if v == "model" else _("GPT-2's real ranks"),
    )
    if st.session_state.get("ms_replay_for") != source.key:  # a new corpus: a word it can spell
        st.session_state["ms_replay_for"] = source.key
        st.session_state["ms_replay_text"] = default_replay_text(source.key, source.text)
    examples = GPT2_EXAMPLES if which == "gpt2" else _model_examples(source)
    st.pills(_("Try"), examples, key="ms_replay_try", on_change=fill_from_pills,
             args=("ms_replay_try", "ms_replay_text"), format_func=pill_label)
    text = st.text_input(
        _("Word or sentence to encode"), key="ms_replay_text", persist_state=KEEP,
        help=_("Up to {n} characters. Leading spaces count: GPT-2 encodes ' the' and 'the' "
               "differently.", n=number(MAX_REPLAY_CHARS)),
    )
    if not text:
        st.info(_("Type a word or a short sentence to replay its encoding."), icon="✍️")
        return
    if len(text) > MAX_REPLAY_CHARS:
        st.error(_("The replay takes up to {bound} characters; this text has {chars}. Shorten it "
                   "(your text is kept).", bound=number(MAX_REPLAY_CHARS),
                   chars=number(len(text))), icon="⚠️")
        return
    if which == "gpt2":
        model, rule_name, visible = catalog.load("core:gpt2"), "rank", True
    else:
        model = data.model(source)
        rule_name, visible = "merge", source.level != "word"
    try:
        result = replay(model, text)
    except ValueError as error:
        st.error(literal(explain(error)), icon="⚠️")
        return
    if which == "gpt2":
        st.caption(_("GPT-2 starts from the UTF-8 bytes of each chunk its regex cuts, and joins "
                     "the pair whose joined bytes have the lowest rank; a token's rank is its id. "
                     "Bytes that are not a whole character show as hex, e.g. <E4 BD>."))
    else:
        st.caption(_("Each rung applies one merge rule (lowest merge number first) to every place "
                     "it fits; the yellow chip is the token it made."))
    st.html(ladders_html(result, rule_name, visible, big))
    if result.total_pieces > len(result.pieces):
        st.caption(_("Showing the first {shown} of {total} pieces.",
                     shown=number(len(result.pieces)), total=number(result.total_pieces)))
    if which == "gpt2":
        ours, theirs = result.ids, _gpt2_reference(text)
        if ours == theirs:
            st.success(_("Ids {ids}: exactly what tiktoken's gpt2 encoding gives.", ids=ours),
                       icon="✅")
        else:
            st.error(_("Our replay gives {ours} but tiktoken gives {theirs}.", ours=ours,
                       theirs=theirs), icon="⚠️")


def _default_prefix_text(source: Source) -> str:
    if source.text is not None:
        return source.text[:MAX_PREFIX_TEXT_CHARS]
    return " ".join(source.raw)  # a {word: count} table: its words once each


def prefix_ui(source: Source, n: int, big: bool) -> None:
    """Re-tokenize a text with only the first k merges; the token count for every k."""
    if st.session_state.get("ms_prefix_for") != source.key:
        st.session_state["ms_prefix_for"] = source.key
        st.session_state["ms_prefix_text"] = _default_prefix_text(source)
    text = st.text_area(_("Text to re-tokenize"), key="ms_prefix_text", height=100,
                        persist_state=KEEP,
                        help=_("Up to {n} characters.", n=number(MAX_PREFIX_TEXT_CHARS)))
    if not text.strip():
        st.info(_("Type or paste a text to see its tokens with only the first k merges."),
                icon="✍️")
        return
    if len(text) > MAX_PREFIX_TEXT_CHARS:
        st.error(_("This text has {chars} characters; the merge-k view takes up to {bound}. "
                   "Shorten it (your text is kept).", chars=number(len(text)),
                   bound=number(MAX_PREFIX_TEXT_CHARS)), icon="⚠️")
        return
    if n == 0:
        st.info(_("Training learned no merge, so every k gives the same tokens."), icon="ℹ️")
        return
    if "ms_prefix_k" not in st.session_state or st.session_state["ms_prefix_k"] > n:
        st.session_state["ms_prefix_k"] = n
    k = st.slider(_("Use only the first k merges"), 0, n, key="ms_prefix_k", persist_state=KEEP)
    try:
        counts = data.prefix_counts(*source.cache_key, text, source.raw)
        model = data.model_at(*source.cache_key, k, source.raw)
        tokens = model.encode(text, disallowed_special=())
    except ValueError as error:
        st.error(_("This model cannot encode that text: {reason}",
                   reason=literal(explain(error))), icon="⚠️")
        return
    left, right = st.columns([3, 2])
    with left:
        st.metric(_("Tokens with the first {k} merges", k=number(k)), number(len(tokens)),
                  delta=_("{delta} vs no merges", delta=number(len(tokens) - counts[0])),
                  delta_color="inverse")
        st.html(render_tokens(text, tokens, render_options(visible_whitespace=source.level != "word",
                                                          big=big, contrast=big)))
    with right:
        st.plotly_chart(prefix_figure(prefix_frame(counts), k, big), key="ms_prefix_chart")
