"""The Unigram & SentencePiece page in Chinese (issue 20): a link with lang=zh shows the page's
own words in Chinese (expected text from the catalog), the link keeps the open tab's English
name, and every number on screen is the same in both languages, tab by tab.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from streamlit.testing.v1 import AppTest

from ui.common import i18n
from ui.unigram.source import TABS

from .conftest import REPO, TIMEOUT_S, open_link

PAGE = "pages/unigram.py"
SMALL = {"ug_corpus": "english", "ug_vocab": "300"}
zh = i18n.translations("zh").gettext


def opened(app, lang: str, tab: str):
    query = {**SMALL, "ug_tab": tab, **({"lang": lang} if lang != "en" else {})}
    return open_link(app, PAGE, query)


def screen_texts(app) -> list[str]:
    texts = [e.value for kind in ("caption", "markdown", "info", "warning", "error", "success",
                                  "subheader") for e in app.get(kind)]
    texts += [df.value.to_csv(index=False, header=False) for df in app.dataframe]
    texts += [h.proto.body for h in app.get("html")]
    return texts


def numbers(texts: list[str]) -> Counter:
    return Counter(re.findall(r"\d+", " ".join(texts)))


def test_the_title_tabs_and_settings_are_chinese(app):
    opened(app, "zh", TABS[1])
    assert [t.value for t in app.title] == [zh("Unigram & SentencePiece")]
    assert [t.label for t in app.tabs] == [zh(t) for t in TABS]
    assert zh(TABS[1]) != TABS[1]
    assert app.session_state["ug_tab"] == zh(TABS[1])  # the tab the link named is open
    assert app.query_params["ug_tab"] == TABS[1]  # and the link keeps its English name
    assert app.number_input(key="ug_vocab").label == zh("Vocabulary size")
    assert app.text_input(key="ug_text").label == zh("A word or short text")
    assert not app.exception


@pytest.mark.parametrize("tab", TABS)
def test_the_numbers_are_the_same_in_both_languages(app, tab, monkeypatch):
    english = numbers(screen_texts(opened(app, "en", tab)))
    chinese_app = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    # AppTest formats a selectbox's value again in the test's own thread (outside the session)
    monkeypatch.setattr(i18n, "current_language", lambda: "zh")
    chinese = numbers(screen_texts(opened(chinese_app, "zh", tab)))
    assert sum(english.values()) > 20
    assert chinese == english
