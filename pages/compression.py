"""Compression: how big should a vocabulary be? One training run per corpus gives the curve."""

import streamlit as st

from tokenizer_core.measure.compression import BYTE_VOCAB
from tokenizer_core.measure.quality import HF_FAMILIES
from ui.common import catalog
from ui.common.i18n import _, current_language, explain, number
from ui.common.query_params import show_link_notes
from ui.common.safe_text import literal
from ui.common.shell import ensure_routed, presentation_mode
from ui.common.token_view import render_options
from ui.compression import compute as compute
from ui.compression.corpora import corpora_ui
from ui.compression.frames import METRICS, curve_rows, family_name, metric_name, unk_notes
from ui.compression.limits import (
    CURVE_POINTS,
    HELD_OUT_PCT_MAX,
    HELD_OUT_PCT_MIN,
    HELD_OUT_PCT_STEP,
    HF_SIZES,
    KEEP,
    VOCAB_CHOICES,
)
from ui.compression.lines import coming_note, other_lines
from ui.compression.link import read_link, save_link
from ui.compression.sentences import byte_level_tab, classroom_view, tab_names
from ui.compression.view import (
    describe_split,
    doubling_section,
    draw_chart,
    init_state,
    quality_section,
    stop_notes,
)

ensure_routed()
init_state()
read_link()  # once per session, or from a lesson file

st.title(_("Compression"))
st.caption(_(
    "How big should a vocabulary be? Byte-level BPE is trained **once** per corpus; the first k "
    "merges are themselves a tokenizer, so one run gives the tokens needed at every vocabulary "
    "size, measured on held-out text the training never saw."
))
show_link_notes("compression")  # what the link or lesson file held that could not be used
corpora = corpora_ui()
# Pills like the corpora above: they wrap at any width, where a multiselect's chips scroll away.
families = st.pills(_("Lines beside ours, trained on the same split"), HF_FAMILIES,
                    selection_mode="multi", key="cp_hf", persist_state=KEEP,
                    format_func=family_name,
                    help=_("Hugging Face tokenizers (Rust) and the real sentencepiece library "
                           "(C++, the lesson's parameters), each trained once per vocabulary "
                           "size on the same training part as ours: one run per size, no "
                           "averaging."))
# Three sliders share a row: each needs a third of a laptop's width, and no more.
left, middle, right = st.columns(3)
vocab = left.select_slider(_("Train up to (vocab size)"), VOCAB_CHOICES, key="cp_vocab",
                           persist_state=KEEP, format_func=number)
held_out_pct = middle.slider(
    _("Held-out part"), HELD_OUT_PCT_MIN, HELD_OUT_PCT_MAX, step=HELD_OUT_PCT_STEP, format="%d%%",
    key="cp_held_out", persist_state=KEEP,
    help=_("Train on the first part of each corpus, measure on the rest."))
if not corpora:
    save_link()
    st.info(_("Pick at least one corpus above, or upload your own text."), icon="👆")
    st.stop()

sizes = tuple(s for s in HF_SIZES if s <= vocab)
if st.session_state["cp_compare"] not in sizes:
    st.session_state["cp_compare"] = max(s for s in sizes if s <= 1_000)
compare = right.select_slider(_("Compare at vocab size"), sizes, key="cp_compare",
                              persist_state=KEEP, format_func=number,
                              help=_("Marked on the chart; the quality table below uses it."))
big = presentation_mode()  # large type: the measure's three buttons need the whole row
left, right = (st.container(), st.container()) if big else st.columns([3, 1],
                                                                     vertical_alignment="bottom")
metric = left.segmented_control(_("Measure"), list(METRICS), key="cp_metric", persist_state=KEEP,
                                format_func=metric_name) or "chars_per_token"
show_train = right.toggle(_("Training part too"), key="cp_train", persist_state=KEEP,
                          help=_("Our line measured on the text it was trained on, dotted: the "
                                 "gap between dotted and solid is over-fitting."))
save_link()  # every choice above, before the slow parts: a link copied mid-training holds them

rows, curves, usable = [], [], []
with st.container():
    for corpus in corpora:
        try:
            parts = compute.split(corpus.text, held_out_pct)
            curve = compute.our_curve(corpus.digest, held_out_pct, vocab - BYTE_VOCAB,
                                      corpus.label, current_language(), corpus.text)
        except ValueError as error:  # too small to split; or the workers' queue is full (Busy)
            st.warning(_("{label}: {reason}", label=literal(corpus.label),
                         reason=literal(explain(error))), icon="⚠️")
            continue
        usable.append((corpus, parts, curve))
        curves.append((corpus.label, curve))
        rows += curve_rows(corpus.label, corpus.key, curve, CURVE_POINTS, sizes, show_train)
if not usable:
    st.stop()

for corpus, parts, curve in usable:
    st.caption(describe_split(corpus, parts, curve))
# Our line first, with whatever else is made already; the slow parts last (ui/compression/lines.py)
lines = other_lines(usable, families, sizes, held_out_pct, wait=False)
chart, coming = st.empty(), st.empty()
frame = draw_chart(chart, rows + lines.rows, metric, compare, big,
                   key="cp_chart_early" if lines.coming else "cp_chart")
if lines.coming:
    coming.info(coming_note(lines.coming), icon="⏳")
progress, notes = st.container(), st.empty()

doubling_section(curves, vocab, big)
quality = st.empty()
quality.caption(_("The quality table follows once the lines above are in.") if lines.coming
                else _("Measuring on the held-out text…"))

st.subheader(_("One sentence, growing vocabularies"))
options = render_options(visible_whitespace=st.toggle(_("Visible whitespace (·)"), key="cp_ws",
                                                    persist_state=KEEP),
                        big=big, contrast=big)
# on_change="rerun": only the open tab runs, so the real tokenizers load when asked for
classroom, byte_level = st.tabs(tab_names(), key="cp_sentence_tab", on_change="rerun")
if classroom.open:
    with classroom:
        st.caption(_("The ten sentences about cats and dogs, trained once up to 30 merges; each "
                     "row is the tokenizer made of the first k merges."))
        classroom_view(options)
if byte_level.open:
    with byte_level:
        byte_level_tab(usable, options)

if lines.coming:  # the slow parts, with their progress bars under the chart
    with progress:
        lines = other_lines(usable, families, sizes, held_out_pct, wait=True)
    frame = draw_chart(chart, rows + lines.rows, metric, compare, big, key="cp_chart")
    coming.empty()
found = stop_notes(usable, metric) + unk_notes(frame) + lines.refused
found += [note for _sizes, note in lines.missing.values()]  # sizes a trainer refused: no point there
if lines.references:  # Llama 3 is among the real tokenizers' points
    found.append(catalog.attribution("llama3"))
if found:
    notes.caption("\n".join(f"- {note}" for note in found))
with quality.container():
    quality_section(usable, lines, compare, held_out_pct, frame)
