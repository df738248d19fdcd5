"""The Playground and the shared sidebar in Chinese (issue 20): a link with lang=zh shows the
page's own words from the catalog, every number on screen is the one the English page shows, and
a lesson file keeps the language it was saved in.

Expected words come from the catalog (`i18n.translations("zh")`), not from copies of the page's
output; expected numbers from the same page run in English.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from streamlit.testing.v1 import AppTest

from tests.shared import html_frames, tiktoken_encoding
from ui.common import i18n
from ui.common.lesson_file import LESSON_FORMAT, dump_lesson
from ui.common.lesson_plan import NOTICE_KEY, PLAN_KEY, UPLOAD_KEY
from ui.common.safe_text import literal

from .conftest import REPO, TIMEOUT_S, open_box, open_page, uploader

PAGE = "pages/playground.py"
ZH = i18n.translations("zh")
# Han, Latin, digits and the emoji of a mixed text; a row of spaces; a character cut by GPT-2.
TEXT = "Tokenizers cut 1,234,567 words: 你好，世界🙂 and   spaces."


def zh(message: str) -> str:
    return ZH.gettext(message)


def chinese_app(app: AppTest, query: dict[str, str] | None = None) -> AppTest:
    return open_page(app, PAGE, {"lang": "zh", **(query or {})})


def numbers_on_screen(app: AppTest) -> Counter[str]:
    """Every run of digits the page's own numbers show: metrics, tables, captions (the sidebar's
    words excepted: they hold none of the page's numbers)."""
    texts = [m.value for m in app.metric] + [c.value for c in app.main.caption]
    for frame in [f.value for f in app.dataframe] + html_frames(app):
        texts += [str(v) for v in frame.to_numpy().ravel()]
    return Counter(d for text in texts for d in re.findall(r"\d+", text))


def test_the_playground_speaks_chinese_from_a_link(app):
    chinese_app(app)
    assert app.title[0].value == zh("Playground") != "Playground"
    assert app.multiselect(key="pg_tokenizers").label == zh("Tokenizers")
    assert app.text_area(key="pg_text").label == zh("Text")
    assert app.toggle(key="pg_special").label == zh("Encode special tokens")
    assert app.selectbox(key="pg_window").label == zh("Context window")
    assert [s.value for s in app.subheader] == [zh("Numbers"), zh("Tokens")]
    assert {m.label for m in app.metric} == {zh("Tokens")}
    # The table's headers are Chinese; its token text and ids are what the tokenizer gave.
    headers = list(html_frames(app)[0].columns)
    assert zh("tokenizer") in headers and zh("round trip") in headers
    assert "tokenizer" not in headers
    # The token panels' readout line, which the core writes in English, is said in Chinese.
    hint = zh("Hover a token to see its id and bytes.")
    assert sum(hint in (h.proto.body or "") for h in app.get("html")) == 3
    # The view switch shows Chinese while its value, the one in links and files, stays English.
    assert app.session_state["pg_view"] == "text"
    assert app.query_params.get("view") == "text" and app.query_params.get("lang") == "zh"


def test_the_numbers_are_the_same_in_both_languages(app):
    query = {"text": TEXT, "tok": "gpt2,o200k_base,ours:bpe,bert-base-uncased", "ctx": "4096"}
    english = open_page(app, PAGE, query)
    expected = numbers_on_screen(english)
    assert expected, "the English page shows numbers"
    chinese = open_page(AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S), PAGE,
                        {"lang": "zh", **query})
    assert chinese.title[0].value == zh("Playground")
    assert numbers_on_screen(chinese) == expected
    # and the counts themselves are tiktoken's, in both
    assert [m.value for m in chinese.metric] == [m.value for m in english.metric]


def test_a_count_over_a_thousand_is_grouped_in_chinese_too(app):
    text = "a " * 1_200
    chinese_app(app, {"tok": "gpt2"})
    app.text_area(key="pg_text").set_value(text).run()  # longer than a link keeps
    count = len(tiktoken_encoding("gpt2").encode_ordinary(text))
    assert count > 1_000 and app.metric[0].value == f"{count:,}"  # CLDR zh groups by thousands


# --- lesson files keep the language ---------------------------------------------------------


def saved_lesson(app: AppTest) -> bytes:
    """This screen, added to the teacher's path, as the lesson file the sidebar downloads."""
    open_box(app, "lesson_upload_box")  # the sidebar's tools, drawn only while open
    app.button(key="lesson_add").click().run()
    return dump_lesson(app.session_state[PLAN_KEY]).encode("utf-8")


def open_file(app: AppTest, raw: bytes) -> AppTest:
    uploader(app, UPLOAD_KEY).set_value(("lesson.json", raw, "application/json")).run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def fresh() -> AppTest:
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    app.run()
    return app


def sidebar_toggle(app: AppTest) -> str:
    return app.sidebar.toggle[0].label


def test_a_lesson_file_saved_in_chinese_opens_in_chinese(app):
    chinese_app(app, {"text": TEXT, "tok": "gpt2"})
    raw = saved_lesson(app)
    assert json.loads(raw)["steps"][0]["params"]["lang"] == "zh"

    english = fresh()  # another session: a browser in English
    assert sidebar_toggle(english) == "Presentation mode"
    open_file(english, raw)
    assert sidebar_toggle(english) == zh("Presentation mode")
    assert english.sidebar.radio[0].value == "zh"
    assert english.title[0].value == zh("Playground")
    assert english.text_area(key="pg_text").value == TEXT
    kind, message = english.session_state[NOTICE_KEY]
    assert kind == "success"
    assert message == zh("Opened {file}: one screen.").format(file=literal("lesson.json"))
    assert english.query_params.get("lang") == "zh"


def test_a_lesson_file_saved_in_english_opens_in_english(app):
    open_page(app, PAGE)
    raw = saved_lesson(app)
    assert json.loads(raw)["steps"][0]["params"]["lang"] == "en"
    chinese = chinese_app(AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S))
    open_file(chinese, raw)
    assert sidebar_toggle(chinese) == "Presentation mode"
    assert "lang" not in chinese.query_params


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_version_1_file_without_a_language_keeps_the_sessions(app, language):
    old = json.dumps({"format": LESSON_FORMAT, "version": 1, "steps": [
        {"page": "playground", "title": "Playground", "params": {"text": "old file"}}]})
    open_page(app, PAGE, {"lang": language})
    open_file(app, old.encode("utf-8"))
    assert app.sidebar.radio[0].value == language
    assert app.text_area(key="pg_text").value == "old file"


# --- refusals the page shows ------------------------------------------------------------------


def test_a_file_that_is_not_a_tokenizer_is_refused_in_chinese(app):
    from tokenizer_core.reference.hf import UNUSABLE
    from tokenizer_core.reference.isolated import _NAMED

    chinese_app(app)
    uploader(app, "pg_hf_upload").set_value(
        ("bad.json", b'{"hello": 1}', "application/json")).run()
    assert not app.exception
    kind, message = app.session_state["pg_hf_message"]
    # the sentence up to HF's own words (its version and its error text stay as HF wrote them)
    opening = zh(_NAMED[UNUSABLE["load"]]).split("{version}")[0].format(name="bad.json")
    assert kind == "error" and opening != "bad.json: " and message.startswith(opening)


def test_a_text_upload_too_long_is_refused_in_chinese(app):
    from ui.playground.limits import MAX_TOKENIZE_CHARS

    chinese_app(app)
    before = app.text_area(key="pg_text").value
    uploader(app, "pg_upload").set_value(
        ("long.txt", ("字" * (MAX_TOKENIZE_CHARS + 1)).encode(), "text/plain")).run()
    assert not app.exception
    assert app.text_area(key="pg_text").value == before
    expected = zh("{file} has {count} characters; {takes} up to {bound}. Upload a shorter part; "
                  "{kept}.").format(file="long.txt", count=f"{MAX_TOKENIZE_CHARS + 1:,}",
                                    takes=zh("the Playground tokenizes"),
                                    bound=f"{MAX_TOKENIZE_CHARS:,}",
                                    kept=zh("the text in the box is unchanged"))
    assert app.session_state["pg_upload_error"] == expected
