"""The Vocabulary page with `lang=zh` in the link: its title, tabs and labels are the catalog's
Chinese, and every number on screen is the one the English page shows (issue 20)."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from ui.common import i18n

from .conftest import REPO, TIMEOUT_S, open_page
from .screen_numbers import numbers, texts

PAGE = "pages/vocabulary.py"
ZH = i18n.translations("zh")


def run(lang: str, tab: str, query: str = "") -> AppTest:
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    open_page(app, PAGE, {"lang": lang} if lang != "en" else None)
    app.session_state["vc_tab"] = tab
    app.run()
    if query:
        app.text_input(key="vc_query").input(query).run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def test_the_page_speaks_chinese():
    app = run("zh", "Table", "ing")
    assert app.title[0].value == ZH.gettext("Vocabulary") == "词表"
    assert [m.label for m in app.main.metric] == [
        ZH.gettext(s) for s in ("Size (largest id + 1)", "Tokens", "Ids no token holds")]
    assert app.text_input(key="vc_query").label == ZH.gettext("Search")
    assert app.selectbox(key="vc_kind").label == ZH.gettext("Search by")
    pages = app.main.number_input[0].label
    before, after = ZH.gettext("Page (1 to {pages})").split("{pages}")
    assert pages.startswith(before) and pages.endswith(after) and pages[len(before):-1].isdigit()
    # the column config sent to the browser: the headers it shows
    headers = [c["label"] for c in json.loads(app.main.dataframe[0].proto.columns).values()
               if "label" in c]
    assert ZH.gettext("merge rank") in headers and ZH.gettext("script") in headers
    assert app.session_state["vc_tab"] == ZH.gettext("Table")  # shown translated ...
    # ... and linked in English
    assert app.query_params["vc_tab"] == "Table" and app.query_params["lang"] == "zh"
    assert not any("tokens match" in t for t in texts(app))


@pytest.mark.parametrize(("tab", "query"), [
    ("Table", "ing"), ("Table", "(a"), ("Compare", ""), ("Pre-tokenization", ""), ("Design", ""),
    ("Glitches & growth", ""),
])
def test_the_numbers_are_the_same_in_both_languages(tab, query):
    english, chinese = run("en", tab, query), run("zh", tab, query)
    assert numbers(english) == numbers(chinese)
    assert sum(numbers(english).values()) >= 5  # the page shows numbers: the test compares some


def test_the_pre_tokenizers_are_named_in_chinese(test_thread):
    test_thread.language = "zh"  # the picker's labels are Chinese in the test's thread too
    app = run("zh", "Pre-tokenization")
    app.multiselect(key="vc_splitters").set_value(["gpt2", "bert", "sentencepiece"]).run()
    assert not app.exception, [e.value for e in app.exception]
    bert, sentencepiece = (ZH.gettext(s) for s in (
        "BERT (whitespace and punctuation)", "SentencePiece (no pre-split, ▁ for space)"))
    assert (bert, sentencepiece) == ("BERT（按空白和标点切分）", "SentencePiece（不做预分词，空格记作 ▁）")
    quirks = app.main.dataframe[-1].value  # the quirks side by side: one column per pre-tokenizer
    assert {"GPT-2", bert, sentencepiece} <= set(quirks.columns)
    shown = " ".join(texts(app))
    assert f"**{bert}**" in shown and "whitespace and punctuation" not in shown
