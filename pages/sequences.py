"""Sequences: from token ids to what a model reads: specials, truncation, padding, masks,
windows over long text, and batches that waste less padding."""

import streamlit as st

from ui.common import catalog
from ui.common.i18n import _
from ui.common.page_state import KEEP, kept_tabs_translated
from ui.common.query_params import show_link_notes
from ui.common.shell import ensure_routed
from ui.sequences import batching, chat, inputs, windows
from ui.sequences.bands import BAND_CSS
from ui.sequences.grid import GRID_CSS
from ui.sequences.link import TABS, read_link, save_link
from ui.sequences.markers import MARKER_CSS

ensure_routed()
inputs.init_state()
windows.init_state()
batching.init_state()
chat.init_state()
st.session_state.setdefault("sq_tokenizer", "gpt2")
first_tab = read_link()  # once per session, or from a lesson file; then the session's own values win
st.html(f"<style>{GRID_CSS}{BAND_CSS}{MARKER_CSS}</style>")
st.title(_("Sequences"))
st.caption(_(
    "A model does not read one text: it reads a batch of rows of the same length. Special tokens "
    "frame each sequence, long ones are truncated or cut into windows, short ones are padded, "
    "and the attention mask tells the model which positions are padding."
))
show_link_notes("sequences")
name = st.selectbox(_("Tokenizer"), catalog.offered(), key="sq_tokenizer",
                    format_func=lambda n: _(catalog.label(n)), persist_state=KEEP,
                    help="\n\n".join([
                        *(f"**{_(catalog.label(n))}**: {_(catalog.DESCRIPTIONS[n])}"
                          for n in catalog.BUILT_IN),
                        *(f"**{n}**: {catalog.description(n)}" for n in catalog.found_names())]))

(input_tab, long_tab, batch_tab, chat_tab), open_tab = kept_tabs_translated(
    TABS, "sq_tab", first_tab)
save_link(lambda _shown: open_tab)  # every tab's knobs, before the slow parts: a link copied mid-run holds them
with input_tab:
    if input_tab.open:
        inputs.model_input_section(catalog.get(name))
with long_tab:
    if long_tab.open:
        windows.windows_section(name)
with batch_tab:
    if batch_tab.open:
        batching.batching_section(name)
with chat_tab:
    if chat_tab.open:
        chat.chat_section(name)
