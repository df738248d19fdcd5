"""An untrusted tokenizer.json in a worker process: the same tokens as in-process, a clear
message for a file that cannot be used, and a runaway regex stopped at the time limit."""

from __future__ import annotations

import gc
import os
import threading
import time

import pytest

from tests.hostile_tokenizers import (
    PANIC_PATTERN,
    PANIC_TEXT,
    SLOW_PATTERN,
    SLOW_TEXT,
    plain_bpe,
    split_on,
    wordpiece_without_unk,
)
from tokenizer_core.interface import Tokenizer
from tokenizer_core.reference.hf import HFTokenizer
from tokenizer_core.reference.hf_train import train_hf
from tokenizer_core.reference.isolated import IsolatedTokenizer

from .hard_text import ENDOFTEXT, NIHAO

TIMEOUT = 30.0  # generous: a loaded test machine must never hit it with a well-behaved file
SHORT = 2.0  # for the runaway regex: SLOW_TEXT takes minutes in-process
GONE_WAIT_S = 30.0
SENTENCES = ["the cat sat on the mat", "the dog sat on the log", "cats and dogs, naturally"]
TEXTS = [
    "the cats sat, and the dogs ran",
    f"café {NIHAO} e\u0301 tabs\tand\nlines",
    f"before{ENDOFTEXT}after <sep> done",
    "",
]


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    """tokenizer.json texts of several kinds of model."""
    trained = {
        "bpe": train_hf("bpe", SENTENCES, 80),
        "wordpiece": train_hf("wordpiece", SENTENCES, 80),
        "unigram": train_hf("unigram", SENTENCES, 60),
        "byte": train_hf("bpe", SENTENCES, 300, byte_level=True, special_tokens=["<sep>"]),
    }
    return {kind: model.tokenizer.to_str() for kind, model in trained.items()}


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); it is gone for our purposes
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def wait_until_gone(pid: int) -> bool:
    deadline = time.monotonic() + GONE_WAIT_S
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not alive(pid)


def worker_pid(tokenizer: IsolatedTokenizer) -> int:
    assert tokenizer._worker is not None
    return tokenizer._worker.process.pid


def test_same_tokens_as_in_process(files):
    for kind, json_text in files.items():
        here = HFTokenizer.from_str(json_text, kind)
        isolated = IsolatedTokenizer(json_text, kind, timeout=TIMEOUT)
        try:
            assert isinstance(isolated, Tokenizer)
            assert isolated.vocab_size == here.vocab_size
            assert isolated.special_tokens == here.special_tokens
            for text in TEXTS:
                for special in ({"disallowed_special": ()}, {"allowed_special": "all"}):
                    tokens = isolated.encode(text, **special)
                    assert tokens == here.encode(text, **special), (kind, text, special)
                ids = [t.id for t in tokens]
                assert isolated.decode(ids) == here.decode(ids)
        finally:
            isolated.close()


def test_the_special_token_rule_and_bad_ids_raise_as_in_process(files):
    isolated = IsolatedTokenizer(files["byte"], "byte.json", timeout=TIMEOUT)
    with pytest.raises(ValueError, match="byte.json: .*disallowed special token"):
        isolated.encode(f"a{ENDOFTEXT}b")
    with pytest.raises(ValueError, match="99999"):
        isolated.decode([99999])
    assert isolated.encode("still fine", disallowed_special=())  # the worker lives on
    isolated.close()


def test_a_file_that_loads_but_cannot_encode_is_refused_like_one_that_does_not_load():
    with pytest.raises(ValueError) as does_not_load:
        IsolatedTokenizer('{"hello": 1}', "broken.json", timeout=TIMEOUT)
    with pytest.raises(ValueError) as cannot_encode:
        IsolatedTokenizer(wordpiece_without_unk(), "no-unk.json", timeout=TIMEOUT)
    lead = "is not a tokenizer.json that HF tokenizers"
    assert str(does_not_load.value).startswith(f"broken.json: this {lead}")
    assert str(cannot_encode.value).startswith(f"no-unk.json: this {lead}")
    assert "Missing [UNK] token" in str(cannot_encode.value)
    with pytest.raises(ValueError, match="not UTF-8"):
        IsolatedTokenizer(b"\xff\xfe{}", "utf16.json", timeout=TIMEOUT)


def test_a_runaway_regex_is_killed_at_the_time_limit_and_the_next_call_starts_afresh():
    tokenizer = IsolatedTokenizer(split_on(SLOW_PATTERN), "slow.json", timeout=SHORT)
    stuck = worker_pid(tokenizer)
    with pytest.raises(ValueError, match=r"slow.json took longer than 2 s to encode this text"):
        tokenizer.encode(SLOW_TEXT)
    assert not alive(stuck), "the worker that overran must be killed, not left running"
    assert [t.bytes for t in tokenizer.encode("a b")] == [b"a", b" ", b"b"]
    assert worker_pid(tokenizer) != stuck
    tokenizer.close()


def test_this_process_runs_on_while_the_worker_is_stuck():
    """The point of the worker: a stuck regex holds the GIL of *its* process, not this one."""
    tokenizer = IsolatedTokenizer(split_on(SLOW_PATTERN), "slow.json", timeout=TIMEOUT)
    outcome: list[str] = []

    def encode() -> None:
        try:
            tokenizer.encode(SLOW_TEXT)
            outcome.append("finished")
        except ValueError as error:
            outcome.append(str(error))

    waiting = threading.Thread(target=encode)
    waiting.start()
    time.sleep(0.5)  # let it send the text
    assert sum(i * i for i in range(200_000)) > 0  # Python work here, while it is stuck there
    assert waiting.is_alive() and not outcome
    tokenizer.close()  # as Streamlit does when the session ends: the wait ends at once
    waiting.join(GONE_WAIT_S)
    assert not waiting.is_alive()
    assert "ended" in outcome[0]


def test_an_engine_panic_is_a_message_and_the_worker_lives_on():
    tokenizer = IsolatedTokenizer(split_on(PANIC_PATTERN), "panic.json", timeout=TIMEOUT)
    pid = worker_pid(tokenizer)
    with pytest.raises(ValueError, match="panic.json: .*retry-limit-in-match over"):
        tokenizer.encode(PANIC_TEXT)
    assert len(tokenizer.encode("fine")) == 4 and worker_pid(tokenizer) == pid
    tokenizer.close()


def test_close_and_garbage_collection_end_the_worker():
    closed = IsolatedTokenizer(plain_bpe(), "a.json", timeout=TIMEOUT)
    pid = worker_pid(closed)
    closed.close()
    assert wait_until_gone(pid)
    dropped = IsolatedTokenizer(plain_bpe(), "b.json", timeout=TIMEOUT)
    pid = worker_pid(dropped)
    del dropped
    gc.collect()
    assert wait_until_gone(pid)


def test_an_idle_worker_ends_itself_and_the_next_call_starts_another():
    tokenizer = IsolatedTokenizer(plain_bpe(), "idle.json", timeout=TIMEOUT, idle_seconds=0.2)
    pid = worker_pid(tokenizer)
    assert wait_until_gone(pid)
    assert [t.bytes for t in tokenizer.encode("ab")] == [b"a", b"b"]
    assert worker_pid(tokenizer) != pid
    tokenizer.close()
