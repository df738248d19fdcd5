"""Unigram & SentencePiece: watch a vocabulary shrink, see Viterbi pick a path through a word's
lattice, and compare BPE, WordPiece, Unigram and SentencePiece on the same corpus."""

import streamlit as st

from ui.common.i18n import _, explain
from ui.common.page_state import kept_tabs_translated
from ui.common.query_params import show_link_notes
from ui.common.safe_text import literal
from ui.common.shell import ensure_routed, presentation_mode
from ui.unigram.compare import compare_ui
from ui.unigram.shrink_view import shrink_ui, train_with_progress
from ui.unigram.source import TABS, first_tab, init_state, save_link, settings_ui
from ui.unigram.viterbi_view import lattice_ui

ensure_routed()
link = init_state()
opening_tab = first_tab(link)
st.title(_("Unigram & SentencePiece"))
st.caption(_(
    "BPE grows a vocabulary merge by merge; Unigram does the dual: it starts from many "
    "candidate pieces, gives each a probability, and removes the ones the corpus misses least. "
    "Encoding picks the most probable cut, by Viterbi over the lattice of every matching piece. "
    "SentencePiece (Llama, T5) runs either algorithm with the space as an ordinary character ▁."
))
show_link_notes("unigram")
settings = settings_ui()
if settings.error:
    st.error(settings.error, icon="⚠️")
    save_link()
    st.stop()
try:
    training = train_with_progress(settings)
except ValueError as error:
    st.error(_("This corpus cannot be trained at this size: {reason}",
               reason=literal(explain(error))), icon="⚠️")
    save_link()
    st.stop()
big = presentation_mode()
(shrink, lattice, four), _open_tab = kept_tabs_translated(TABS, "ug_tab", opening_tab)
save_link()  # once per run, after the tabs: the open tab is in the link
if shrink.open:
    with shrink:
        shrink_ui(settings, training, big)
if lattice.open:
    with lattice:
        lattice_ui(settings, big)
if four.open:
    with four:
        compare_ui(settings)
