"""The numbers a page shows, read from an AppTest run: for "the same numbers in both languages".

Every run of digits in the page's own text (its main area: titles, captions, Markdown, alerts,
metrics with their labels and deltas, widget labels, table headers and cells), as a multiset.
A translation that drops a figure, or a number formatted by hand in one language only, changes
the multiset; token text and code are the same in both languages, so they cancel out.
"""

from __future__ import annotations

import re
from collections import Counter

DIGITS = re.compile(r"\d+")
TEXT_ELEMENTS = ("title", "header", "subheader", "caption", "markdown", "info", "warning",
                 "error", "success", "code")
LABELLED = ("selectbox", "number_input", "text_input", "text_area", "toggle", "button",
            "radio", "multiselect")


def texts(app) -> list[str]:
    main = app.main
    found: list[str] = []
    for kind in TEXT_ELEMENTS:
        found += [str(getattr(e, "value", None) or getattr(e, "body", ""))
                  for e in getattr(main, kind)]
    for m in main.metric:
        found += [m.label, str(m.value), str(m.proto.delta or "")]
    for kind in LABELLED:
        found += [w.label for w in getattr(main, kind)]
    for frame in main.dataframe:
        table = frame.value
        found += [str(c) for c in table.columns]
        found += [str(v) for v in table.astype(str).to_numpy().ravel()]
    return found


def numbers(app) -> Counter[str]:
    return Counter(n for text in texts(app) for n in DIGITS.findall(text))
