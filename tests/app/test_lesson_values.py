"""What JSON can hold and a link cannot, on every page: half of a surrogate pair and a number
of 5,000 digits (issue 23, item 4). Each is a quiet note or the file's refusal in words, never
a traceback; a lesson file's version is the integer 1 only (item 6).

Every page is opened with a step holding the bad value in every parameter its own link writes
and in each of its texts (long texts are only in lesson files, so no link of the page shows them).
"""

from __future__ import annotations

import json

import pytest

from ui.common.lesson_file import LESSON_FORMAT, LessonFileError, Step, load_lesson
from ui.common.lesson_plan import NOTICE_KEY, UPLOAD_KEY, app_pages
from ui.common.page_state import PENDING_KEY

from .conftest import open_link, open_page, uploader

TEXTS = {  # every page's texts that a lesson file may carry (what ui/*/link reads as text)
    "playground": ["text"],
    "merge_steps": ["ms_text"],
    "unigram": ["ug_text", "ug_word"],
    "compression": ["cp_upload_text", "cp_upload_name"],
    "languages": ["lg_text"],
    "sequences": ["sq_a", "sq_b", "sq_own", "sq_w_text", "sq_c_tags", "sq_c_user",
                  "sq_b_upload_text", "sq_b_upload_name"],
    "vocabulary": ["vc_text"],
    "practice": [],
}
# Compression trains what it shows: small corpora and no HF lines keep its first run short
# (tests/app/test_compression.py does the same). A bad value falls back to these.
FAST = {"compression": {"cp_corpora": ["code", "emoji"], "cp_hf": [], "cp_vocab": 1_000}}
LONE = "a \ud800 b"  # what json.loads makes of "a \\ud800 b"
DIGITS = "9" * 5_000


def test_every_page_is_listed():
    assert sorted(TEXTS) == app_pages()


def notes(app) -> str:
    return " ".join(c.value for c in app.caption)


def open_step(app, page: str, params: dict[str, str]) -> None:
    app.session_state[PENDING_KEY] = Step(page, page, params)
    app.run()
    assert not app.exception, [e.value for e in app.exception]


@pytest.mark.parametrize("page", sorted(TEXTS))
def test_every_page_takes_what_json_can_hold_quietly(app, page):
    """One app per page (a page's first run trains what it shows; the cache lasts the test)."""
    for key, value in FAST.get(page, {}).items():
        app.session_state[key] = value
    app = open_page(app, f"pages/{page}.py")
    names = [*(k for k in app.query_params if k != "present"), *TEXTS[page]]

    loaded = load_lesson(json.dumps({"format": LESSON_FORMAT, "version": 1, "steps": [
        {"page": page, "params": dict.fromkeys(names, LONE)}]}).encode(), app_pages())
    assert loaded[0].params[names[0]] == LONE, "JSON's \\ud800 is a lone surrogate in Python"
    open_step(app, page, loaded[0].params)
    if TEXTS[page]:
        assert "surrogate pair" in notes(app)
    if len(names) > len(TEXTS[page]):  # numbers or choices in its link: each fails its check
        assert "was not used" in notes(app) or "does not know" in notes(app)

    open_step(app, page, dict.fromkeys(names, DIGITS))
    if len(names) > len(TEXTS[page]):
        assert "was not used" in notes(app) or "does not know" in notes(app)

    raw = ('{"format": "%s", "version": 1, "steps": [{"page": "%s", "params": {"n": %s}}]}'
           % (LESSON_FORMAT, page, DIGITS)).encode()
    uploader(app, UPLOAD_KEY).set_value(("big.json", raw, "application/json")).run()
    assert not app.exception, [e.value for e in app.exception]
    kind, message = app.session_state[NOTICE_KEY]
    assert kind == "error" and "5,000 digits" in message


@pytest.mark.parametrize("version", ["true", "1.0", "1e0", "-1", "2", "[1]"])
def test_a_lesson_files_version_is_the_integer_1_only(version):
    raw = f'{{"format": "{LESSON_FORMAT}", "version": {version}, "steps": [{{"page": "playground"}}]}}'
    with pytest.raises(LessonFileError, match="of version"):
        load_lesson(raw.encode(), app_pages())


def test_a_title_with_half_a_surrogate_pair_shows_u_fffd(app):
    raw = json.dumps({"format": LESSON_FORMAT, "version": 1, "steps": [
        {"page": "playground", "title": "one \ud800"}, {"page": "languages", "title": "two"}]})
    app = open_page(app, "pages/playground.py")
    uploader(app, UPLOAD_KEY).set_value(("t.json", raw.encode(), "application/json")).run()
    assert not app.exception, [e.value for e in app.exception]
    assert any("one \ufffd" in m.value for m in app.sidebar.markdown)


@pytest.mark.parametrize("page, query, value", [
    ("vocabulary", {"vc_tokenizer": "nonsense", "vc_tab": "Table"}, "nonsense"),
    ("compression", {"cp_vocab": "12345"}, "12345"),
])
def test_compression_and_vocabulary_say_what_their_link_could_not_use(app, page, query, value):
    """Issue 23 item 6: these two dropped a bad link value silently; the other six say so."""
    for key, fast in FAST.get(page, {}).items():
        app.session_state[key] = fast
    app = open_link(app, f"pages/{page}.py", query)
    assert f"value “{value}” was not used" in notes(app).replace("\\", "")
