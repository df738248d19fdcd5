"""The merge-step player: a whole training trace sent once, played in the browser.

`player_payload(lesson)` turns a Lesson into plain JSON (every string already written for
display: bytes as `<E4 BD>`, spaces as `·` where they matter); `player(...)` mounts the
components-v2 player (player.js / .css, inline: no iframe, no build step) and returns the
step the user last settled on. The JS sets textContent only, never innerHTML.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import streamlit as st

from tokenizer_core.lessons.bpe_steps import Lesson
from tokenizer_core.lessons.narration import entry_noun, label_text, pair_text, reveal_invisible
from tokenizer_core.levels import Level, Symbol
from tokenizer_core.render import escape
from tokenizer_core.tokens import display_bytes, show_whitespace
from ui.merge_steps.limits import MAX_SHOWN_ENTRIES, MAX_TRACE_BYTES

HERE = Path(__file__).parent
_PLAYER = st.components.v2.component(
    "tokex_merge_steps_player",
    js=(HERE / "player.js").read_text(encoding="utf-8"),
    css=(HERE / "player.css").read_text(encoding="utf-8"),
)


def shown(symbol: Symbol, visible_whitespace: bool) -> str:
    """A symbol as a chip shows it; characters that draw nothing as `<U+200D>`. Subtle: bytes go
    through display_bytes, which marks whitespace inside whole characters only, never the spaces
    of a hex group like <E5 A5>."""
    if isinstance(symbol, bytes):
        return reveal_invisible(display_bytes(symbol, visible_whitespace))
    return reveal_invisible(show_whitespace(symbol) if visible_whitespace else symbol)


def _flag(index: int, count: int, top: int) -> int:
    """2: the winner, 1: tied with it, 0: behind."""
    return 2 if index == 0 else 1 if count == top else 0


def json_bytes(value: Any) -> int:
    """UTF-8 bytes of `value` as the trace writes it (data.trace_json_of)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def player_payload(lesson: Lesson, max_bytes: int = MAX_TRACE_BYTES) -> dict[str, Any]:
    """Everything the player draws, for every step (JSON-ready; no step or display options).

    Entries are drawn in corpus order while the whole trace stays within `max_bytes`; the first
    one that would pass it, and every one after, is only counted, and `cut` says so.
    """
    corpus, training = lesson.corpus, lesson.training
    visible = corpus.level != "word"
    steps = []
    changes: list[list[tuple[int, tuple[Symbol, ...], tuple[int, ...]]]] = [
        [] for _ in range(min(len(corpus), MAX_SHOWN_ENTRIES))
    ]
    for k, told in enumerate(lesson.steps, start=1):
        step = told.step
        for e, after, positions in told.joined:
            if e < len(changes):
                changes[e].append((k, after, positions))
        steps.append({
            "pair": pair_text(step.pair),
            "a": shown(step.pair[0], visible),
            "b": shown(step.pair[1], visible),
            "token": shown(step.new_token, visible),
            "count": step.count,
            "vocab": step.vocab_size,
            "tokens": told.tokens_after,
            "narration": told.narration,
            "why": told.why,
            "ties": step.ties or 1,
            "cands": [[pair_text(c.pair), c.count, _flag(i, c.count, step.count)]
                      for i, c in enumerate(step.candidates)],
        })
    stopped_early = len(training.steps) < training.requested_merges
    stop = training.stop_reason[0].upper() + training.stop_reason[1:] + "."
    payload: dict[str, Any] = {
        "level": corpus.level,
        "nounPlural": entry_noun(corpus.level, 2),
        "alphabet": [shown(s, visible) for s in corpus.alphabet],
        "entries": [],
        "hidden": 0,
        "cut": "",
        "steps": steps,
        "start": {
            "narration": lesson.start,
            "vocab": len(training.special_tokens) + len(corpus.alphabet),
            "tokens": lesson.tokens_before,
        },
        "stop": stop if stopped_early else "",
    }
    room = max_bytes - json_bytes(payload)
    for e, entry_changes in enumerate(changes):
        entry = _entry(lesson, e, entry_changes, visible, room)
        if entry is None:
            break
        payload["entries"].append(entry)
        room -= json_bytes(entry) + 1
    while True:  # the counts and the note take a few bytes too: give back entries until they fit
        drawn = len(payload["entries"])
        payload["hidden"] = len(corpus) - drawn
        if drawn < len(changes):
            payload["cut"] = _cut_note(corpus.labels[drawn], corpus.level, max_bytes)
        if not drawn or json_bytes(payload) <= max_bytes:
            return payload
        payload["entries"].pop()


def _entry(lesson: Lesson, e: int, changes: list[tuple[int, tuple[Symbol, ...], tuple[int, ...]]],
           visible: bool, room: int) -> dict[str, Any] | None:
    """Entry e with its parts after every step that changed it, or None when it needs more than
    `room` bytes (measured row by row, so an enormous entry costs no more than `room` to find)."""
    corpus = lesson.corpus
    entry: dict[str, Any] = {
        "label": corpus.labels[e], "count": corpus.counts[e],
        "parts": [shown(s, visible) for s in corpus.sequences[e]], "history": [],
    }
    used = json_bytes(entry)
    for k, after, positions in changes:
        if used > room:
            return None
        row = [k, [shown(s, visible) for s in after], list(positions)]
        used += json_bytes(row) + 1
        entry["history"].append(row)
    return entry if used <= room else None


def _cut_note(label: str, level: Level, max_bytes: int) -> str:
    """What the player says about entries left out for the trace's size (plain text)."""
    return (
        f"Not drawn from the {entry_noun(level, 1)} {label_text(label, level)} on: drawing it "
        "at every step "
        f"would take the trace sent to your browser past its bound of "
        f"{max_bytes / 1_000_000:,.0f} MB. Every count, merge and sentence includes them."
    )


def player(trace_json: str, trace_id: str, step: int, big: bool,
           on_step: Callable[[], None]) -> None:
    """Mount the player at `step` with a trace from `player_payload` (as a JSON string) named
    by `trace_id` (the browser parses a trace again only when its id changes); `on_step` runs
    when the user settles on another step."""
    _PLAYER(
        key="ms_player",
        data={"id": trace_id, "trace": trace_json, "step": step, "big": big},
        default={"step": step},
        on_step_change=on_step,
        height="content",
    )


def settled_step() -> int | None:
    """The step the player last reported (inside on_step), or None."""
    value = st.session_state.get("ms_player")
    step = value.get("step") if hasattr(value, "get") else None
    return step if isinstance(step, int) else None


def script_html(lesson: Lesson) -> str:
    """Every step in words, for a teacher to read ahead or print (every sentence escaped)."""
    items = [f"<li><b>Step 0.</b> {escape(lesson.start)}</li>"]
    for told in lesson.steps:
        items.append(f"<li><b>Merge {told.step.rank + 1}.</b> {escape(told.narration)}. "
                     f"{escape(told.why)}</li>")
    style = "list-style: none; padding-left: 0; line-height: 1.5"
    return f'<ol class="ms-script" style="{style}">{"".join(items)}</ol>'
