"""The "Chat templates" tab: one conversation in each chat format, and what the framing costs.

Widgets in, tokenizer_core.measure.sequences_chat frames and counts, render.py draws the tokens;
chat_found.py adds the found models' own chat templates.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.measure.sequences import check_special
from tokenizer_core.measure.sequences_chat import (
    FORMATS,
    OWN_FORMATS,
    PLAIN,
    Format,
    Message,
    count_framed,
    count_own,
    frame,
    marker_ids,
)
from tokenizer_core.reference.open_models import OPEN_MODELS
from tokenizer_core.render import render_tokens
from tokenizer_core.samples import parallel_pairs
from ui.common import catalog
from ui.common.i18n import _, explain, number
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.common.table_view import show_table
from ui.common.token_view import render_options
from ui.common.unicode_guard import REPLACEMENT, REPLACEMENT_NOTE
from ui.sequences.chat_found import ROLE_LABELS, found_templates, framing_table
from ui.sequences.limits import MAX_CHAT_MESSAGE_CHARS, MAX_PRICE
from ui.sequences.markers import marker_html

ROLES = ("system", "user", "assistant")
DEFAULTS: dict[str, object] = {
    "sq_c_system": "You are a patient tutor.",
    "sq_c_user": "What is a token?",
    "sq_c_assistant": "A piece of text the model reads as one unit.",
    "sq_c_tags": "<system>, <human>, <assistant>, <eos>",
    "sq_c_format": FORMATS[0].name,
    "sq_c_price": 0.0,
    "sq_c_own": OWN_FORMATS[0].model,
    "sq_c_prompt": False,
}


def init_state() -> None:
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)


def _messages() -> list[Message]:
    columns = st.columns(3)
    messages = []
    for role, column in zip(ROLES, columns):
        text = column.text_area(_(ROLE_LABELS[role]), key=f"sq_c_{role}", height=110,
                                persist_state=KEEP,
                                help=_("Up to {count} characters are framed.",
                                       count=number(MAX_CHAT_MESSAGE_CHARS)))
        if REPLACEMENT in text:
            column.caption(REPLACEMENT_NOTE)
        if len(text) > MAX_CHAT_MESSAGE_CHARS:
            column.warning(_("{count} characters; the first {used} are framed. Your whole text "
                             "stays in the box.", count=number(len(text)),
                             used=number(MAX_CHAT_MESSAGE_CHARS)), icon="✂️")
        if text.strip():
            messages.append(Message(role, text[:MAX_CHAT_MESSAGE_CHARS]))  # type: ignore[arg-type]
    return messages


def _plain_format() -> tuple[Format, dict, str] | None:
    typed = st.text_input(_("Plain format's tags: system, user, assistant, end (comma separated)"),
                          key="sq_c_tags", persist_state=KEEP)
    if REPLACEMENT in typed:
        st.caption(REPLACEMENT_NOTE)
    tags = [t.strip() for t in typed.split(",")]
    if len(tags) != 4 or len(set(tags)) != 4:
        st.error(_("Type four different tags: system, user, assistant, end; e.g. "
                   "<system>, <human>, <assistant>, <eos>."), icon="⚠️")
        return None
    try:
        for tag in tags:
            check_special(tag)
    except ValueError as error:
        st.error(literal(explain(error)), icon="⚠️")
        return None
    roles = dict(zip(ROLES, tags[:3]))
    return Format(PLAIN.name, tuple(tags)), roles, tags[3]


def chat_section(name: str) -> None:
    tokenizer = catalog.get(name)
    messages = _messages()
    plain = _plain_format()
    if not messages:
        st.info(_("Write at least one message."), icon="👆")
        return
    if plain is None:
        return
    rows, framed = [], {}
    for fmt in FORMATS:
        if fmt is PLAIN:
            fmt, tags, end = plain
            parts = frame(messages, PLAIN, tags, end)
        else:
            parts = frame(messages, fmt)
        try:
            counted = count_framed(tokenizer, parts, fmt.specials)
        except ValueError as error:
            st.error(literal(f"{_(fmt.name)}: {explain(error)}"), icon="⚠️")
            continue
        framed[fmt.name] = counted
        rows.append({_("format"): _(fmt.name), _("tokens"): counted.total,
                     _("content"): counted.tokens_of("content"),
                     _("frame text"): counted.tokens_of("frame"),
                     _("special tokens"): counted.tokens_of("special"),
                     _("framing share"): counted.framing / counted.total if counted.total else 0.0})
    if not rows:
        return
    framing_table(rows)
    st.caption(_("Each token counts for the part its last character is in: what the people "
                 "wrote (content), the format's own text (role names, newlines, [INST]) or its "
                 "special tokens."))
    names = list(framed)
    if st.session_state.get("sq_c_format") not in names:
        st.session_state["sq_c_format"] = names[0]
    chosen = st.radio(_("Show the tokens of"), names, key="sq_c_format", horizontal=True,
                      persist_state=KEEP, format_func=_)  # "Plain tags" is said; names stay
    shown = framed[chosen]
    st.html(render_tokens(shown.text, shown.tokens, render_options(visible_whitespace=True)))
    _own_formats(messages)
    found_templates(messages)
    _cost(rows, name)


def _own_formats(messages: list[Message]) -> None:
    """Each open model's own chat format, encoded by that model's own tokenizer: every marker is
    one of its special tokens, so it costs one id, the model's own."""
    st.subheader(_("Each model's own format, with its own tokenizer"))
    rows, framed, markers = [], {}, []
    for own in OWN_FORMATS:
        tokenizer = catalog.get(own.model)
        try:
            counted = count_own(tokenizer, frame(messages, own.fmt), own.fmt)
        except ValueError as error:
            st.error(literal(f"{OPEN_MODELS[own.model].label}: {explain(error)}"), icon="⚠️")
            continue
        framed[own.model] = counted
        label = OPEN_MODELS[own.model].label
        markers.append((label, marker_ids(tokenizer, own.fmt)))
        rows.append({
            _("model"): label, _("format"): own.fmt.name,
            _("tokens"): counted.total, _("content"): counted.tokens_of("content"),
            _("framing"): counted.framing, _("framing per message"): counted.framing_per_message,
        })
    if not rows:
        return
    show_table(pd.DataFrame(rows), hide_index=True, column_config={
        _("framing per message"): st.column_config.NumberColumn(format="%.1f")})
    # The markers wrap as chips under the table: in a table column they ran off its edge.
    st.markdown(_("**Each format's markers, and their ids**"))
    st.html(marker_html(markers))
    st.caption(_(
        "Every marker above is one of the model's own tokens, one id each (the ids shown are the "
        "tokenizer's; DeepSeek's role markers are added tokens its tokenizer.json does not mark "
        "special, matched all the same). Mistral 7B's [INST] is not one: its v1 format writes it "
        "as text, so it costs several tokens; Mistral Nemo's Tekken made it a control token. "
        "DeepSeek-V4's package ships no chat template: the layout is DeepSeek-V3's published "
        "one, over V4's markers. Framing per message: the framing's tokens over the messages "
        "framed."
    ))
    if st.session_state.get("sq_c_own") not in framed:
        st.session_state["sq_c_own"] = next(iter(framed))
    chosen = st.radio(_("Show the tokens of"), list(framed), key="sq_c_own", horizontal=True,
                      format_func=lambda m: OPEN_MODELS[m].label, persist_state=KEEP)
    shown = framed[chosen]
    st.html(render_tokens(shown.text, shown.tokens, render_options(visible_whitespace=True)))
    if chosen in catalog.ATTRIBUTIONS:
        st.caption(catalog.attribution(chosen))  # the licence's sentence, in the session's language


def _cost(rows: list[dict], tokenizer_name: str) -> None:
    price = st.number_input(_("Price per million input tokens (your provider's; none is stored)"),
                            0.0, float(MAX_PRICE), key="sq_c_price", step=0.5, persist_state=KEEP)
    if price <= 0:
        return
    fmt, tokens, content = _("format"), _("tokens"), _("content")
    frame_cost = pd.DataFrame({
        fmt: [r[fmt] for r in rows],
        _("per 1,000 conversations"): [r[tokens] * price / 1_000 for r in rows],
        _("of which framing"): [(r[tokens] - r[content]) * price / 1_000 for r in rows],
    })
    show_table(frame_cost, hide_index=True, column_config={
        c: st.column_config.NumberColumn(format="%.4f") for c in frame_cost.columns[1:]})
    english, chinese = _parallel_tokens(tokenizer_name)
    premium = chinese / english if english else 0.0
    st.markdown(_(
        "On the {pairs} built-in English–Chinese sentence pairs this tokenizer spends "
        "**{chinese} tokens on the Chinese** for {english} on the English (**{premium}×**). At "
        "{price} per million tokens, text that costs {price} in English costs **{cost}** in "
        "Chinese.", pairs=number(len(parallel_pairs())), chinese=number(chinese),
        english=number(english), premium=number(premium, 2), price=f"{price:g}",
        cost=number(price * premium, 2)))


@st.cache_data(max_entries=16, show_spinner=False)
def _parallel_tokens(name: str) -> tuple[int, int]:
    """Tokens of all the English sides and of all the Chinese sides of the parallel pairs."""
    tokenizer = catalog.get(name)
    pairs = parallel_pairs()
    count = lambda text: len(tokenizer.encode(text, disallowed_special=()))  # noqa: E731
    return sum(count(p.en) for p in pairs), sum(count(p.zh) for p in pairs)
