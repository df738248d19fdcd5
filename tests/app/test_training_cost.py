"""Work bounded by what it costs, and stopped when nobody waits (issue 9, item 6c).

Text with no spaces is one enormous chunk: 60 KB of Chinese once ran for minutes on Compression,
and on Merge steps kept 30 M symbols of history and sent the browser a 229 MB trace. Here the
pages answer with a clear message instead; the trace sent to the player is bounded by its real
size and says what it left out; a page's training stops when its session is gone.
"""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest
from streamlit.runtime.scriptrunner import StopException

import ui.common.cancel as cancel
from tokenizer_core import corpus_from_text, train_bpe
from tokenizer_core.bounds import MAX_HF_WORD_BYTES, MAX_HISTORY_SYMBOLS
from tokenizer_core.lessons.bpe_steps import build_lesson
from ui.merge_steps.limits import MAX_TRACE_BYTES, TOP_CANDIDATES
from ui.merge_steps.player import json_bytes, player_payload

from .conftest import open_page, page_components, shown, uploader

MERGE_STEPS = "pages/merge_steps.py"
COMPRESSION = "pages/compression.py"


def random_chinese(n: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    return "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(n))


# --- Merge steps: the history bound, then the trace bound ---------------------------------------


def own_corpus(app, text: str, level: str, merges: int):
    app.session_state["ms_source"] = "own"
    app.session_state["ms_level"] = level
    app.session_state["ms_merges"] = merges
    app.session_state["ms_text"] = text
    return open_page(app, MERGE_STEPS)


def test_merge_steps_refuses_a_huge_chunk_at_500_merges_saying_how_many_fit(app):
    # the report: 19,990 Chinese characters at byte level, 500 merges (60 KB in one chunk)
    text = random_chinese(19_990)
    chunk = len(text.encode("utf-8"))  # one chunk: GPT-2's regex finds no break in it
    own_corpus(app, text, "byte", 500)
    (error,) = app.error
    message = shown(error.value)
    assert "This corpus cannot be trained" in message
    assert f"the longest has {chunk:,} symbols" in message
    assert f"Ask for {MAX_HISTORY_SYMBOLS // chunk:,} merges or fewer" in message
    assert not page_components(app)  # no player, no trace sent
    assert app.text_area(key="ms_text").value == text  # nothing the user typed is lost


def test_merge_steps_at_the_merges_that_fit_sends_a_bounded_trace_and_says_what_was_cut(app):
    text = random_chinese(19_990)
    merges = MAX_HISTORY_SYMBOLS // len(text.encode("utf-8"))
    own_corpus(app, text, "byte", merges)
    (player,) = page_components(app)
    sent = json.loads(player.proto.json)["trace"]
    assert len(sent.encode("utf-8")) <= MAX_TRACE_BYTES
    trace = json.loads(sent)
    assert len(trace["steps"]) == merges  # every merge is still there to play
    assert trace["entries"] == [] and trace["hidden"] == 1  # the one chunk is counted, not drawn
    assert trace["cut"].startswith("Not drawn from the chunk")
    assert f"bound of {MAX_TRACE_BYTES // 1_000_000} MB" in trace["cut"]


def _lesson(text: str, level: str, merges: int):
    corpus = corpus_from_text(text, level)
    return build_lesson(train_bpe(corpus, merges, top_k=TOP_CANDIDATES, record_history=True))


def test_a_trace_within_its_bound_draws_every_entry_and_cuts_nothing():
    payload = player_payload(_lesson("low lower lowest newest widest " * 20, "word", 30))
    assert payload["cut"] == "" and payload["hidden"] == 0
    assert [e["label"] for e in payload["entries"]] == ["low", "lower", "lowest", "newest",
                                                        "widest"]
    assert json_bytes(payload) <= MAX_TRACE_BYTES


def test_the_trace_stops_at_the_first_entry_that_would_pass_the_bound_and_names_it():
    long_word = "abcdefgh" * 100
    lesson = _lesson(f"cat dog {long_word} cow " * 3, "word", 40)
    full = player_payload(lesson)
    assert full["cut"] == "" and len(full["entries"]) == 4
    entry_sizes = [json_bytes(e) for e in full["entries"]]
    # room for all but the long word and the one after it, plus 500 bytes for the note: the
    # long word does not fit in that, so it and every word after it are cut
    assert entry_sizes[2] > 1_000
    bound = json_bytes(full) - entry_sizes[2] - entry_sizes[3] + 500
    cut = player_payload(lesson, max_bytes=bound)
    assert json_bytes(cut) <= bound
    assert [e["label"] for e in cut["entries"]] == ["cat", "dog"]
    assert cut["hidden"] == 2
    assert cut["cut"].startswith("Not drawn from the word 'abcdefgh")
    assert len(cut["steps"]) == len(full["steps"])  # the steps themselves are never cut


# --- Compression: HF lines left out on a long word, our curve trained -------------------------


def test_compression_on_60_kb_of_chinese_with_no_spaces_answers_and_says_why_no_hf_lines(app):
    text = random_chinese(20_000)
    app.session_state["cp_corpora"] = []
    app.session_state["cp_hf"] = ["bpe_bytes", "wordpiece", "unigram"]  # the page's default
    open_page(app, COMPRESSION)
    uploader(app, "cp_upload").set_value(("chinese.txt", text.encode(), "text/plain"))
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    notes = "\n".join(shown(c.value) for c in app.caption)
    assert "No Hugging Face lines for Your text (chinese.txt)" in notes
    assert f"over the {MAX_HF_WORD_BYTES:,} that HF's trainers handle" in notes
    assert "3,744 merges learned" in notes  # our own curve trained to the default 4,000 vocab


# --- cancellation: a page's training stops when its session is gone ----------------------------


class _Runtime:
    def __init__(self, active: set[str]):
        self.active = active

    def is_active_session(self, session_id: str) -> bool:
        return session_id in self.active


@pytest.fixture
def served(monkeypatch):
    """A served run of session "s1": the set of connected sessions, to disconnect it from."""
    active = {"s1"}
    runtime = _Runtime(active)
    monkeypatch.setattr(cancel, "get_script_run_ctx",
                        lambda suppress_warning=False: SimpleNamespace(session_id="s1"))
    monkeypatch.setattr(cancel.Runtime, "exists", classmethod(lambda cls: True))
    monkeypatch.setattr(cancel.Runtime, "instance", classmethod(lambda cls: runtime))
    return active


def test_training_stops_mid_way_once_its_tab_is_closed(served):
    corpus = corpus_from_text(random_chinese(5_000), "byte")
    done = []
    check = cancel.cancel_check()

    def progress(merged: int, total: int) -> None:
        done.append(merged)
        if merged == 10:
            served.discard("s1")  # the tab closes while training runs
        check(merged, total)

    with pytest.raises(StopException):
        train_bpe(corpus, 3_000, progress=progress)
    assert done[-1] == 10  # stopped at the first check after the session went


def test_a_throttled_bar_still_checks_every_merge_and_moves_at_the_end(served):
    moves = []
    progress = cancel.throttled(lambda done, total: moves.append(done), seconds=3600)
    for merged in range(1, 51):
        progress(merged, 50)
    assert moves == [1, 50]  # the first call and the last: the rest within the hour
    served.discard("s1")
    with pytest.raises(StopException):
        progress(51, 100)


def test_outside_a_served_session_the_check_never_stops_anything():
    check = cancel.cancel_check()  # a plain script: no Streamlit run context at all
    corpus = corpus_from_text("low lower lowest " * 5, "word")
    assert len(train_bpe(corpus, 5, progress=check).steps) == 5
