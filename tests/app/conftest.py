"""AppTest fixtures: the real app script, run headless by Streamlit's own test runner.

Caches are cleared before each test so no test sees another's loaded tokenizers or results.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ui.common import i18n
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


def open_box(app: AppTest, key: str) -> AppTest:
    """Open the lazy expander keyed `key` (ui.common.lazy_expander: drawn only while open), as a
    person's click does, and run."""
    app.session_state[key] = True
    app.run()
    return app


def uploader(app: AppTest, key: str):
    """The file uploader keyed `key`. One inside a lazy box (keyed `{key}_box`) is drawn only
    while the box is open: then the box is opened first."""
    if not any(u.key == key for u in app.file_uploader):
        open_box(app, f"{key}_box")
    return app.file_uploader(key=key)


def page_components(app: AppTest) -> list:
    """The page's own components v2 (players, lattices), without the lone-surrogate guard
    that the shared sidebar mounts on every page."""
    return [c for c in app.get("bidi_component") if c.key != "tokex_unicode_guard"]


class TestThreadLanguage:
    """AppTest calls a widget's format_func in the test's own thread, outside any session, to
    find the label of the value it sends back on the next run; there i18n finds no session and
    says English, so a Chinese label would not be found and the value would be dropped (the
    browser sends the label it shows, found in the session's language). In the test's thread
    only, the language is the one the app under test speaks."""

    __test__ = False  # a helper, not a test class

    def __init__(self) -> None:
        self.language = "en"
        self.thread = threading.get_ident()


@pytest.fixture
def test_thread(monkeypatch) -> TestThreadLanguage:
    mine = TestThreadLanguage()
    real = i18n.current_language
    monkeypatch.setattr(i18n, "current_language", lambda: (
        mine.language if threading.get_ident() == mine.thread else real()))
    return mine
