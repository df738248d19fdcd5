"""A user's tokenizer.json, run in a worker process with a time limit: `IsolatedTokenizer`.

Why: a tokenizer.json carries regexes (a `Split` pre-tokenizer, `Replace` normalizers and
decoders) that HF's Rust engine runs while it holds Python's GIL. A backtracking pattern such as
`a*a*a*[^a\\s]`, fed long runs of `a`, holds it for minutes and every thread of that process
waits: run in the app's server, one upload freezes every session. `(a+)+$` on `aaa…ab` makes
the engine give up and panic, which pyo3 raises as a BaseException, not an Exception.

What it adds: the explorer's Tokenizer interface over an HFTokenizer (hf.py) that lives in a
worker process (`python -c …serve()`, talking over two pipes; not multiprocessing's spawn,
which would import the server's own main script, Streamlit, in every worker). Every call (load,
encode, decode) has a time limit; a worker that overruns it is killed (SIGKILL: the stuck regex
cannot be interrupted any other way) and the call raises ValueError; the next call starts a
fresh worker. Whatever HF raises, panics included, comes back as ValueError. A file is
accepted only if it loads *and* encodes PROBE_TEXT, so one that loads but cannot encode (a
WordPiece whose vocabulary lacks its [UNK]) is refused at once, in the same words as one that
does not load.
The worker runs at a lower CPU priority, ends itself after `idle_seconds` without a request or
when the server goes away, and `close()` (or garbage collection) ends it at once.

The same worker loads the two other file kinds a models folder holds (local_models.py), by
`kind`: a SentencePiece `.model` (the sentencepiece library reads it in the worker too: a file
that crashes its C++ parser ends the worker, not the server) and a tiktoken rank file with its
sidecar (its regex is compiled by tiktoken's Rust code in the worker, where a backtracking
pattern stalls nobody). Each must load and encode PROBE_TEXT, like a tokenizer.json.

The worker also reads the file's whole vocabulary for the Vocabulary page (`vocabulary_tokens`:
each token's id, bytes and whether it is special, as its own library holds them, read by
vocab_tokens.py in the worker), within the same time limit and at most `max_ids` ids
(MAX_VOCAB_IDS by default): a file claiming millions of ids is refused before its table is
built, so the server never builds or walks a table of that size.

Leaves out: caching results (the app does, per session), choosing the time limit (the caller's
bound), and memory limits on the worker.
"""

from __future__ import annotations

import dataclasses
import operator
import os
import subprocess
import sys
import threading
import time
import weakref
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Sequence

from ..interface import AllowedSpecial, DisallowedSpecial, Tokenizer
from ..messages import N_, Refusal
from ..normalization import Change, change_of
from ..tokens import Token
from .hf import UNUSABLE, HFTokenizer, unusable

if TYPE_CHECKING:
    from .vocab_tokens import VocabToken

Kind = Literal["tokenizer.json", "sentencepiece", "tiktoken"]

PROBE_TEXT = "Hello, world! It's 2024."
IDLE_SECONDS = 300.0  # a worker nobody asked anything for this long ends itself
START_SECONDS = 120.0  # starting Python and importing the core: our code, not the user's file
WORKER_NICENESS = 10  # the server's own threads come first when the CPUs are busy
# Ids a vocabulary may have for the worker to send its table (real ones go to about 260,000:
# Gemma 3's 262,144); one row is about 60 bytes on the pipe and 300 in the server's table.
MAX_VOCAB_IDS = 300_000
# What a person reads when the worker runs out of time or ends, one whole sentence per call (the
# interface says them in its language): keyed by what the call was doing.
_OVERRAN = {
    "encode this text": N_(
        "{name} took longer than {seconds} s to encode this text, so it was stopped. A regex in "
        "its normalizer or pre-tokenizer may backtrack on this text (as (a+)+$ does on a long run "
        "of one letter): try a shorter text, or another tokenizer."),
    "decode these ids": N_(
        "{name} took longer than {seconds} s to decode these ids, so it was stopped. A regex in "
        "its normalizer or pre-tokenizer may backtrack on this text (as (a+)+$ does on a long run "
        "of one letter): try a shorter text, or another tokenizer."),
    "start": N_("{name} took longer than {seconds} s to load and encode {probe}, so it was "
                "stopped."),
    "read its vocabulary": N_("{name} took longer than {seconds} s to read its vocabulary, so "
                              "it was stopped."),
}
_ENDED = {
    "encode this text": N_("{name}: the process running this tokenizer.json ended ({why}) before "
                           "it could encode this text"),
    "decode these ids": N_("{name}: the process running this tokenizer.json ended ({why}) before "
                           "it could decode these ids"),
    "start": N_("{name}: the process running this tokenizer.json ended ({why}) before it could "
                "start"),
    "read its vocabulary": N_("{name}: the process running this tokenizer file ended ({why}) "
                              "before it could read its vocabulary"),
}
# The worker's refusals, said by the server with the file's name in front (a sentence of its own
# per refusal, so the interface can say the whole of it in its language).
_NAMED = {
    UNUSABLE["load"]: N_("{name}: this is not a tokenizer.json that HF tokenizers {version} can "
                         "use (it does not load: {error}); use a file written by "
                         "Tokenizer.save(path)"),
    UNUSABLE["utf8"]: N_("{name}: this is not a tokenizer.json that HF tokenizers {version} can "
                         "use (it is not UTF-8 text); use a file written by Tokenizer.save(path)"),
    UNUSABLE["encode"]: N_("{name}: this is not a tokenizer.json that HF tokenizers {version} "
                           "can use (it loads, but cannot encode {probe}: {error}); use a file "
                           "written by Tokenizer.save(path)"),
}
# A SentencePiece model or a tiktoken rank file that cannot be used (the models folder's other
# kinds): the worker's sentence, and the server's with the file's name in front.
UNREADABLE = {
    "sentencepiece": N_("this is not a SentencePiece model that sentencepiece {version} can read "
                        "({error}); use a .model file written by SentencePieceTrainer"),
    "tiktoken": N_("this is not a tiktoken rank file with a usable sidecar ({error}); see "
                   "docs/models.md for the format"),
    "encode": N_("this file loads, but cannot encode {probe}: {error}"),
    "too many ids": N_("its vocabulary has {size} ids; a vocabulary table is read up to {bound} "
                       "ids"),
}
_NAMED.update({
    UNREADABLE["sentencepiece"]: N_(
        "{name}: this is not a SentencePiece model that sentencepiece {version} can read "
        "({error}); use a .model file written by SentencePieceTrainer"),
    UNREADABLE["tiktoken"]: N_(
        "{name}: this is not a tiktoken rank file with a usable sidecar ({error}); see "
        "docs/models.md for the format"),
    UNREADABLE["encode"]: N_("{name}: this file loads, but cannot encode {probe}: {error}"),
    UNREADABLE["too many ids"]: N_("{name}: its vocabulary has {size} ids; a vocabulary table is "
                                   "read up to {bound} ids"),
})
_ROOT = Path(__file__).resolve().parents[2]  # the directory holding tokenizer_core
_SERVE = "from tokenizer_core.reference.isolated import serve; serve()"

Request = tuple[Any, ...]
# Tokens cross the pipe as plain tuples of their fields: pickling ~15,000 frozen dataclasses
# takes about four times as long.
_token_fields = operator.attrgetter(*(field.name for field in dataclasses.fields(Token)))


class _Stopped(Exception):
    """The worker ended before it answered; `code` is its exit status."""

    def __init__(self, code: int | None) -> None:
        super().__init__(f"exit status {code}")
        self.code = code


# =============================================================================================
# The worker's side


PARENT_POLL_SECONDS = 0.5


def leave_with_parent() -> None:
    """End this worker soon after the server that started it is gone, even in mid-job.

    Why: the loop notices a closed pipe only between requests; a job that runs for minutes (or
    a stuck regex) would outlive a server killed under it. Not PR_SET_PDEATHSIG: Linux sends
    that when the *thread* that started the worker ends, and Streamlit starts workers from a
    session's script thread, which ends with every rerun. A daemon thread watching the parent's
    pid instead: when the server dies this process is re-parented and getppid() changes.
    """
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def serve() -> None:
    """The worker's loop: `python -c _SERVE REQUESTS_FD REPLIES_FD IDLE_SECONDS`.

    Each request gets one reply, ("ok", value) or ("error", message). Ends on end-of-file (the
    server is gone) or after IDLE_SECONDS without a request.
    """
    requests = Connection(int(sys.argv[1]), writable=False)
    replies = Connection(int(sys.argv[2]), readable=False)
    idle = float(sys.argv[3])
    leave_with_parent()
    os.nice(WORKER_NICENESS)
    # subtle: Rust prints a panic's message and backtrace to fd 2, the server's log; the reply
    # carries the message, so the worker's stderr goes nowhere once it has started.
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    replies.send(("ok", None))  # ready
    state: dict[str, Tokenizer] = {}
    while requests.poll(idle):
        try:
            request = requests.recv()
        except EOFError:
            return
        replies.send(_answer(state, request))


def _answer(state: dict[str, Tokenizer], request: Request) -> tuple[str, Any]:
    """One request's reply; every failure, panics included, becomes a message."""
    try:
        return "ok", _handle(state, request)
    except Refusal as error:  # its sentence and values, for the server to say with the name
        return "refusal", (error.template, dict(error.values))
    except ValueError as error:
        return "error", str(error)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # HF raises bare Exceptions; a Rust panic is a BaseException
        return "error", _hf_failure(error)


def _hf_failure(error: BaseException) -> str:
    if type(error).__name__ == "PanicException":  # pyo3's, for a panic inside HF's Rust code
        return (
            f"HF tokenizers stopped with an internal error ({error}). A regex in its normalizer "
            "or pre-tokenizer may have given up on this text (as (a+)+$ does on aaa…ab)."
        )
    return f"HF tokenizers could not do it: {error}"


def _handle(state: dict[str, Tokenizer], request: Request) -> Any:
    kind, *args = request
    if kind == "load":
        json_text, name, *file_kind = args
        loaded = _load(json_text, name) if file_kind in ([], ["tokenizer.json"]) else (
            _load_other(json_text, name, file_kind[0]))
        state["tokenizer"] = loaded
        return loaded.vocab_size, loaded.special_tokens
    tokenizer = state["tokenizer"]
    if kind == "encode":
        text, allowed_special, disallowed_special = args
        tokens = tokenizer.encode(
            text, allowed_special=allowed_special, disallowed_special=disallowed_special
        )
        return list(map(_token_fields, tokens))
    if kind == "decode":
        return tokenizer.decode(args[0])
    if kind == "vocab":
        return _vocabulary(tokenizer, args[0])
    if kind == "normalization":
        return change_of(tokenizer, args[0])
    raise ValueError(f"unknown request {kind!r}")


def _vocabulary(tokenizer: Tokenizer, max_ids: int) -> tuple[str, list[VocabToken]]:
    """(kind, tokens) of the loaded file's vocabulary (vocab_tokens.py), or a Refusal when it
    has more than `max_ids` ids: checked on its size before a row is read, and on the rows."""
    from .vocab_tokens import reference_tokens  # a worker that only encodes never needs it

    if tokenizer.vocab_size > max_ids:
        raise Refusal(UNREADABLE["too many ids"], size=tokenizer.vocab_size, bound=max_ids)
    read = reference_tokens(tokenizer)
    if read is None:  # every kind _handle loads is one vocab_tokens reads
        raise ValueError(f"cannot read the vocabulary of a {type(tokenizer).__name__}")
    kind, tokens = read
    if len(tokens) > max_ids:  # added tokens past the size HF counts
        raise Refusal(UNREADABLE["too many ids"], size=len(tokens), bound=max_ids)
    return kind, tokens


def _load(json_text: str | bytes, name: str) -> HFTokenizer:
    """The file as an HFTokenizer, if it loads and encodes PROBE_TEXT; else ValueError."""
    if isinstance(json_text, bytes):
        try:
            json_text = json_text.decode("utf-8")
        except UnicodeDecodeError:
            raise unusable("utf8") from None
    tokenizer = HFTokenizer.from_str(json_text, name)
    try:
        tokenizer.encode(PROBE_TEXT, disallowed_special=())
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # see _answer
        raise unusable("encode", probe=repr(PROBE_TEXT), error=str(error)) from None
    return tokenizer


def _load_other(payload: Any, name: str, kind: str) -> Tokenizer:
    """A SentencePiece model (payload: its bytes) or a tiktoken rank file (payload: (ranks'
    bytes, the sidecar's text)), if it loads and encodes PROBE_TEXT; else a Refusal."""
    # imported here: a worker for a tokenizer.json never needs them
    from .local_formats import sentencepiece_from_bytes, tiktoken_from_files

    if kind == "sentencepiece":
        tokenizer: Tokenizer = sentencepiece_from_bytes(payload, name)
    elif kind == "tiktoken":
        tokenizer = tiktoken_from_files(payload[0], payload[1], name)
    else:
        raise ValueError(f"unknown file kind {kind!r}")
    try:
        tokenizer.encode(PROBE_TEXT, disallowed_special=())
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # see _answer
        raise Refusal(UNREADABLE["encode"], probe=repr(PROBE_TEXT), error=str(error)) from None
    return tokenizer


# =============================================================================================
# The server's side


class _Worker:
    """One worker process and its two pipes; killed when dropped (weakref.finalize) or by kill().

    subtle: kill() only kills and reaps the process. The pipes close when this object goes;
    closing them at once could pull an fd from under a thread still waiting on it.
    """

    def __init__(self, idle_seconds: float, serve: str = _SERVE,
                 args: Sequence[str] = ()) -> None:
        """`serve`: the code the worker runs (the job pool, workers.py, runs its own loop),
        given the two pipes' fds, `idle_seconds` and `args` on its command line."""
        requests, to_worker = os.pipe()
        replies, from_worker = os.pipe()
        pythonpath = os.pathsep.join(filter(None, [str(_ROOT), os.environ.get("PYTHONPATH")]))
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", serve, str(requests), str(from_worker), str(idle_seconds),
                 *args],
                pass_fds=(requests, from_worker), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": pythonpath},
            )  # fmt: skip
        except OSError:
            os.close(to_worker)
            os.close(replies)
            raise
        finally:  # the worker's ends: it has its own copies now
            os.close(requests)
            os.close(from_worker)
        self.requests = Connection(to_worker, readable=False)
        self.replies = Connection(replies, writable=False)
        self.kill = weakref.finalize(self, _kill, self.process)

    def alive(self) -> bool:
        return self.process.poll() is None

    def ask(self, request: Request | None, seconds: float) -> tuple[str, Any] | None:
        """Send `request` (None: only wait for the ready signal) and wait up to `seconds` for
        the reply; None if none came (the worker is then killed). _Stopped if it ended first."""
        try:
            if request is not None:
                self.requests.send(request)
            reply = self.replies.recv() if self.replies.poll(seconds) else None
        except (EOFError, OSError):  # EOF: it died while we waited; OSError: a broken pipe
            raise _Stopped(self._exit_status()) from None
        if reply is None:
            self.kill()
        return reply

    def _exit_status(self) -> int | None:
        try:
            return self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return None


def _kill(process: subprocess.Popen[bytes]) -> None:
    """End a worker now and reap it (no zombie left); safe to call twice."""
    if process.poll() is None:
        process.kill()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass  # the subprocess module reaps it later


class IsolatedTokenizer:
    """An untrusted tokenizer.json behind the explorer's interface, run in a worker process.

    `timeout`: seconds any one call (loading the file, encoding or decoding one text) may take
    before its worker is killed and the call raises ValueError. Calls are served one at a time
    (a lock); close() may come from any thread.
    """

    def __init__(
        self, json_text: Any, name: str, *, timeout: float,
        idle_seconds: float = IDLE_SECONDS, kind: Kind = "tokenizer.json",
    ) -> None:  # fmt: skip
        """Start a worker and load the file in it; ValueError if it does not load, cannot
        encode PROBE_TEXT, or takes more than `timeout` seconds to do so.

        The text is kept, as given, to restart the worker; bytes (UTF-8) are decoded in the
        worker, so an app that keeps the uploaded bytes anyway holds one copy, not two.
        `kind`: what `json_text` is, a tokenizer.json's text or bytes, a SentencePiece model's
        bytes ("sentencepiece"), or (ranks' bytes, sidecar text) of a tiktoken file ("tiktoken").
        """
        self.name = name
        self.kind = kind
        self._json_text = json_text
        self._timeout = timeout
        self._idle_seconds = idle_seconds
        self._lock = threading.Lock()
        self._worker: _Worker | None = None
        with self._lock:
            self._vocab_size, self._special = self._start()

    @property
    def vocab_size(self) -> int:
        return self._vocab_size

    @property
    def special_tokens(self) -> dict[str, int]:
        return dict(self._special)

    def encode(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[Token]:
        if not isinstance(disallowed_special, str):
            disallowed_special = tuple(disallowed_special)  # any collection, as one that pickles
        request = ("encode", text, allowed_special, disallowed_special)
        return [Token(*fields) for fields in self._call(request, "encode this text")]

    def decode(self, ids: Sequence[int]) -> str:
        return self._call(("decode", list(ids)), "decode these ids")

    def vocabulary_tokens(self, max_ids: int = MAX_VOCAB_IDS) -> tuple[str, list[VocabToken]]:
        """(kind, tokens) of the file's whole vocabulary, as its own library holds it
        (vocab_tokens.py: id, bytes, text or None, special, merge rank), read in the worker
        within the time limit; measure/vocabulary.py builds its table from them. A Refusal when
        it has more than `max_ids` ids or the worker overruns or ends."""
        kind, tokens = self._call(("vocab", max_ids), "read its vocabulary")
        return kind, tokens

    def normalization_change(self, text: str) -> Change | None:
        """What the file's own normalizer changes in `text` before cutting (None: nothing), as
        the built-in tokenizers say it (normalization.change_of). Run in the worker: a
        tokenizer.json's normalizer may hold a regex of the file's, and normalize_str is HF's."""
        # said as encoding overruns are: normalizing is the first step of encoding this text
        return self._call(("normalization", text), "encode this text")

    def close(self) -> None:
        """End the worker now; a later call starts a new one."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.kill()

    # -- the calls -----------------------------------------------------------------------------

    def _call(self, request: Request, what: str) -> Any:
        with self._lock:
            for attempt in range(2):
                if self._worker is None or not self._worker.alive():
                    self._start()
                assert self._worker is not None
                try:
                    reply = self._worker.ask(request, self._timeout)
                    return self._value(reply, self._overran(what))
                except _Stopped as stopped:
                    self._worker = None
                    # Exit status 0: it ended itself, idle, just as this request came. Once more.
                    if stopped.code != 0 or attempt:
                        raise self._ended(stopped, what) from None
            raise AssertionError("unreachable: the loop returns or raises")

    def _start(self) -> tuple[int, dict[str, int]]:
        """A new worker with the file loaded in it; returns (vocab size, special tokens)."""
        self.close()
        worker = _Worker(self._idle_seconds)
        try:
            started = worker.ask(None, START_SECONDS)
            self._value(started, Refusal(
                N_("{name}: its worker process did not start within {seconds} s (is the machine "
                   "very busy?); try again"), name=self.name, seconds=f"{START_SECONDS:g}"))
            loaded = worker.ask(("load", self._json_text, self.name, self.kind), self._timeout)
            info = self._value(loaded, self._overran("start"))
        except _Stopped as stopped:
            raise self._ended(stopped, "start") from None
        except BaseException:
            worker.kill()
            raise
        self._worker = worker
        return info

    def _value(self, reply: tuple[str, Any] | None, overran: Refusal) -> Any:
        """The reply's value; ValueError for an error reply, or `overran` for no reply in time."""
        if reply is None:
            raise overran
        kind, value = reply
        if kind == "refusal" and value[0] in _NAMED:
            template, values = value
            raise Refusal(_NAMED[template], name=self.name, **values)
        if kind == "refusal":
            raise ValueError(f"{self.name}: {Refusal(value[0], **value[1])}")
        if kind == "error":
            raise ValueError(f"{self.name}: {value}")
        return value

    def _overran(self, what: str) -> Refusal:
        return Refusal(_OVERRAN[what], name=self.name, seconds=f"{self._timeout:g}",
                       probe=repr(PROBE_TEXT))

    def _ended(self, stopped: _Stopped, what: str) -> Refusal:
        return Refusal(_ENDED[what], name=self.name, why=str(stopped))
