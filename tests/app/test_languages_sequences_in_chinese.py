"""The Languages and Sequences pages in Chinese (issue 20), driven by AppTest with `lang=zh` in
the link: titles, tabs and main labels come from the catalog, nothing raises, and every number
on screen (metrics, tables, captions, prose) is the same as in English for the same inputs.

The expected Chinese is read from the catalog (`i18n.translations("zh")`), not copied from the
page; the numbers are compared as multisets of digit runs, so a translation may move a number
but not drop, add or reformat one.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from streamlit.testing.v1 import AppTest

from ui.common import i18n

from .conftest import REPO, TIMEOUT_S, TestThreadLanguage, open_page, shown

pytestmark = pytest.mark.usefixtures("test_thread")

ZH = i18n.translations("zh")
LANGUAGE_TABS = ["Byte ruler", "English vs Chinese", "Many languages", "Emoji", "Grow a vocabulary"]
SEQUENCE_TABS = ["Model input", "Long text", "Batching", "Chat templates"]


def numbers(app: AppTest) -> Counter:
    """Every run of digits the page's main area shows in metrics, captions, prose and tables
    (headers and cells)."""
    main = app.main
    texts = [f"{m.label} {m.value}" for m in main.metric]
    texts += [c.value for c in main.caption] + [m.value for m in main.markdown]
    texts += [e.value for e in (*main.info, *main.warning, *main.error)]
    for table in main.dataframe:
        frame = table.value
        texts += [str(c) for c in frame.columns]
        texts += [str(v) for v in frame.astype(str).to_numpy().ravel()]
    return Counter(n for text in texts for n in re.findall(r"\d+", text))


def run_in(language: str, page: str, tab_key: str, tab: str,
           thread: TestThreadLanguage | None = None) -> AppTest:
    """The page in `language` with `tab` open (set as a click on it does, by its English name:
    the page shows it in the session's language). The `app` fixture cleared the caches once;
    the runs after it share the counts, as sessions of one server do."""
    if thread is not None:
        thread.language = language
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    open_page(app, page, {"lang": language} if language != "en" else None)
    app.session_state[tab_key] = tab
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


@pytest.mark.parametrize(("page", "tab_key", "tabs", "title"), [
    ("pages/languages.py", "lg_tab", LANGUAGE_TABS, "Languages"),
    ("pages/sequences.py", "sq_tab", SEQUENCE_TABS, "Sequences"),
])
def test_the_page_speaks_chinese_and_shows_the_same_numbers(app, test_thread, page, tab_key,
                                                           tabs, title):
    for tab in tabs:
        english = run_in("en", page, tab_key, tab, test_thread)
        chinese = run_in("zh", page, tab_key, tab, test_thread)
        assert chinese.title[0].value == ZH.gettext(title) != title
        assert [t.label for t in chinese.main.tabs] == [ZH.gettext(t) for t in tabs]
        assert [t.label for t in english.main.tabs] == tabs  # English stays as it was
        assert numbers(chinese) == numbers(english), tab
        assert sum(numbers(english).values()) > 0, tab  # the comparison compared something


def test_the_languages_labels_and_headers_are_chinese(app, test_thread):
    test_thread.language = "zh"
    open_page(app, "pages/languages.py", {"lang": "zh"})
    assert app.multiselect(key="lg_tokenizers").label == ZH.gettext("Tokenizers")
    assert app.text_area(key="lg_ruler_text").label == ZH.gettext("Text")
    assert app.toggle(key="lg_ruler_cp").label == ZH.gettext("Show code points (U+…)")
    summary = app.main.dataframe[0].value
    assert list(summary.columns)[:2] == [ZH.gettext("tokenizer"), ZH.gettext("tokens")]
    app.session_state["lg_tab"] = "Grow a vocabulary"
    app.run()
    assert not app.exception
    labels = [m.label for m in app.main.metric]
    assert ZH.gettext("Vocabulary") in labels and ZH.gettext("Held-out characters never seen") in labels
    # the link keeps the tab's English name, whatever the language shows
    assert app.query_params.get("lg_tab") == "Grow a vocabulary"


def test_the_sequences_preset_values_stay_english_and_show_in_chinese(app, test_thread):
    test_thread.language = "zh"
    open_page(app, "pages/sequences.py", {"lang": "zh"})
    preset = app.selectbox(key="sq_preset")
    assert preset.label == ZH.gettext("Preset")
    assert "Sentence pairs (a classifier)" in preset.options or ZH.gettext(
        "Sentence pairs (a classifier)") in preset.options
    preset.set_value("Sentence pairs (a classifier)").run()
    assert not app.exception
    assert app.session_state["sq_preset"] == "Sentence pairs (a classifier)"  # the value
    assert app.query_params.get("sq_preset") == "Sentence pairs (a classifier)"
    assert app.selectbox(key="sq_preset").format_func("Sentence pairs (a classifier)") == (
        ZH.gettext("Sentence pairs (a classifier)"))
    grid = "".join(h.proto.body for h in app.get("html"))
    assert ZH.gettext("attention mask") in grid and ZH.gettext("type ids") in grid
    assert [m.label for m in app.main.metric][0] == ZH.gettext("Sequences")


def test_a_core_refusal_reads_in_chinese(app, test_thread):
    test_thread.language = "zh"
    open_page(app, "pages/sequences.py", {"lang": "zh"})
    app.session_state["sq_tab"] = "Model input"
    app.run()
    app.selectbox(key="sq_strategy").set_value("only_second").run()  # one sentence, no pair
    app.number_input(key="sq_max_length").set_value(4).run()
    assert not app.exception
    said = [e.value for e in app.main.error]
    wanted = ZH.gettext("only_second truncation needs a second sequence; pick longest_first")
    assert any(wanted in shown(s) for s in said), said


def test_the_llama_licence_line_reads_in_chinese(app, test_thread):
    """Sequences' chat tab looked its licence line up by the sentence with the link already in
    it, which is no catalog entry, so Chinese sessions read it in English (a screenshot)."""
    english = "Its tokenizer file is under the"
    zh = run_in("zh", "pages/sequences.py", "sq_tab", "Chat templates", test_thread)
    assert zh.session_state["sq_c_own"] == "llama3"
    lines = [c.value for c in zh.main.caption if "Meta Llama 3" in c.value]
    assert lines and not any(english in line for line in lines), lines
    assert all(ZH.gettext("Built with Meta Llama 3. Its tokenizer file is under the "
                          "[Meta Llama 3 Community License]({url}).").split("[")[0] in line
               for line in lines), lines
