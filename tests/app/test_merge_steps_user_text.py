"""Merge steps' own corpus is user text (issue 23, items 4 and 6): its words, offered as the
encode replay's pills, reach Streamlit's Markdown only escaped, and a corpus holding U+FFFD (what
the browser puts for half of a surrogate pair) says what that character is.
"""

from __future__ import annotations

from ui.common.unicode_guard import REPLACEMENT_NOTE

from .conftest import open_page, shown
from .test_merge_steps import PAGE, tab

IMAGE = "![x](http://127.0.0.1:9/pill.png)"
CORPUS = f"{IMAGE} **bold** low lower {IMAGE} lowest"


def own_corpus(app, text: str):
    open_page(app, PAGE)
    app.selectbox(key="ms_source").set_value("own").run()
    app.text_area(key="ms_text").set_value(text).run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def test_the_replay_pills_show_the_corpus_words_as_text(app):
    own_corpus(app, CORPUS)
    tab(app, "replay")
    pills = app.pills(key="ms_replay_try")
    labels = [o.content for o in pills.proto.options]
    assert {IMAGE, "**bold**"} <= {shown(label) for label in labels}  # the words, as typed
    assert not any("![" in label or "](" in label or "**b" in label for label in labels), labels


def test_a_corpus_holding_the_replacement_character_says_what_it_is(app):
    own_corpus(app, "low lower lowest")
    assert REPLACEMENT_NOTE not in [c.value for c in app.caption]
    app.text_area(key="ms_text").set_value("low lo\ufffdwer lowest").run()  # a guarded lone half
    assert not app.exception
    assert REPLACEMENT_NOTE in [c.value for c in app.caption]
    assert app.text_area(key="ms_text").value == "low lo\ufffdwer lowest"  # nothing dropped
