"""The "Model input" tab: sequences (or pairs) -> specials, truncation, padding, masks, as a grid.

Widgets in, tokenizer_core.measure.sequences does the work, grid.py draws it.
"""

from __future__ import annotations

import streamlit as st

from tokenizer_core import Tokenizer
from tokenizer_core.interface import DisallowedSpecialToken
from tokenizer_core.measure.sequences import (
    BERT_OWN_NAME,
    PADDINGS,
    SPECIAL_FAMILIES,
    STRATEGIES,
    TEMPLATES,
    Encoded,
    Settings,
    encode_with_set,
    prepare_batch,
    special_set,
)
from tokenizer_core.measure.sequences_batches import causal_mask, full_mask
from tokenizer_core.tokens import Token
from ui.common.i18n import N_, _, explain, number, percent
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.common.unicode_guard import REPLACEMENT, REPLACEMENT_NOTE
from ui.sequences.grid import batch_grid, mask_grid
from ui.sequences.limits import (
    MAX_BATCH_ROWS,
    MAX_GRID_COLUMNS,
    MAX_INPUT_LENGTH,
    MAX_MASK_CELLS,
    MAX_OWN_SPECIALS,
    MAX_SEQUENCE_CHARS,
)

ALL_SPECIALS = [s for family in SPECIAL_FAMILIES.values() for s in family]

# Each preset sets the boxes and the knobs that make its point. Its English name is the value
# (in links and lesson files); the Preset select shows it in the session's language.
PRESETS: dict[str, dict[str, object]] = {
    N_("Sentences of different lengths"): {
        "sq_a": "Tokens become ids.\nA batch pads every row to the longest one in it.\n"
        "Short.\nThe attention mask tells the model which positions are padding.",
        "sq_b": "", "sq_template": "<bos> A <eos>", "sq_padding": "longest", "sq_allow": False,
        "sq_specials": ALL_SPECIALS,
    },
    N_("Sentence pairs (a classifier)"): {
        "sq_a": "A man is playing a guitar on stage.\nThe cat sat on the mat.",
        "sq_b": "Someone is making music.\nA dog is barking at the mailman outside.",
        "sq_template": "<cls> A <sep> B <sep>", "sq_padding": "longest", "sq_allow": False,
        "sq_specials": ALL_SPECIALS,
    },
    N_("BERT's own pair input (bert-base-uncased)"): {
        "sq_tokenizer": "bert-base-uncased",
        "sq_a": "The cat sat on the mat.\nhello world",
        "sq_b": "A cat is sitting on a mat.",
        # none of the lesson's set: [CLS], [SEP] and [PAD] are the tokenizer's own
        "sq_template": BERT_OWN_NAME, "sq_padding": "longest", "sq_allow": False,
        "sq_specials": [],
    },
    N_("A chat with control tokens"): {
        "sq_a": "<system>You are a patient tutor.<human>What is a token?<assistant>A piece of "
        "text the model reads as one unit.\n<human>And padding?<assistant>Filler, masked out.",
        "sq_b": "", "sq_template": "<bos> A <eos>", "sq_padding": "max_length", "sq_allow": True,
        "sq_specials": ALL_SPECIALS,
    },
}
SIDES = (N_("right"), N_("left"))  # the values (in links) stay English; shown translated
ATTENTIONS = (N_("full"), N_("causal"))
DEFAULTS: dict[str, object] = {
    "sq_preset": "Sentences of different lengths", **PRESETS["Sentences of different lengths"],
    "sq_own": "", "sq_max_length": 24, "sq_truncate": True,
    "sq_strategy": "longest_first", "sq_side": "right", "sq_ids": False, "sq_mask_row": 1, "sq_attention": "full",
}


def init_state() -> None:
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)


def _apply_preset() -> None:
    st.session_state.update(PRESETS[st.session_state["sq_preset"]])


def _lines(key: str, label: str, help_text: str, column) -> list[str]:
    text = column.text_area(label, key=key, height=150, persist_state=KEEP, help=help_text)
    if REPLACEMENT in text:
        column.caption(REPLACEMENT_NOTE)
    if len(text) > MAX_SEQUENCE_CHARS:
        column.warning(_("The box holds {count} characters; the page uses the first {used}. "
                         "Your whole text stays in the box.", count=number(len(text)),
                         used=number(MAX_SEQUENCE_CHARS)), icon="✂️")
    lines = [line for line in text[:MAX_SEQUENCE_CHARS].split("\n") if line.strip()]
    if len(lines) > MAX_BATCH_ROWS:
        column.caption(_("{count} lines: the batch takes the first {rows}.",
                         count=number(len(lines)), rows=number(MAX_BATCH_ROWS)))
    return lines[:MAX_BATCH_ROWS]


def _specials(tokenizer: Tokenizer) -> dict[str, int] | None:
    chosen = st.multiselect(
        _("Special tokens"), ALL_SPECIALS, key="sq_specials", persist_state=KEEP,
        help=_("The lesson's families: structural {structural}; functional {functional}; control "
               "{control}; language and task tags {tags}. Their ids follow the tokenizer's "
               "vocabulary (a new tokenizer would give them the first ids).",
               structural=", ".join(SPECIAL_FAMILIES["structural"]),
               functional=", ".join(SPECIAL_FAMILIES["functional"]),
               control=", ".join(SPECIAL_FAMILIES["control"]),
               tags=", ".join(SPECIAL_FAMILIES["language and task"])),
    )
    own = st.text_input(_("Your own special tokens (comma separated)"), key="sq_own",
                        persist_state=KEEP, placeholder="<|user|>, <|end|>")
    if REPLACEMENT in own:
        st.caption(REPLACEMENT_NOTE)
    extra = [s.strip() for s in own.split(",") if s.strip()]
    if len(extra) > MAX_OWN_SPECIALS:
        st.warning(_("{count} tokens of your own; the page takes the first {kept}.",
                     count=number(len(extra)), kept=number(MAX_OWN_SPECIALS)))
    try:
        return special_set([*chosen, *extra[:MAX_OWN_SPECIALS]], first_id=tokenizer.vocab_size)
    except ValueError as error:
        st.error(literal(explain(error)), icon="⚠️")
        return None


def _with_own_specials(
    tokenizer: Tokenizer, specials: dict[str, int]
) -> tuple[dict[str, int], list[str]]:
    """The chosen set, plus the tokenizer's own special tokens that the template names (BERT's
    [CLS] and [SEP]) and its own [PAD] when no <pad> is chosen; and the model's own specials
    the template names that this tokenizer does not have (the lesson's `<cls>`, when left out of
    the set, is prepare_batch's to report)."""
    own = tokenizer.special_tokens
    named = TEMPLATES[st.session_state["sq_template"]].specials()
    missing = [s for s in named if s not in specials and s not in own and s.startswith("[")]
    merged = {**specials, **{s: own[s] for s in named if s not in specials and s in own}}
    if "<pad>" not in merged and "[PAD]" in own:
        merged["[PAD]"] = own["[PAD]"]
    return merged, missing


def _settings(specials: dict[str, int]) -> Settings:
    a, b, c, d = st.columns(4)
    template = a.selectbox(_("Template"), list(TEMPLATES), key="sq_template", persist_state=KEEP,
                           format_func=_,  # "<bos> A <eos>" stays; "BERT's own [CLS] [SEP]" is said
                           help=_("Where the specials go; a pair gets type id 1 on its second "
                                  "part."))
    truncate = b.toggle(_("Truncate"), key="sq_truncate", persist_state=KEEP)
    max_length = b.number_input(_("Max length"), 1, MAX_INPUT_LENGTH, key="sq_max_length",
                                persist_state=KEEP,
                                help=_("1 to {max} tokens, specials included.",
                                       max=number(MAX_INPUT_LENGTH)))
    strategy = c.selectbox(_("Truncation strategy"), STRATEGIES, key="sq_strategy",
                           persist_state=KEEP,
                           help=_("For pairs: cut the longer first, or only the first / second "
                                  "part. The end token is never cut: the room for specials is "
                                  "kept."))
    padding = d.selectbox(_("Padding"), PADDINGS, key="sq_padding", persist_state=KEEP,
                          help=_("To the max length, or to the longest row of the batch."))
    side = d.radio(_("Pad on the"), SIDES, key="sq_side", horizontal=True, persist_state=KEEP,
                   format_func=_)
    return Settings(TEMPLATES[template], int(max_length) if truncate or padding == "max_length" else None,
                    strategy, padding, side, specials.get("<pad>", specials.get("[PAD]", -1)))


def model_input_section(tokenizer: Tokenizer) -> None:
    st.selectbox(_("Preset"), list(PRESETS), key="sq_preset", on_change=_apply_preset,
                 persist_state=KEEP, format_func=_)
    left, right = st.columns(2)
    first = _lines("sq_a", _("Sequences, one per line"),
                   _("Each line is one sequence of the batch."), left)
    second = _lines("sq_b", _("Second parts of pairs, one per line (optional)"),
                    _("Line k pairs with line k on the left (a classifier's two sentences)."),
                    right)
    specials = _specials(tokenizer)
    allow = st.toggle(_("Read special-token strings in my text as special tokens"),
                      key="sq_allow", persist_state=KEEP,
                      help=_("Off: a special string in your text is refused (a user could forge "
                             "a turn of the conversation). On: each becomes one token, never "
                             "split."))
    if specials is None:
        return
    specials, missing = _with_own_specials(tokenizer, specials)
    settings = _settings(specials)  # drawn first, so a template this tokenizer lacks can be changed
    if missing:
        st.error(_("The template uses {tokens}, the model's own special tokens, which {name} "
                   "does not have: pick BERT base uncased.", tokens=_(" and ").join(missing),
                   name=literal(tokenizer.name)), icon="⚠️")
        return
    if settings.padding != "none" and settings.pad_id < 0:
        st.error(_("Padding needs a pad token: add <pad> to the special tokens."), icon="⚠️")
        return
    if not first:
        st.info(_("Type at least one sequence."), icon="👆")
        return
    try:
        rows, labels = _rows(tokenizer, first, second, specials, settings, allow)
    except DisallowedSpecialToken as error:
        st.error(literal(_("Your text holds the special token {token} at character {position}. "
                           "Turn on the switch above to read it as a special token, or edit it "
                           "out; nothing was encoded.", token=repr(error.token),
                           position=error.position)), icon="⚠️")
        return
    except ValueError as error:
        st.error(literal(explain(error)), icon="⚠️")
        return
    _draw(rows, labels, settings)


def _rows(tokenizer: Tokenizer, first: list[str], second: list[str], specials: dict[str, int],
          settings: Settings, allow: bool) -> tuple[list[Encoded], dict[int, str]]:
    labels = {i: s for s, i in specials.items()}
    allowed = "all" if allow else frozenset()
    items = []
    for k, line in enumerate(first):
        pair_line = second[k] if k < len(second) else None
        ids = []
        for text in (line, pair_line):
            if text is None:
                ids.append(None)
                continue
            tokens = encode_with_set(tokenizer, text, specials, allowed)
            for t in tokens:
                labels.setdefault(t.id, _label(t))
            ids.append([t.id for t in tokens])
        items.append((ids[0], ids[1]))
    return prepare_batch(items, settings, specials), labels


def _label(token: Token) -> str:
    """What one id is called in the grid: the typed text (spaces made visible), or the piece
    when the model holds something else: BERT's `the` for a typed `The` (a grid labels ids, and
    one id covers both), `##ing`, `▁the`, `[UNK]` for the text it hid, a special token's name."""
    if token.piece and (token.special or token.piece.encode("utf-8") != token.bytes):
        return token.piece
    return token.display(True, True)


def _draw(rows: list[Encoded], labels: dict[int, str], settings: Settings) -> None:
    real = sum(r.special_mask.count(0) for r in rows)
    pads = sum(r.padding for r in rows)
    total = sum(len(r) for r in rows)
    a, b, c, d = st.columns(4)
    a.metric(_("Sequences"), number(len(rows)))
    b.metric(_("Positions per row"), number(max(len(r) for r in rows)))
    c.metric(_("Special tokens"), number(total - real - pads))
    d.metric(_("Padding"), f"{number(pads)} ({percent(pads / total, 0)})" if total else "0")
    show_ids = st.toggle(_("Show ids instead of text"), key="sq_ids", persist_state=KEEP)
    st.html(batch_grid(rows, labels, settings.pad_id, show_ids, MAX_GRID_COLUMNS))
    widest = max(len(r) for r in rows)
    if widest > MAX_GRID_COLUMNS:
        st.caption(_("Rows are {count} positions long; the grid draws the first {shown}.",
                     count=number(widest), shown=number(MAX_GRID_COLUMNS)))
    st.caption(_("Dark: special tokens. Hatched: padding (attention mask 0). Hover a cell for "
                 "its token, id, position, type id and mask value."))
    with st.expander(_("Attention mask as a grid: who sees whom")):
        if st.session_state.get("sq_mask_row", 1) not in range(1, len(rows) + 1):
            st.session_state["sq_mask_row"] = 1  # the batch shrank under the kept choice
        n = st.selectbox(_("Sequence"), range(1, len(rows) + 1), key="sq_mask_row",
                         persist_state=KEEP)
        kind = st.radio(_("Attention"), ATTENTIONS, key="sq_attention", horizontal=True,
                        persist_state=KEEP, format_func=_,
                        help=_("full: an encoder (BERT); causal: a decoder (GPT) sees only "
                               "itself and what came before."))
        row = rows[int(n or 1) - 1]
        mask = (full_mask if kind == "full" else causal_mask)(row.attention_mask[:MAX_MASK_CELLS])
        names = [_("pad") if m == 0 else labels.get(i, str(i)) for i, m in
                 zip(row.ids[:MAX_MASK_CELLS], row.attention_mask)]
        st.html(mask_grid(mask, names))
        if len(row) > MAX_MASK_CELLS:
            st.caption(_("The first {shown} of {count} positions.", shown=number(MAX_MASK_CELLS),
                         count=number(len(row))))
        st.caption(_("Blue: the row's token may attend to the column's token. Padding attends "
                     "to nothing and nothing attends to it."))
