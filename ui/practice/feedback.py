"""How a verdict is shown: correct, not yet (with the reason when the answer is a known wrong
one), or where Python stopped reading. The student's own text is only ever shown as code."""

from __future__ import annotations

from numbers import Number

import streamlit as st

from tokenizer_core.lessons.practice import Verdict
from ui.common.i18n import _, number
from ui.common.safe_text import literal


def said(verdict: Verdict) -> str:
    """The verdict's sentence in the session's language: its template looked up, numbers by
    Babel, `why` (the exercise data's reason) translated too; Python's own `reason` as it is."""
    if not verdict.template:
        return verdict.message
    values = {k: number(v) if isinstance(v, Number) and not isinstance(v, bool) else v
              for k, v in verdict.values.items()}
    if "why" in values:
        values["why"] = _(str(values["why"]))
    return _(verdict.template, **values)


def show_verdict(verdict: Verdict) -> None:
    if verdict.correct:
        st.success(said(verdict), icon="✅")
    elif verdict.status == "syntax_error" and verdict.line is not None:
        pointed = verdict.message.partition(":\n")[2]
        st.error(literal(said(verdict)) + _(":"), icon="✏️")
        st.code(pointed, language=None)  # the student's line and a ^ under the column
    elif verdict.status == "not_yet":
        st.warning(said(verdict), icon="🤔")  # our own words, from the exercises data
    else:
        st.info(literal(said(verdict)), icon="ℹ️")
