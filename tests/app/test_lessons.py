"""Lesson links and files: presentation mode kept in the link, a screen saved whole and reopened,
a teacher's path walked with next/previous, and every kind of bad lesson file refused in words.

The format is checked on its own (ui/common/lesson_file.py); the reopening runs the real app in
Streamlit's AppTest, with the step put where an upload puts it (AppTest has no file uploads).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.common.lesson_file import (
    LESSON_FORMAT,
    LESSON_VERSION,
    LessonFileError,
    Step,
    dump_lesson,
    load_lesson,
)
from ui.common.lesson_plan import AT_KEY, PLAN_KEY, UPLOAD_KEY, app_pages
from ui.common.limits import (
    MAX_LESSON_FILE_BYTES,
    MAX_LESSON_PARAMS,
    MAX_LESSON_STEPS,
    MAX_LESSON_VALUE_CHARS,
)
from ui.common.page_state import PENDING_KEY, SCREEN_KEY
from ui.merge_steps.limits import MAX_URL_TEXT_CHARS as MERGE_LINK_CHARS
from ui.playground.limits import MAX_URL_TEXT_CHARS

from .conftest import open_box, open_link, open_page, uploader

PAGES = ["languages", "merge_steps", "playground"]


def lesson(steps: list[dict], **top) -> bytes:
    body = {"format": LESSON_FORMAT, "version": LESSON_VERSION, "steps": steps} | top
    return json.dumps(body).encode("utf-8")


# --- the format ---------------------------------------------------------------------------------


def test_the_pages_a_lesson_may_name_are_the_apps_pages():
    assert {"playground", "merge_steps", "compression", "languages"} <= set(app_pages())


names = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)
values = st.text(max_size=50)


@given(st.lists(st.builds(Step, st.sampled_from(PAGES), st.text(max_size=30),
                          st.dictionaries(names, values, max_size=5)), min_size=1, max_size=5))
def test_a_lesson_file_reads_back_as_written(steps):
    assert load_lesson(dump_lesson(steps).encode("utf-8"), PAGES) == steps


@pytest.mark.parametrize("raw, words", [
    (b"\xff\xfe not utf-8", "not UTF-8"),
    (b"{not json", "not JSON"),
    (b"[" * 100_000, "not"),
    (b'"a string"', "not a lesson file"),
    (json.dumps({"format": "something else", "version": 1}).encode(), "not a lesson file"),
    (lesson([], version=2), "version 2"),
    (lesson([], version="1"), 'version "1"'),
    (lesson([]), 'no "steps"'),
    (lesson([{"page": "../../etc/passwd"}]), "does not have"),
    (lesson([{"page": "nowhere"}]), "does not have"),
    (lesson(["playground"]), "not an object"),
    (lesson([{"page": "playground", "params": ["text"]}]), "params are not an object"),
    (lesson([{"page": "playground", "params": {"text": 5}}]), "not a text"),
    (lesson([{"page": "playground", "params": {"Bad Name": "x"}}]), "named"),
    (lesson([{"page": "playground", "title": 7}]), "title"),
    (lesson([{"page": "playground", "params": {"text": "x" * (MAX_LESSON_VALUE_CHARS + 1)}}]),
     "characters"),
    (lesson([{"page": "playground", "params": {f"p{n}": "x" for n in range(MAX_LESSON_PARAMS + 1)}}]),
     "params"),
    (lesson([{"page": "playground"}] * (MAX_LESSON_STEPS + 1)), "steps"),
    (b" " * (MAX_LESSON_FILE_BYTES + 1), "bytes"),
])
def test_a_bad_lesson_file_is_refused_with_a_reason(raw, words):
    with pytest.raises(LessonFileError, match=words):
        load_lesson(raw, PAGES)


# --- presentation mode in the link --------------------------------------------------------------


def test_presentation_mode_is_kept_in_every_pages_link(app):
    app = open_page(app, "pages/merge_steps.py")
    assert "present" not in app.query_params
    app.sidebar.toggle[0].set_value(True).run()
    assert app.query_params.get("present") == "1"
    assert app.query_params.get("ms_level"), "the page's own values are still in its link"
    app.switch_page("pages/compression.py").run()  # a page that writes no link of its own
    assert app.query_params.get("present") == "1"
    app.sidebar.toggle[0].set_value(False).run()
    assert "present" not in app.query_params


def test_a_link_with_present_opens_in_presentation_mode(app):
    app = open_link(app, "pages/languages.py", {"present": "1"})
    assert app.sidebar.toggle[0].value is True
    assert any("font-size: 20px" in (h.proto.body or "") for h in app.get("html"))


# --- a screen saved whole, and reopened ---------------------------------------------------------


def test_the_playgrounds_screen_keeps_text_too_long_for_its_link(app):
    long_text = "A lesson text that no link can carry. " * 100
    assert len(long_text) > MAX_URL_TEXT_CHARS
    app = open_page(app, "pages/playground.py")
    app.text_area(key="pg_text").set_value(long_text).run()
    assert "text" not in app.query_params, "too long for the link"
    screen = app.session_state[SCREEN_KEY]
    assert screen["page"] == "playground" and screen["params"]["text"] == long_text


def test_a_lesson_step_reopens_the_playground_exactly(app):
    long_text = "Opened from a lesson file, whole. " * 100
    step = Step("playground", "Playground", {"text": long_text, "tok": "gpt2,cl100k_base",
                                             "view": "ids", "ws": "1"})
    app = open_page(app, "pages/playground.py")
    app.session_state[PENDING_KEY] = step
    app.run()
    assert app.text_area(key="pg_text").value == long_text
    assert app.multiselect(key="pg_tokenizers").value == ["gpt2", "cl100k_base"]
    assert PENDING_KEY not in app.session_state, "a step is read once"


def test_a_lesson_step_for_another_page_switches_to_it(app):
    corpus = "low lower lowest newer newest widest " * 60
    assert len(corpus) > MERGE_LINK_CHARS
    step = Step("merge_steps", "Merge steps", {"ms_source": "own", "ms_text": corpus,
                                               "ms_level": "word", "ms_merges": "7"})
    app = open_page(app, "pages/playground.py")
    app.session_state[PENDING_KEY] = step
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    assert app.title[0].value == "Merge steps"
    assert app.text_area(key="ms_text").value == corpus
    assert app.session_state["ms_merges"] == 7


def test_a_bad_value_in_a_lesson_step_is_a_note_not_a_crash(app):
    step = Step("languages", "Languages", {"lg_tab": "<script>alert(1)</script>",
                                           "lg_tok": "gpt2,nonsense", "lg_cp": "maybe"})
    app = open_page(app, "pages/languages.py")
    app.session_state[PENDING_KEY] = step
    app.run()
    assert not app.exception
    notes = " ".join(c.value for c in app.caption)
    assert "nonsense" in notes and "lg_cp" in notes
    assert app.multiselect(key="lg_tokenizers").value == ["gpt2"]


# --- a teacher's path -----------------------------------------------------------------------------


def test_a_path_built_from_screens_walks_back_and_forth(app):
    app = open_page(app, "pages/languages.py")
    open_box(app, "lesson_upload_box")  # the sidebar's tools, drawn only while open
    app.button(key="lesson_add").click().run()
    app.switch_page("pages/merge_steps.py").run()
    app.selectbox(key="ms_source").set_value("preset:low_newest").run()
    app.number_input(key="ms_merges").set_value(4).run()
    open_box(app, "lesson_upload_box")  # a page of its own: the box starts closed there
    app.button(key="lesson_add").click().run()
    plan = app.session_state[PLAN_KEY]
    assert [s.page for s in plan] == ["languages", "merge_steps"]
    assert plan[1].params["ms_merges"] == "4"
    # The class moves things about; the path still reopens the screens as they were added.
    app.number_input(key="ms_merges").set_value(9).run()
    app.button(key="lesson_prev").click().run()
    assert app.title[0].value == "Languages"
    assert app.session_state[AT_KEY] == 0
    app.button(key="lesson_next").click().run()
    assert app.title[0].value == "Merge steps"
    assert app.session_state["ms_merges"] == 4
    assert app.button(key="lesson_next").disabled


# --- a lesson file is opened once -------------------------------------------------------------

PRACTICE_777 = {"page": "practice", "title": "Masking, seed 777",
                "params": {"pr_tab": "Random masking", "pr_seed": "777"}}


def upload_lesson(app, steps: list[dict]) -> tuple[str, str, bytes, str]:
    """Choose a lesson file in the sidebar's box; the upload as the browser keeps it."""
    uploader(app, UPLOAD_KEY).set_value(("lesson.json", lesson(steps), "application/json"))
    upload = uploader(app, UPLOAD_KEY)._files[0]
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return upload


def still_in_the_box(app, upload: tuple[str, str, bytes, str]) -> None:
    """What the browser did after a page switch: the uploader's id includes the page, so the
    new page's uploader is a new widget, and the browser handed it the file still in the box
    (same file_id) with the next change of any control. Now the box is closed on the new page
    and its uploader not drawn; the guard stays, and this opens the box to test it. subtle: AppTest gives each set_value a
    new file_id (a new upload), so the kept upload is put back as it was."""
    uploader(app, UPLOAD_KEY)._files = [upload]


def test_a_lesson_file_of_one_screen_is_opened_once(app):
    app.run()
    upload = upload_lesson(app, [PRACTICE_777])
    assert app.title[0].value == "Practice" and app.session_state["pr_seed"] == 777
    still_in_the_box(app, upload)
    app.number_input(key="pr_seed").set_value(1234).run()
    assert app.session_state["pr_seed"] == 1234


def test_a_lesson_path_is_not_restarted_by_the_file_still_in_the_box(app):
    app.run()
    upload = upload_lesson(app, [{"page": "languages", "title": "What Chinese costs"},
                                 {"page": "sequences", "title": "Windows"}, PRACTICE_777])
    assert app.title[0].value == "Languages"
    for title in ("Sequences", "Practice"):
        app.button(key="lesson_next").click().run()
        assert app.title[0].value == title
    assert app.session_state["pr_seed"] == 777
    still_in_the_box(app, upload)
    app.number_input(key="pr_seed").set_value(1234).run()
    assert not app.exception, [e.value for e in app.exception]
    assert app.title[0].value == "Practice" and app.session_state[AT_KEY] == 2
    assert app.session_state["pr_seed"] == 1234


def test_choosing_the_same_file_again_opens_it_again(app):
    app.run()
    upload_lesson(app, [PRACTICE_777])
    app.number_input(key="pr_seed").set_value(1234).run()
    upload_lesson(app, [PRACTICE_777])  # a new upload, the same bytes: the teacher resets
    assert app.session_state["pr_seed"] == 777


# --- Compression in its link ----------------------------------------------------------------------


def test_compressions_choices_go_into_its_link_and_come_back(app):
    app = open_link(app, "pages/compression.py", {
        "cp_corpora": "chinese", "cp_vocab": "2000", "cp_held_out": "30", "cp_compare": "500",
        "cp_metric": "bytes_per_token", "cp_hf": "", "cp_train": "1"})
    state = app.session_state
    assert state["cp_corpora"] == ["chinese"] and state["cp_vocab"] == 2_000
    assert state["cp_held_out"] == 30 and state["cp_compare"] == 500
    assert state["cp_metric"] == "bytes_per_token" and state["cp_hf"] == [] and state["cp_train"]
    link = app.query_params
    assert link["cp_corpora"] == "chinese" and link["cp_vocab"] == "2000"
    assert link["cp_held_out"] == "30" and link["cp_metric"] == "bytes_per_token"


def test_a_compression_lesson_step_brings_its_uploaded_corpus(app):
    corpus = "A corpus uploaded in class, which no link could carry. " * 50
    step = Step("compression", "Compression", {"cp_upload_text": corpus, "cp_upload_name": "class.txt",
                                               "cp_corpora": "upload", "cp_vocab": "1000", "cp_hf": ""})
    app = open_page(app, "pages/playground.py")
    app.session_state[PENDING_KEY] = step
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    assert app.title[0].value == "Compression"
    assert app.session_state["cp_corpora"] == ["upload"]
    assert app.session_state[SCREEN_KEY]["params"]["cp_upload_text"] == corpus
    assert "cp_upload_text" not in app.query_params


def test_the_vocabulary_page_keeps_its_tokenizer_tab_and_text_in_its_link(app):
    app = open_link(app, "pages/vocabulary.py", {"vc_tokenizer": "cl100k_base",
                                                  "vc_tab": "Pre-tokenization", "vc_text": "don't 123456"})
    assert app.selectbox(key="vc_tokenizer").value == "cl100k_base"
    assert app.text_area(key="vc_split_text").value == "don't 123456"
    link = app.query_params
    assert link["vc_tokenizer"] == "cl100k_base" and link["vc_tab"] == "Pre-tokenization"
    assert link["vc_text"] == "don't 123456"
