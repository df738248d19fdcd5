"""Playground: paste text, see several tokenizers cut it side by side."""

import streamlit as st

from tokenizer_core.measure.boundaries import disagreements
from tokenizer_core.samples import sample_text
from ui.common import catalog
from ui.common.hover_link import hover_link
from ui.common.i18n import _, explain, number
from ui.common.limits import MAX_PANELS
from ui.common.page_state import KEEP
from ui.common.query_params import show_link_notes
from ui.common.safe_text import literal
from ui.common.shell import ensure_routed, presentation_mode
from ui.common.table_view import show_table
from ui.common.tables import csv_download, shown_frame
from ui.common.token_view import PanelData, render_options, token_panel
from ui.playground import url_state
from ui.playground.limits import MAX_TABLE_ROWS
from ui.playground.normalization_note import normalization_note
from ui.playground.numbers import numbers_ui
from ui.playground.options import view_options_ui
from ui.playground.text_source import own_files_ui, text_source_ui

ensure_routed()
url_state.restore("pg", sample_text("mixed_default"))
# Title and caption on one line, so the first tokens fit a laptop's first screen; one under the
# other when presentation mode's large type needs the width.
title, about = (st, st) if presentation_mode() else st.columns([1, 2], vertical_alignment="bottom")
title.title(_("Playground"))
about.caption(_("Paste text and see how different tokenizers cut it. Hover a token for its id and "
                "bytes."))
show_link_notes("playground")

text = text_source_ui("pg")
label_of = catalog.label_of()
names = st.multiselect(
    _("Tokenizers"), catalog.choices(), key="pg_tokenizers", format_func=label_of,
    persist_state=KEEP, max_selections=MAX_PANELS, help=_("Pick several to compare them side by side."),
    placeholder=_("Choose options"),
)

choice = view_options_ui("pg", len(names), large_type=presentation_mode())
view, visible_ws, allow_special = choice.view, choice.visible_ws, choice.allow_special
# The context window is chosen in the numbers section, further down; the link keeps it anyway.
window = st.session_state.get("pg_window", url_state.WINDOWS[0])
# The A/B pair of the disagreement marks is settled before the link is written, so the link
# names the pair the panels show.
marked_pair = url_state.pair("pg", names) if choice.mark_disagreements else None
fits = url_state.save(text, names, view, visible_ws, allow_special, window,
                      choice.mark_disagreements, marked_pair)

if not text or not names:
    if not text:
        st.info(_("Type or paste some text above, or pick a classic quirk."), icon="✍️")
    else:
        st.info(_("Pick at least one tokenizer."), icon="👆")
    own_files_ui("pg")
    st.stop()

specials = catalog.special_strings_in(text, names)
if specials and not allow_special:
    st.caption(_("The text contains {specials}: read here as ordinary text, not as a special "
                 "token. Turn on *Encode special tokens* to see the difference.",
                 specials=literal(", ".join(specials))))

special = "allow" if allow_special else "plain"
panels: dict[str, PanelData] = {}
for name in names:
    try:
        tokens = catalog.tokenize(name, text, special)
        panels[name] = PanelData(name, catalog.label(name), tokens)
    except ValueError as error:
        panels[name] = PanelData(name, catalog.label(name), [], error=explain(error))

usable = [n for n in names if panels[n].error is None]
if marked_pair and len(usable) >= 2:
    if not set(marked_pair) <= set(usable):  # a panel that could not tokenize has no cuts
        url_state.pair("pg", usable)
    a_col, b_col = st.columns(2)
    first = a_col.selectbox(_("Tokenizer A"), usable, key="pg_diff_a", format_func=label_of,
                            persist_state=KEEP)
    second = b_col.selectbox(_("Tokenizer B"), usable, key="pg_diff_b", format_func=label_of,
                             persist_state=KEEP)
    if first != second:
        a, b = panels[first], panels[second]
        panels[first] = PanelData(first, a.label, a.tokens, disagreements(text, a.tokens, b.tokens))
        panels[second] = PanelData(second, b.label, b.tokens, disagreements(text, b.tokens, a.tokens))
        st.caption(_("Outlined in red, in both panels: tokens the other tokenizer cuts differently "
                     "(it does not cut at the token's start or end, or it cuts inside the token)."))

options = render_options(view=view, visible_whitespace=visible_ws, readout=True,
                        big=presentation_mode(), contrast=presentation_mode())
per_row = 1 if presentation_mode() else min(3, len(names))
for row_start in range(0, len(names), per_row):
    columns = st.columns(per_row)
    for column, name in zip(columns, names[row_start : row_start + per_row]):
        with column.container(border=True):
            token_panel(text, panels[name], options, catalog.description(name))
            if panels[name].error is None and (note := normalization_note(name, text)):
                st.caption(note)
            if name in catalog.ATTRIBUTIONS:
                st.caption(catalog.attribution(name))

hover_link()
own_files_ui("pg")

st.subheader(_("Numbers"))
numbers_ui("pg", text, [(panels[n].label, catalog.get(n), panels[n].tokens) for n in usable])

st.subheader(_("Tokens"))
chosen = st.selectbox(_("Table for"), usable, key="pg_table", format_func=label_of,
                      persist_state=KEEP)
if chosen:
    frame = catalog.token_table(chosen, text, special)
    show_table(shown_frame(frame.head(MAX_TABLE_ROWS)), height=320, light=True)
    if len(frame) > MAX_TABLE_ROWS:
        st.caption(_("The table shows {shown} of {total} rows; the CSV has all.",
                     shown=number(MAX_TABLE_ROWS), total=number(len(frame))))
    csv_download(st, _("Download CSV"), frame, "tokens.csv")
if not fits:
    st.caption(_("This text is too long to keep in the link: the link keeps your choices only. "
                 "*Lesson links and files* in the sidebar saves it whole."))
