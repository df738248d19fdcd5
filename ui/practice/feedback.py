"""How a verdict is shown: correct, not yet (with the reason when the answer is a known wrong
one), or where Python stopped reading. The student's own text is only ever shown as code."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.lessons.practice import Verdict
from ui.common.safe_text import literal


def show_verdict(verdict: Verdict) -> None:
    if verdict.correct:
        st.success(verdict.message, icon="✅")
    elif verdict.status == "syntax_error" and verdict.line is not None:
        header, _, pointed = verdict.message.partition(":\n")
        st.error(literal(header) + ":", icon="✏️")
        st.code(pointed, language=None)  # the student's line and a ^ under the column
    elif verdict.status == "not_yet":
        st.warning(verdict.message, icon="🤔")  # our own words, from the exercises data
    else:
        st.info(literal(verdict.message), icon="ℹ️")
