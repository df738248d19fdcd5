"""A model file's chat template rendered in a worker process, bounded: `render_isolated`.

Why: a chat template is code from the model's files. jinja2's sandbox keeps it away from
Python's internals, not from `{% for i in range(99999) %}{% for j in range(99999) %}` or a
string of a billion characters; run in the app's server, either would stall or sink every
session. Here it runs in a process of its own (isolated.py's `_Worker`: `python -c ...`, two
pipes, lower CPU priority, killed and reaped when dropped) with
- a time bound: a render over RENDER_SECONDS kills the worker, and the call refuses;
- a memory bound: RLIMIT_AS of MEMORY_MB in the worker; a template over it gets MemoryError
  there (refused), or the worker dies (refused too), and the server is untouched;
- an output bound: MAX_RENDERED_CHARS, checked while the text is written (chat_render.py).
The next call starts a fresh worker. One worker serves every session, one render at a time.

Leaves out: reading the template (chat_templates.py) and encoding the rendered text (the
tokenizer's own isolated worker does that).
"""

from __future__ import annotations

import os
import sys
import threading
from multiprocessing.connection import Connection
from typing import Any, Mapping, Sequence

from ..messages import N_, Refusal
from .isolated import START_SECONDS, WORKER_NICENESS, _Stopped, _Worker, leave_with_parent

RENDER_SECONDS = 10.0
MEMORY_MB = 512
MAX_RENDERED_CHARS = 200_000  # the example conversation renders in well under 10,000
IDLE_SECONDS = 120.0
_SERVE = "from tokenizer_core.reference.chat_worker import serve; serve()"

OVERRAN = N_("the chat template took longer than {seconds} s to render this conversation, so it "
             "was stopped (a template that loops for ever does this)")
OVER_MEMORY = N_("the chat template needed more than the {limit} MB of memory its process may "
                 "use, so it was stopped")
ENDED = N_("the process rendering the chat template ended ({why}) before it finished")
NOT_STARTED = N_("the process that renders chat templates did not start within {seconds} s (is "
                 "the machine very busy?); try again")


# =============================================================================================
# The worker's side


def serve() -> None:
    """`python -c _SERVE REQUESTS_FD REPLIES_FD IDLE_SECONDS MEMORY_MB`: one reply per request,
    ("ok", text), ("refusal", (template, values)) or ("memory", None)."""
    requests = Connection(int(sys.argv[1]), writable=False)
    replies = Connection(int(sys.argv[2]), readable=False)
    idle, memory_mb = float(sys.argv[3]), int(sys.argv[4])
    leave_with_parent()
    os.nice(WORKER_NICENESS)
    from . import chat_render  # jinja2 imported before the limit: the limit is for the template

    chat_render._environment()
    if memory_mb:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 2**20, memory_mb * 2**20))
    replies.send(("ok", None))  # ready
    while requests.poll(idle):
        try:
            request = requests.recv()
        except EOFError:
            return
        replies.send(_answer(request))


def _answer(request: tuple[Any, ...]) -> tuple[str, Any]:
    from .chat_render import render

    try:
        return "ok", render(*request)
    except Refusal as error:
        return "refusal", (error.template, dict(error.values))
    except MemoryError:
        return "memory", None


# =============================================================================================
# The server's side

_lock = threading.Lock()
_worker: list[_Worker] = []  # the one worker, once started


def _started(memory_mb: int) -> _Worker:
    if _worker and _worker[0].alive():
        return _worker[0]
    _worker.clear()
    worker = _Worker(IDLE_SECONDS, serve=_SERVE, args=(str(memory_mb),))
    try:
        if worker.ask(None, START_SECONDS) is None:
            raise Refusal(NOT_STARTED, seconds=f"{START_SECONDS:g}")
    except _Stopped as stopped:
        raise Refusal(ENDED, why=str(stopped)) from None
    _worker.append(worker)
    return worker


def render_isolated(template: str, messages: Sequence[Mapping[str, Any]],
                    specials: Mapping[str, str], add_generation_prompt: bool = False, *,
                    seconds: float = RENDER_SECONDS, memory_mb: int = MEMORY_MB,
                    max_chars: int = MAX_RENDERED_CHARS) -> str:
    """The template rendered as transformers renders it (chat_render.render), in the worker;
    a Refusal saying why not (the template's own error, or a bound it went over)."""
    request = (template, [dict(m) for m in messages], dict(specials), add_generation_prompt,
               max_chars)
    with _lock:
        for attempt in range(2):
            worker = _started(memory_mb)
            try:
                reply = worker.ask(request, seconds)
            except _Stopped as stopped:
                _worker.clear()
                if stopped.code == 0 and not attempt:
                    continue  # it ended itself, idle, just as this request came: once more
                # a worker that dies mid-render was most likely stopped at its memory limit
                raise (Refusal(OVER_MEMORY, limit=memory_mb) if stopped.code else
                       Refusal(ENDED, why=str(stopped))) from None
            break
    if reply is None:  # ask() killed it
        _worker.clear()
        raise Refusal(OVERRAN, seconds=f"{seconds:g}")
    kind, value = reply
    if kind == "memory":
        _end()
        raise Refusal(OVER_MEMORY, limit=memory_mb)
    if kind == "refusal":
        raise Refusal(value[0], **value[1])
    return value


def _end() -> None:
    """End the worker now (after a MemoryError its heap is best given back)."""
    with _lock:
        if _worker:
            _worker.pop().kill()
