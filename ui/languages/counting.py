"""Token counts for many texts at once, with a progress bar while they are counted.

A 20,000-pair file is 40,000 sentences per tokenizer: about a second for all five the page
offers on a quiet machine (our pure-Python encoders take most of it; tiktoken a tenth of a second
each). The bar shows only when something is counted (counts are kept per server, see data.py),
and touching it is where Streamlit stops this run if a newer one is waiting (ui/common/cancel.py),
so a user who changes their mind is not kept waiting for the old count.

Leaves out: what the counts are for (the sections).
"""

from __future__ import annotations

import time
from typing import Sequence

import streamlit as st

from tokenizer_core.measure.language_costs import PROGRESS_CHARS
from ui.common.cancel import throttled
from ui.common.i18n import _, ngettext, number
from ui.languages import data as data


def counts_for(
    names: Sequence[str], texts: Sequence[str], what: str
) -> dict[str, tuple[int, ...]]:
    """name -> tokens of each text, for every tokenizer in `names`; `what` names the texts in
    the status line ("40,000 sentences"). Small jobs (under PROGRESS_CHARS characters) and
    counts made before show no status: a bar that lives for milliseconds only flickers."""
    key = data.digest(texts)
    missing = [n for n in names if data.known_counts(n, key) is None]
    if missing and sum(map(len, texts)) >= PROGRESS_CHARS:
        _count_with_status(missing, texts, what, key)
    return {name: data.counts(name, texts, key=key) for name in names}


def _count_with_status(names: Sequence[str], texts: Sequence[str], what: str, key: str) -> None:
    """Count with a bar inside a status box, which stays, folded, to say what it took."""
    began = time.monotonic()
    status = st.status(_("Counting the tokens of {what}…", what=what), expanded=True)
    bar = status.progress(0.0)
    for i, name in enumerate(names):
        doing = _("{name} ({k} of {n})", name=data.shown(data.label(name)),
                  k=number(i + 1), n=number(len(names)))
        bar.progress(i / len(names), text=f"{doing}…")

        def update(done: int, total: int, i: int = i, doing: str = doing) -> None:
            bar.progress((i + done / total) / len(names),
                         text=_("{doing}: {done} of {total} distinct texts", doing=doing,
                                done=number(done), total=number(total)))

        data.counts(name, texts, throttled(update), key)
    bar.empty()
    status.update(
        label=ngettext("Counted the tokens of {what} with {n} tokenizer in {seconds} s",
                       "Counted the tokens of {what} with {n} tokenizers in {seconds} s",
                       len(names), what=what, seconds=number(time.monotonic() - began, 1)),
        state="complete", expanded=False,
    )  # fmt: skip
