"""Random masking: hide 10-50% of an exercise's code, token by token, from a seed on screen.

The seed is the whole mask: a teacher reads it out (or hands out the link, which holds it) and
every student gets the same blanks. Reshuffle draws a new seed for this session only.
The answer boxes are keyed by (code, share, seed), so a new mask starts with empty boxes; they
are not kept across a visit to another page (unlike the page's other widgets), or every
reshuffle would leave its boxes in the session for good.
"""

from __future__ import annotations

import random

import streamlit as st

from tokenizer_core.lessons.practice import (
    SHARES,
    Exercise,
    Mask,
    check_token,
    mask_code,
    quoted_code,
)
from ui.common.page_state import KEEP
from ui.practice.limits import MAX_MASK_ANSWER_CHARS, MAX_SEED

RESULT_KEY = "pr_mask_result"  # ((exercise id, share, seed), (True/False per blank, ...))
COLUMNS = 4  # answer boxes per row


def init_state(default_exercise: str) -> None:
    st.session_state.setdefault("pr_mask_ex", default_exercise)
    st.session_state.setdefault("pr_share", 15)
    st.session_state.setdefault("pr_mask_answers", False)
    if "pr_seed" not in st.session_state:
        st.session_state["pr_seed"] = new_seed(-1)


def new_seed(old: int) -> int:
    """A fresh seed, never the one on screen (this session's own randomness, not shared)."""
    rng = random.SystemRandom()
    while (seed := rng.randint(0, MAX_SEED)) == old:
        pass
    return seed


def _reshuffle() -> None:
    st.session_state["pr_seed"] = new_seed(st.session_state.get("pr_seed", -1))


@st.cache_data(max_entries=64, show_spinner=False)
def masked(exercise_id: str, share: int, seed: int, _exercise: Exercise) -> Mask:
    """The mask for (code, share, seed): the same for every session, so shared safely."""
    return mask_code(quoted_code(_exercise), share, seed)


def _box_key(mask_id: tuple[str, int, int], n: int) -> str:
    return "pr_m_{}_{}_{}_{}".format(*mask_id, n)


def _check(mask_id: tuple[str, int, int], mask: Mask) -> None:
    answers = [st.session_state.get(_box_key(mask_id, n)) or ""
               for n in range(1, len(mask.hidden) + 1)]
    marks = tuple(check_token(a, slot) for a, slot in zip(answers, mask.hidden))
    st.session_state[RESULT_KEY] = (mask_id, marks)


def masking_section(exercises: dict[str, Exercise]) -> None:
    st.caption("Hide a share of the code's identifiers, literals and operators (never keywords, "
               "brackets, comments or the inside of a string) and fill them back in. The seed "
               "decides the mask: give the class one seed and everyone gets the same blanks.")
    pick, share_col, seed_col, shuffle_col = st.columns([3, 2, 2, 1.3],
                                                         vertical_alignment="bottom")
    ex_id = pick.selectbox("Code", list(exercises), key="pr_mask_ex", persist_state=KEEP,
                           format_func=lambda i: exercises[i].title)
    share = share_col.selectbox("Hide", SHARES, key="pr_share", persist_state=KEEP,
                                format_func=lambda s: f"{s}%")
    seed = seed_col.number_input("Seed", min_value=0, max_value=MAX_SEED, step=1, key="pr_seed",
                                 persist_state=KEEP,
                                 help="The same seed gives the same blanks on every screen.")
    shuffle_col.button("Reshuffle", key="pr_reshuffle", on_click=_reshuffle, icon="🔀",
                       width="stretch")
    mask = masked(ex_id, share, int(seed), exercises[ex_id])
    mask_id = (ex_id, share, int(seed))
    st.markdown(f"**{len(mask.slots)} blanks possible, {len(mask.hidden)} hidden** · seed "
                f"**{int(seed)}**")
    code_column, answers_column = st.columns([3, 2])
    code_column.code(mask.code, language="python", line_numbers=True, wrap_lines=True)
    with answers_column:
        for start in range(0, len(mask.hidden), COLUMNS):
            row = st.columns(COLUMNS)
            for offset, _slot in enumerate(mask.hidden[start:start + COLUMNS]):
                n = start + offset + 1
                row[offset].text_input(f"{n}", key=_box_key(mask_id, n),
                                       max_chars=MAX_MASK_ANSWER_CHARS)
        st.button("Check answers", key="pr_mask_check", type="primary", on_click=_check,
                  args=(mask_id, mask))
    result = st.session_state.get(RESULT_KEY)
    if result and result[0] == mask_id:
        marks = result[1]
        with answers_column:
            st.metric("Score", f"{sum(marks)} / {len(marks)}")
            wrong = [str(n) for n, ok in enumerate(marks, start=1) if not ok]
            if wrong:
                st.warning("Not yet: blanks " + ", ".join(wrong), icon="🤔")
            else:
                st.success("All correct!", icon="✅")
    if mask.hidden and st.toggle("Show the answers", key="pr_mask_answers",
                                  persist_state=KEEP):
        answers_column.code("\n".join(f"{n}: {slot.text}"
                                      for n, slot in enumerate(mask.hidden, start=1)),
                            language=None)
