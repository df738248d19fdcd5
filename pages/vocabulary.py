"""Vocabulary: open any tokenizer's vocabulary, search it, see its lengths and scripts, compare two;
see how text is pre-split; find unused tokens; design a vocabulary (prune, add domain words)."""

import streamlit as st

from ui.common import catalog, found_models
from ui.common.i18n import N_, _, explain, number
from ui.common.page_state import KEEP, first_visit, kept_tabs_translated, write_link
from ui.common.query_params import show_link_notes
from ui.common.safe_text import literal
from ui.common.shell import ensure_routed, presentation_mode
from ui.vocabulary import (
    data,
    design_view,
    found,
    inspect_view,
    pre_split_view,
    sizes_view,
    usage_view,
)
from ui.vocabulary.limits import MAX_SPLIT_CHARS, MAX_URL_TEXT_CHARS

# The tabs' English names are their values (in links and lesson files); shown translated.
TABS = [N_("Table"), N_("Charts"), N_("Compare"), N_("Glitches & growth"), N_("Real sizes"),
        N_("Pre-tokenization"), N_("Design")]

ensure_routed()
link = first_visit("vocabulary")  # once per session, or from a lesson file
first_tab = link.read_choice("vc_tab", {t: t for t in TABS}, TABS[0]) if link else None
names = data.names()  # the built-in ones, then the models folder's and the HF cache's
if link:
    st.session_state["vc_tokenizer"] = link.read_choice(
        "vc_tokenizer", {n: n for n in names}, st.session_state.get("vc_tokenizer", names[0]))
    if "vc_text" in link.params:
        st.session_state["vc_split_text"] = link.read_text(
            "vc_text", "", max_chars=MAX_URL_TEXT_CHARS, file_max_chars=MAX_SPLIT_CHARS)
st.title(_("Vocabulary"))
st.caption(_(
    "A tokenizer is its vocabulary plus its pre-tokenizer. Every token here is bytes first: "
    "`<E4 BD>` is part of a character, `·` a space. Script classes follow Unicode's script "
    "and category properties (see tokenizer_core/measure/vocabulary.py)."
))
show_link_notes("vocabulary")  # what the link or lesson file held that could not be used
# Large type needs wider number columns: a 6-digit count must stay on one line.
choose, size, held, gaps = st.columns([2, 1.3, 1.3, 1.3] if presentation_mode() else [3, 1, 1, 1])
found_help = "\n\n".join(f"**{literal(n)}**: {catalog.description(n)}"
                         for n in catalog.found_names())  # each one's path, size and sha256
name = choose.selectbox(_("Vocabulary"), names, key="vc_tokenizer",
                        format_func=catalog.label_of(), persist_state=KEEP, help=found_help or None)
if found.is_found(name):  # where the file is, its size and sha256
    st.caption(catalog.description(name))
try:
    vocab = data.table(name)
except ValueError as error:  # a found file's worker could not send its table: one line, why
    vocab = None
    st.error(literal(explain(error)), icon="⚠️")
else:
    size.metric(_("Size (largest id + 1)"), number(vocab.size))  # tiktoken's n_vocab
    held.metric(_("Tokens"), number(len(vocab.rows)))
    gaps.metric(_("Ids no token holds"), number(len(vocab.gaps)))

shown_tabs, open_tab = kept_tabs_translated(TABS, "vc_tab", first_tab)
tabs = dict(zip(TABS, shown_tabs))  # only the open tab runs
split_text = st.session_state.get("vc_split_text")
params = {"vc_tokenizer": name, "vc_tab": open_tab}
if isinstance(split_text, str) and len(split_text) <= MAX_URL_TEXT_CHARS:
    params["vc_text"] = split_text
write_link("vocabulary", params, whole={"vc_text": split_text} if isinstance(split_text, str) else {})


def no_table() -> None:
    st.info(_("This tab needs the vocabulary of {name}, which could not be read (see above).",
              name=found.markdown_name(name)))


sections = {
    "Table": lambda: inspect_view.table_section(name, vocab),
    "Charts": lambda: inspect_view.charts_section(name, vocab),
    "Compare": lambda: inspect_view.compare_section(name, names),
    "Glitches & growth": lambda: usage_view.show(name, vocab),
    "Real sizes": sizes_view.show,
    "Pre-tokenization": lambda: pre_split_view.show(name),
    "Design": lambda: design_view.show(name),
}
for label, tab in tabs.items():
    with tab:
        if tab.open and vocab is None and label in TABS[:4]:  # the tabs that read the table
            no_table()
        elif tab.open:
            sections[label]()
found_models.folder_ui("vc")  # what the models folder and the HF cache hold, and what not, why
