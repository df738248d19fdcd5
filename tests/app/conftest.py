"""AppTest fixtures: the real app script, run headless by Streamlit's own test runner.

Caches are cleared before each test so no test sees another's loaded tokenizers or results.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ui.common.safe_text import WORD_JOINER

REPO = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120  # training our own tokenizers on first use takes a few seconds


@pytest.fixture
def app():
    """A fresh AppTest of app.py (the router), not yet run."""
    st.cache_data.clear()
    st.cache_resource.clear()
    return AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)


def shown(markdown: str) -> str:
    """What a reader sees of Markdown whose user text went through ui.common.safe_text.literal():
    backslash escapes resolved, the invisible word joiners gone."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown).replace(WORD_JOINER, "")


def open_link(app: AppTest, page: str, query: dict[str, str]) -> AppTest:
    """Open `page` straight from a link (not after the Playground, which rewrites the query)."""
    for key, value in query.items():
        app.query_params[key] = value
    app.switch_page(page)
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def open_page(app: AppTest, page: str, query: dict[str, str] | None = None) -> AppTest:
    """Run the app, switch to `page` (a path like "pages/playground.py"), and run it."""
    for key, value in (query or {}).items():
        app.query_params[key] = value
    app.run()
    app.switch_page(page)
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app
