"""A picker's format_func must be made in the run (catalog.label_of()), never catalog.label itself.

AppTest, and Streamlit's own widget state, call a format_func again outside the script run,
where catalog.label cannot see the session: it took an HF-cache name for an upload there, and
CI's run of the Vocabulary page failed on it ("uploaded (HF tokenizer.json)" is not in list).
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BARE_LABEL = re.compile(r"format_func\s*=\s*catalog\.label\b(?!_of)")


def test_no_picker_formats_its_choices_with_catalog_label_itself():
    found = [f"{path.relative_to(REPO)}:{n}"
             for path in [*REPO.glob("ui/**/*.py"), *REPO.glob("pages/*.py"), REPO / "app.py"]
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if BARE_LABEL.search(line)]
    assert found == []
