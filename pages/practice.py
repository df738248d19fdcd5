"""Practice: fill the blanks in this project's own tokenizer code, random masking with a seed a
class can share, and guess the token count. Answers are parsed and compared, never run."""

import streamlit as st

from tokenizer_core.lessons.practice import SHARES, all_exercises
from ui.common.i18n import N_, _
from ui.common.page_state import first_visit, kept_tabs_translated, write_link
from ui.common.query_params import show_link_notes
from ui.common.shell import ensure_routed
from ui.practice import exercise_view, guess_view, masking_view, tiny_demo
from ui.practice.limits import MAX_SEED

EXERCISES = {ex.id: ex for ex in all_exercises()}
MASKING, GUESS = N_("Random masking"), N_("Guess the count")  # tab values stay English
TABS = [*(ex.title for ex in EXERCISES.values()), MASKING, GUESS]
FIRST = next(iter(EXERCISES))

ensure_routed()
link = first_visit("practice")  # once per session; afterwards the session's own choices win
first_tab = link.read_choice("pr_tab", {t: t for t in TABS}, TABS[0]) if link else None
if link:  # the mask: a teacher's link gives the whole class the same blanks
    st.session_state["pr_mask_ex"] = link.read_choice(
        "pr_code", {i: i for i in EXERCISES}, FIRST)
    st.session_state["pr_share"] = link.read_int("pr_share", 15, low=min(SHARES),
                                                 high=max(SHARES), allowed=SHARES, shown="15%")
    if "pr_seed" in link.params:
        st.session_state["pr_seed"] = link.read_int("pr_seed", masking_view.new_seed(-1),
                                                     low=0, high=MAX_SEED, shown=_("a new seed"))
st.title(_("Practice"))
st.caption(_(
    "Fill the blanks in the real code this app runs: the BPE trainer, the encoder, WordPiece's "
    "score, the UTF-8 byte counting and a tiny complete tokenizer. Answers are read by Python's "
    "parser and compared with the right ones, never run. Then hide random tokens of the code, "
    "or guess how many tokens a text costs."
))
show_link_notes("practice")
exercise_view.init_state(tuple(EXERCISES.values()))
masking_view.init_state(FIRST)
guess_view.init_state()
tiny_demo.init_state()

tabs, open_tab = kept_tabs_translated(TABS, "pr_tab", first_tab)  # titles from the data file
write_link("practice", {  # in the link: ?pr_tab=Random+masking&pr_code=...&pr_share=15&pr_seed=..
    "pr_tab": open_tab, "pr_code": st.session_state["pr_mask_ex"],
    "pr_share": st.session_state["pr_share"], "pr_seed": int(st.session_state["pr_seed"]),
})
for tab, ex in zip(tabs, EXERCISES.values()):
    with tab:
        if tab.open:
            exercise_view.exercise_section(ex)
            if ex.id == "tiny_tokenizer":  # the class it quotes, running
                tiny_demo.try_section()
with tabs[-2]:
    if tabs[-2].open:
        masking_view.masking_section(EXERCISES)
with tabs[-1]:
    if tabs[-1].open:
        guess_view.guess_section()
