"""The chat tab's last part: the conversation in each found model's own chat template.

A tokenizer of the models folder or the Hugging Face cache that has a chat template beside it
(tokenizer_core.reference.chat_templates) gets the page's conversation rendered with it, as
transformers' `apply_chat_template` renders it (in a bounded worker: chat_worker.py), encoded
by its own tokenizer in its own worker, and counted per message
(tokenizer_core.measure.chat_template_count). A template that cannot be read or rendered is
named with the reason; the others still show.

Leaves out: the page's link (the generation-prompt box is not in it) and tools.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from tokenizer_core.measure.chat_template_count import TemplateCount, count_template, marked
from tokenizer_core.measure.sequences_chat import Message
from tokenizer_core.messages import Refusal
from tokenizer_core.reference.chat_templates import ChatTemplate, read_template
from tokenizer_core.reference.chat_worker import render_isolated
from tokenizer_core.render import render_tokens
from ui.common import catalog, found_models
from ui.common.i18n import N_, _, explain
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.common.table_view import show_table
from ui.common.token_view import render_options

ROLE_LABELS = {"system": N_("System"), "user": N_("User"), "assistant": N_("Assistant")}
Outcome = tuple[str, object, dict]  # ("ok", value, {}) or ("refused", template, values)


def _refused(error: Refusal) -> Outcome:
    return "refused", error.template, dict(error.values)  # a Refusal itself does not unpickle


def _said(outcome: Outcome) -> str:
    return explain(Refusal(outcome[1], **outcome[2]))  # type: ignore[arg-type]


def _stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """What the template's files are now (names, sizes, times): its cache key."""
    files = [folder / n for n in ("chat_template.jinja", "tokenizer_config.json",
                                  "special_tokens_map.json")]
    return tuple((f.name, f.stat().st_size, f.stat().st_mtime_ns) for f in files if f.is_file())


@st.cache_data(max_entries=64, show_spinner=False)
def _template(folder: str, stamp: tuple) -> Outcome | None:
    try:
        found = read_template(Path(folder))
    except Refusal as error:
        return _refused(error)
    except OSError as error:  # unreadable, or gone since the folder was scanned
        return "refused", N_("{file} could not be read: {error}"), {
            "file": Path(folder).name, "error": error.strerror or str(error)}
    return None if found is None else ("ok", found, {})


@st.cache_data(max_entries=64, show_spinner=False)
def _rendered(template: ChatTemplate, messages: tuple[Message, ...], prompt: bool) -> Outcome:
    """The rendering, and (the value's second half) the rendering of the marked messages that
    says where each message is, or None when that one cannot be had."""
    plain = [{"role": m.role, "content": m.content} for m in messages]
    try:
        text = render_isolated(template.text, plain, template.specials, prompt)
    except Refusal as error:
        return _refused(error)
    with_marks = marked(messages)
    try:
        marked_text = None if with_marks is None else render_isolated(
            template.text, with_marks, template.specials, prompt)
    except Refusal:
        marked_text = None  # the marks upset the template (it checks a text): search instead
    return "ok", (text, marked_text), {}


@st.cache_data(max_entries=64, show_spinner=False)
def _counted(name: str, sha256: str, rendered: tuple[str, str | None],
             messages: tuple[Message, ...]) -> Outcome:
    try:
        return "ok", count_template(catalog.get(name), rendered[0], messages, rendered[1]), {}
    except Refusal as error:
        return _refused(error)
    except ValueError as error:  # the worker's own words (it ended, or said why not)
        return "refused", "{error}", {"error": str(error)}


def _templates() -> tuple[dict[str, ChatTemplate], list[tuple[str, str]]]:
    """The found tokenizers that have a chat template, and (name, why) for those whose template
    cannot be read."""
    found, refused = {}, []
    for name in found_models.names():
        model = found_models.model(name)
        if model.kind != "tokenizer.json" or not model.entry.is_dir():
            continue
        try:
            outcome = _template(str(model.entry), _stamp(model.entry))
        except OSError:
            continue  # gone since the scan: the next scan says so
        if outcome is None:
            continue
        if outcome[0] == "ok":
            found[name] = outcome[1]  # type: ignore[assignment]
        else:
            refused.append((name, _said(outcome)))
    return found, refused


def _row(name: str, template: ChatTemplate, counted: TemplateCount) -> dict:
    framed = counted.framed
    return {_("tokenizer"): name, _("template from"): template.source,
            _("tokens"): framed.total, _("content"): framed.tokens_of("content"),
            _("frame text"): framed.tokens_of("frame"),
            _("special tokens"): framed.tokens_of("special"),
            _("framing share"): framed.framing / framed.total if framed.total else 0.0}


def framing_table(rows: list[dict[str, object]]) -> None:
    """One row per format (or found template): its tokens by part, the framing as a percent."""
    show_table(pd.DataFrame(rows), hide_index=True, column_config={
        _("framing share"): st.column_config.NumberColumn(format="percent")})


def _per_message(messages: list[Message], counted: TemplateCount) -> pd.DataFrame:
    rows = [{_("message"): _(ROLE_LABELS[m.role]),
             _("tokens"): n,
             _("found in the rendering"): found}
            for m, n, found in zip(messages, counted.content_tokens, counted.found)]
    framed = counted.framed
    rows.append({_("message"): _("the template's framing (its text and special tokens)"),
                 _("tokens"): framed.framing, _("found in the rendering"): None})
    return pd.DataFrame(rows)


def found_templates(messages: list[Message]) -> None:
    """The section: a table over every found template, then one template's tokens."""
    st.subheader(_("Each found model's own chat template"))
    templates, refused = _templates()
    for name, why in refused:
        st.error(literal(f"{name}: {why}"), icon="⚠️")
    if not templates:
        st.caption(_("No tokenizer of the models folder or the Hugging Face cache has a chat "
                     "template (chat_template.jinja, or chat_template in tokenizer_config.json) "
                     "beside it; docs/models.md says where to put one."))
        return
    prompt = st.checkbox(_("Add the generation prompt (add_generation_prompt=True)"),
                         key="sq_c_prompt", persist_state=KEEP)
    rows, counts = [], {}
    for name, template in templates.items():
        rendered = _rendered(template, tuple(messages), prompt)
        if rendered[0] == "ok":
            rendered = _counted(name, catalog.version(name), rendered[1], tuple(messages))
        if rendered[0] != "ok":
            st.error(literal(f"{name}: {_said(rendered)}"), icon="⚠️")
            continue
        counts[name] = rendered[1]
        rows.append(_row(name, template, rendered[1]))  # type: ignore[arg-type]
    if not rows:
        return
    framing_table(rows)
    st.caption(_("Rendered as transformers' apply_chat_template renders it (jinja2's sandbox, "
                 "the template's own special tokens), in a process of its own with a time "
                 "bound, and encoded by the model's own tokenizer as tokenize=True encodes it "
                 "(add_special_tokens=False: a marker the template writes is its one id). A "
                 "message counts the tokens of its text; the rest is the template's."))
    if st.session_state.get("sq_c_found") not in counts:
        st.session_state["sq_c_found"] = next(iter(counts))
    chosen = st.radio(_("Show the tokens of the template of"), list(counts), key="sq_c_found",
                      horizontal=True, persist_state=KEEP)
    shown: TemplateCount = counts[chosen]
    show_table(_per_message(messages, shown), hide_index=True)
    st.html(render_tokens(shown.framed.text, shown.framed.tokens,
                          render_options(visible_whitespace=True)))
    with st.expander(_("The template ({file})", file=templates[chosen].source)):
        st.code(templates[chosen].text, language="jinja2")
