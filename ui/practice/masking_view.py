"""Random masking: hide 10-50% of an exercise's code, token by token, from a seed on screen.

The seed is the whole mask: a teacher reads it out (or hands out the link, which holds it) and
every student gets the same blanks. Reshuffle draws a new seed for this session only.
The answer boxes are keyed by (code, share, seed, blank), so a new mask starts with empty boxes.

What a student typed is never lost to a visit to another page: Streamlit drops the value of
every widget a run does not draw, and `persist_state=KEEP` would keep every box of every mask
ever drawn, so each reshuffle would leave its boxes in the session for good. Instead the typed
answers live in one plain dict this module owns, `pr_mask_typed` {mask id: {blank: text}}, and
the boxes are filled from it whenever they come back (after a page switch, or when the seed of
an earlier mask is typed again). It holds the mask on screen and the few last ones typed into,
`MAX_KEPT_MASKS` in all; past that the oldest goes. The last Check's score (`pr_mask_result`)
is a plain key too, so it is still shown on return.

Leaves out: keeping answers beyond the session (nothing is written to disk).
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
from ui.common.i18n import _, number
from ui.common.page_state import KEEP
from ui.practice.code_view import code_view
from ui.practice.limits import MAX_KEPT_MASKS, MAX_MASK_ANSWER_CHARS, MAX_SEED

MaskId = tuple[str, int, int]  # (exercise id, share, seed): everything that decides a mask
RESULT_KEY = "pr_mask_result"  # (mask id, (True/False per blank, ...)) of the last Check
TYPED_KEY = "pr_mask_typed"  # {mask id: {blank number: answer typed}}, the newest mask last
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


def _box_key(mask_id: MaskId, n: int) -> str:
    return "pr_m_{}_{}_{}_{}".format(*mask_id, n)


def _typed() -> dict[MaskId, dict[int, str]]:
    return st.session_state.setdefault(TYPED_KEY, {})


def _keep_newest(typed: dict[MaskId, dict[int, str]], mask_id: MaskId) -> None:
    """Move `mask_id` to the end (dicts keep insertion order), then drop the oldest past the
    bound: the mask on screen is never the one dropped."""
    if mask_id in typed:
        typed[mask_id] = typed.pop(mask_id)
    while len(typed) > MAX_KEPT_MASKS:
        del typed[next(iter(typed))]


def _keep_answer(mask_id: MaskId, n: int) -> None:
    """A box's on_change: copy its text into the dict this module owns.

    subtle: a callback, not a copy made while drawing, because a student may type and click
    another page at once; that run draws the other page, but the changed box's callback still
    runs first."""
    text = st.session_state.get(_box_key(mask_id, n)) or ""
    typed = _typed()
    answers = typed.setdefault(mask_id, {})
    if text:
        answers[n] = text
    else:
        answers.pop(n, None)
    if not answers:  # an emptied mask takes no room
        del typed[mask_id]
    _keep_newest(typed, mask_id)


def _restore_boxes(mask_id: MaskId, count: int) -> None:
    """Put the kept answers back into boxes Streamlit dropped, before the boxes are drawn."""
    typed = _typed()
    _keep_newest(typed, mask_id)
    for n, text in typed.get(mask_id, {}).items():
        key = _box_key(mask_id, n)
        if n <= count and key not in st.session_state:
            st.session_state[key] = text


def _check(mask_id: MaskId, mask: Mask) -> None:
    answers = [st.session_state.get(_box_key(mask_id, n)) or ""
               for n in range(1, len(mask.hidden) + 1)]
    marks = tuple(check_token(a, slot) for a, slot in zip(answers, mask.hidden))
    st.session_state[RESULT_KEY] = (mask_id, marks)


def masking_section(exercises: dict[str, Exercise]) -> None:
    st.caption(_("Hide a share of the code's identifiers, literals and operators (never "
                 "keywords, brackets, comments or the inside of a string) and fill them back "
                 "in. The seed decides the mask: give the class one seed and everyone gets the "
                 "same blanks."))
    pick, share_col, seed_col, shuffle_col = st.columns([2.6, 1.6, 2, 2.4],  # room for "Reshuffle"
                                                         vertical_alignment="bottom")
    ex_id = pick.selectbox(_("Code"), list(exercises), key="pr_mask_ex", persist_state=KEEP,
                           format_func={i: _(e.title) for i, e in exercises.items()}.get)
    share = share_col.selectbox(_("Hide"), SHARES, key="pr_share", persist_state=KEEP,
                                format_func=lambda s: f"{s}%")
    seed = seed_col.number_input(_("Seed"), min_value=0, max_value=MAX_SEED, step=1,
                                 key="pr_seed", persist_state=KEEP,
                                 help=_("The same seed gives the same blanks on every screen."))
    shuffle_col.button(_("Reshuffle"), key="pr_reshuffle", on_click=_reshuffle, icon="🔀",
                       width="stretch")
    mask = masked(ex_id, share, int(seed), exercises[ex_id])
    mask_id = (ex_id, share, int(seed))
    st.markdown(_("**{possible} blanks possible, {hidden} hidden** · seed **{seed}**",
                  possible=len(mask.slots), hidden=len(mask.hidden), seed=int(seed)))
    code_column, answers_column = st.columns([3, 2])
    with code_column:
        code_view(mask.code)
    _restore_boxes(mask_id, len(mask.hidden))
    with answers_column:
        for start in range(0, len(mask.hidden), COLUMNS):
            row = st.columns(COLUMNS)
            for offset, _slot in enumerate(mask.hidden[start:start + COLUMNS]):
                n = start + offset + 1
                # no persist_state: _restore_boxes brings the text back, for a bounded few masks
                row[offset].text_input(f"{n}", key=_box_key(mask_id, n),
                                       max_chars=MAX_MASK_ANSWER_CHARS,
                                       on_change=_keep_answer, args=(mask_id, n))
        st.button(_("Check answers"), key="pr_mask_check", type="primary", on_click=_check,
                  args=(mask_id, mask))
    result = st.session_state.get(RESULT_KEY)
    if result and result[0] == mask_id:
        marks = result[1]
        with answers_column:
            st.metric(_("Score"), f"{number(sum(marks))} / {number(len(marks))}")
            wrong = [str(n) for n, ok in enumerate(marks, start=1) if not ok]
            if wrong:
                st.warning(_("Not yet: blanks {blanks}", blanks=", ".join(wrong)), icon="🤔")
            else:
                st.success(_("All correct!"), icon="✅")
    if mask.hidden and st.toggle(_("Show the answers"), key="pr_mask_answers",
                                  persist_state=KEEP):
        answers_column.code("\n".join(f"{n}: {slot.text}"
                                      for n, slot in enumerate(mask.hidden, start=1)),
                            language=None)
