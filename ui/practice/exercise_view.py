"""One fill-in-the-blank exercise: the real code with numbered blanks, and beside it one answer
box per blank with Check, Hint and Answer (show it).

State (per session, keys prefixed `pr_`): each answer box's text, and per blank what was last
shown (a verdict, the hint, the answer), in `pr_feedback`, a dict kept for this session only.
"""

from __future__ import annotations

import streamlit as st

from tokenizer_core.lessons.practice import Blank, Exercise, blank_spans, quoted_code, with_markers
from ui.common.i18n import _, ngettext, number
from ui.common.page_state import KEEP
from ui.practice.code_view import code_view
from ui.practice.feedback import show_verdict
from ui.practice.limits import MAX_ANSWER_CHARS

FEEDBACK_KEY = "pr_feedback"  # {(exercise id, blank number): ("verdict", Verdict) | ("hint",) ...}


def answer_key(exercise_id: str, n: int) -> str:
    return f"pr_{exercise_id}_{n}"


@st.cache_data(max_entries=16, show_spinner=False)
def shown_code(exercise_id: str, _exercise: Exercise) -> str:
    """The quoted code with blanks drawn as __1__, __2__, ... (the same for every session)."""
    code = quoted_code(_exercise)
    return with_markers(code, blank_spans(_exercise, code))


def _feedback() -> dict:
    return st.session_state.setdefault(FEEDBACK_KEY, {})


def _check(exercise_id: str, n: int, blank: Blank) -> None:
    answer = st.session_state.get(answer_key(exercise_id, n)) or ""
    _feedback()[(exercise_id, n)] = ("verdict", blank.check(answer))


def _hint(exercise_id: str, n: int) -> None:
    _feedback()[(exercise_id, n)] = ("hint",)


def _reveal(exercise_id: str, n: int, blank: Blank) -> None:
    st.session_state[answer_key(exercise_id, n)] = blank.original
    _feedback()[(exercise_id, n)] = ("answer",)


def init_state(exercises: tuple[Exercise, ...]) -> None:
    for ex in exercises:
        for n in range(1, len(ex.blanks) + 1):
            st.session_state.setdefault(answer_key(ex.id, n), "")


def _blank_box(ex: Exercise, n: int, blank: Blank) -> None:
    kind = _("an expression") if blank.mode == "expression" else _("a statement")
    st.text_input(_("Blank {n}", n=n), key=answer_key(ex.id, n), max_chars=MAX_ANSWER_CHARS,
                  placeholder=f"__{n}__: {kind}", persist_state=KEEP,
                  on_change=_check, args=(ex.id, n, blank))
    # a row that wraps whole buttons, each as wide as its label: three equal columns split
    # "Check" and "Answer" mid-word in presentation mode
    with st.container(horizontal=True, gap="small"):
        st.button(_("Check"), key=f"pr_check_{ex.id}_{n}", on_click=_check,
                  args=(ex.id, n, blank))
        st.button(_("Hint"), key=f"pr_hint_{ex.id}_{n}", on_click=_hint, args=(ex.id, n))
        st.button(_("Answer"), key=f"pr_reveal_{ex.id}_{n}", on_click=_reveal,
                  args=(ex.id, n, blank))
    shown = _feedback().get((ex.id, n))
    if shown is None:
        return
    if shown[0] == "verdict":
        show_verdict(shown[1])
    elif shown[0] == "hint":
        st.info(_("Hint: {hint}", hint=_(blank.hint)), icon="💡")
    else:
        st.info(_("Here is the answer, as the code has it. Other ways of writing it that mean "
                  "the same are accepted too."), icon="📖")


def exercise_section(ex: Exercise) -> None:
    st.caption(_(ex.intro))  # the exercise data's own words, in the catalog (locales/babel.cfg)
    right = sum(1 for n, b in enumerate(ex.blanks, start=1)
                if (f := _feedback().get((ex.id, n))) and f[0] == "verdict" and f[1].correct)
    code_column, answers_column = st.columns([3, 2])
    with code_column:
        names = ", ".join(f"`{s.qualname}`" for s in ex.sources)
        files = ", ".join(dict.fromkeys(s.module.replace(".", "/") + ".py" for s in ex.sources))
        st.markdown(ngettext("The real code of {names} ({files}), with {n} blank:",
                             "The real code of {names} ({files}), with {n} blanks:",
                             len(ex.blanks), names=names, files=files))
        code_view(shown_code(ex.id, ex))
    with answers_column:
        st.metric(_("Blanks right"), f"{number(right)} / {number(len(ex.blanks))}")
        for n, blank in enumerate(ex.blanks, start=1):
            with st.container(border=True, key=f"pr_box_{ex.id}_{n}"):
                _blank_box(ex, n, blank)
