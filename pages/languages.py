"""Languages: what English, Chinese and emoji cost in bytes and in tokens, and why."""

import streamlit as st

from tokenizer_core.measure.byte_ruler import RULER_CSS
from ui.common.i18n import N_, _
from ui.common.page_state import KEEP, first_visit, kept_tabs_translated, write_link
from ui.common.query_params import show_link_notes
from ui.common.shell import ensure_routed
from ui.languages import data as data
from ui.languages.emoji import emoji_section
from ui.languages.grow import grow_section
from ui.languages.limits import MAX_PAGE_TOKENIZERS, MAX_RULER_INPUT_CHARS, MAX_URL_TEXT_CHARS
from ui.languages.many import many_section
from ui.languages.parallel import current_pairs, parallel_section
from ui.languages.ruler import DEFAULT_TEXT, ruler_section

# The tabs' English names are the link's values (?lg_tab=Emoji); each is shown in the session's language.
TABS = [N_("Byte ruler"), N_("English vs Chinese"), N_("Many languages"), N_("Emoji"),
        N_("Grow a vocabulary")]

ensure_routed()
link = first_visit("languages")  # once per session; afterwards the session's own tab wins
first_tab = link.read_choice("lg_tab", {t: t for t in TABS}, TABS[0]) if link else None
if link:  # the tokenizers, the ruler's text and code points: a link reopens the same screen
    st.session_state["lg_tokenizers"] = link.read_names("lg_tok", data.names(),
                                                        data.DEFAULT_NAMES,
                                                        limit=MAX_PAGE_TOKENIZERS)
    st.session_state["lg_ruler_text"] = link.read_text(
        "lg_text", DEFAULT_TEXT, max_chars=MAX_URL_TEXT_CHARS, file_max_chars=MAX_RULER_INPUT_CHARS)
    st.session_state["lg_ruler_cp"] = link.read_flag("lg_cp")
st.html(f"<style>{RULER_CSS}</style>")
st.title(_("Languages"))
st.caption(_(
    "Why does Chinese, or an emoji, cost more tokens than English? Bytes first: UTF-8 spends "
    "1 byte on a Latin letter, 3 on a Chinese character and 4 on most emoji. Then it depends on "
    "what the tokenizer learned from its training text: GPT-2, OpenAI's newer vocabularies and "
    "today's open models (Llama 3, Qwen 2.5, Mistral Nemo, DeepSeek-V4) side by side."
))
show_link_notes("languages")
st.session_state.setdefault("lg_tokenizers", data.DEFAULT_NAMES)
names = st.multiselect(
    _("Tokenizers"), data.names(), key="lg_tokenizers", format_func=data.long_label,
    max_selections=MAX_PAGE_TOKENIZERS, persist_state=KEEP,
    help="\n\n".join(f"**{data.shown(data.label(n))}**: {data.description(n)}"
                       for n in data.names()),
)
if not names:
    st.info(_("Pick at least one tokenizer."), icon="👆")
    st.stop()

(ruler_tab, parallel_tab, many_tab, emoji_tab, grow_tab), open_tab = kept_tabs_translated(
    TABS, "lg_tab", first_tab)
ruler_text = st.session_state.get("lg_ruler_text", DEFAULT_TEXT)
link_params = {"lg_tab": open_tab, "lg_tok": ",".join(names),
               "lg_cp": "1" if st.session_state.get("lg_ruler_cp") else "0"}
if len(ruler_text) <= MAX_URL_TEXT_CHARS:
    link_params["lg_text"] = ruler_text  # in the link: ?lg_tab=Emoji&lg_text=...
write_link("languages", link_params, whole={"lg_text": ruler_text})
with ruler_tab:
    if ruler_tab.open:
        ruler_section(names)
with parallel_tab:
    if parallel_tab.open:
        parallel_section(names)
with many_tab:
    if many_tab.open:
        many_section()
with emoji_tab:
    if emoji_tab.open:
        emoji_section(names)
with grow_tab:
    if grow_tab.open:
        source, pairs = current_pairs()
        grow_section(names, source, [p.zh for p in pairs])
