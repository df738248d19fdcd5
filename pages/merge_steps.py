"""Merge steps: watch BPE learn its vocabulary merge by merge, replay how it encodes, and see
where WordPiece would have chosen differently."""

import streamlit as st

from ui.common.i18n import N_, _, explain
from ui.common.page_state import kept_tabs_translated
from ui.common.query_params import show_link_notes
from ui.common.safe_text import literal
from ui.common.shell import ensure_routed, presentation_mode
from ui.common.table_view import show_table
from ui.merge_steps import data as data
from ui.merge_steps.code import code_ui
from ui.merge_steps.compare import race_ui, wordpiece_ui
from ui.merge_steps.player import player, settled_step
from ui.merge_steps.replay import prefix_ui, replay_ui
from ui.merge_steps.source import init_state, save_link, source_ui

TABS = [N_("🎬 Watch BPE learn"), N_("🔁 Encode replay"), N_("⚖️ BPE vs WordPiece"),
        N_("📜 Show me the code")]  # translated where shown

ensure_routed()


def _on_step() -> None:
    """The player settled on a step (a click, a pause): remember it, and the number of the move,
    which goes back to the player so it can tell this answer from a late one."""
    settled = settled_step()
    if settled is not None:
        st.session_state["ms_step"], st.session_state["ms_step_seq"] = settled


init_state()
st.title(_("Merge steps"))
show_link_notes("merge_steps")
source = source_ui()
if source.description:
    st.caption(f"💡 {source.description}")
if source.error:
    if source.empty:
        st.info(source.error, icon="✍️")
    else:
        st.error(source.error, icon="⚠️")
    save_link()
    st.stop()
try:
    lesson = data.lesson(source)
except ValueError as error:
    st.error(_("This corpus cannot be trained: {reason}", reason=literal(explain(error))),
             icon="⚠️")
    save_link()
    st.stop()
n = len(lesson.steps)
step = max(0, min(int(st.session_state.get("ms_step", 0)), n))
st.session_state["ms_step"] = step
save_link(step)  # once per run: each change of the link is an entry in the browser's history
big = presentation_mode()

(learn, encode, versus, code), _open_tab = kept_tabs_translated(TABS, "ms_tab")
if learn.open:
    with learn:
        player(data.trace_json(source), data.trace_id(source), step,
               st.session_state["ms_step_seq"], big, _on_step)
        figure, merges_table, script = data.overview(source, big)
        # one above the other: side by side, a 1280-wide screen cut the table's columns off
        st.plotly_chart(figure, key="ms_overview")
        show_table(merges_table, height=310, light=True)
        with st.expander(_("Lesson script: every step in words")):
            st.html(script)
if encode.open:
    with encode:
        st.subheader(_("Replay encoding, one rule at a time"))
        replay_ui(source, big)
        st.subheader(_("Only the first k merges"))
        prefix_ui(source, n, big)
if versus.open:
    with versus:
        race_ui(source, big)
        st.subheader(_("WordPiece encoding: ## pieces and [UNK]"))
        wordpiece_ui(source, big)
if code.open:
    with code:
        code_ui()
