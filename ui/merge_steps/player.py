"""The merge-step player: a whole training trace sent once, played in the browser.

`player_payload(lesson)` turns a Lesson into plain JSON (every string already written for
display: bytes as `<E4 BD>`, spaces as `·` where they matter); `player(...)` mounts the
components-v2 player (player.js / .css, inline: no iframe, no build step) and returns the
step the user last settled on. The JS sets textContent only, never innerHTML.

Every word the player shows comes from here, in the session's language: the narration said by
`say` (the core's Phrases, translated and filled), the controls' labels and titles and the
counters as catalog templates (`ui`) whose `{placeholders}` the JS fills with the step's numbers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import streamlit as st

from tokenizer_core.lessons.bpe_steps import Lesson
from tokenizer_core.lessons.narration import label_text, pair_text, reveal_invisible
from tokenizer_core.levels import Level, Symbol
from tokenizer_core.render import escape
from tokenizer_core.tokens import display_bytes, show_whitespace
from ui.common.i18n import N_, _, current_language, ngettext, number, plural_forms
from ui.merge_steps.limits import MAX_SHOWN_ENTRIES, MAX_TRACE_BYTES
from ui.merge_steps.words import say

HERE = Path(__file__).parent
# What the player shows around the trace: key -> English template (the JS fills {names}).
UI_TEXT: dict[str, str] = {
    "region": N_("Merge steps player"),
    "first": N_("First step (Home)"),
    "prev": N_("◀ Previous"),
    "prevTitle": N_("Previous step (←)"),
    "play": N_("▶ Play"),
    "pause": N_("⏸ Pause"),
    "playTitle": N_("Play / pause (space)"),
    "next": N_("Next ▶"),
    "nextTitle": N_("Next step (→)"),
    "last": N_("Last step (End)"),
    "slider": N_("Step"),
    "speed": N_("Speed"),
    "speedTitle": N_("Play at {speed}× speed"),
    "corpus": N_("Corpus"),
    "mergesSoFar": N_("Merges so far"),
    "colRank": N_("#"),
    "colPair": N_("pair"),
    "colToken": N_("new token"),
    "colCount": N_("count"),
    "vocab": N_("Vocabulary size"),
    "noPair": N_("No pair to merge"),
    "candsNow": N_("Pairs counted now: the top one merges first"),
    "candsBefore": N_("Pairs counted before merge {k}"),
    "tagNext": N_("next"),
    "tagWon": N_("★ won"),
    "tagTie": N_("tie"),
    "noMerges": N_("No merges yet: press ▶ Play or Next ▶."),
    "mergesMeta": N_("{k} of {n}"),
    "stepNo": N_("Step {k} / {n}"),
    "headline": N_("Merge {k}: {narration}"),
    "madeLabel": N_("new token"),
    "hint": N_("Press ▶ Play, or Next ▶ (→ key) for one merge at a time. First up: {pair}."),
    "tokensNow": N_("{tokens} tokens"),
    "tokensWas": N_("{tokens} tokens (was {start})"),
}


def ui_text() -> dict[str, str | dict[str, str]]:
    """The player's own words in the session's language (templates: the JS fills them)."""
    text = {key: _(english) for key, english in UI_TEXT.items()}
    # the one plural the JS needs: a form per plural category of the language, which the JS
    # picks with Intl.PluralRules (the same CLDR rules as the catalog's)
    text["moreTies"] = plural_forms("{n} more pair ties at {count}.",
                                    "{n} more pairs tie at {count}.", current_language(),
                                    n="{n}", count="{count}")
    return text
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
        [] for _entry in range(min(len(corpus), MAX_SHOWN_ENTRIES))
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
            "narration": say(told.narration),
            "why": say(told.why),
            "ties": step.ties or 1,
            "cands": [[pair_text(c.pair), c.count, _flag(i, c.count, step.count)]
                      for i, c in enumerate(step.candidates)],
        })
    learned, asked = len(training.steps), training.requested_merges
    stop = _("Stopped after {learned} of {asked} merges: no pair is left, every sequence is a "
             "single token.", learned=number(learned), asked=number(asked))
    payload: dict[str, Any] = {
        "level": corpus.level,
        "lang": current_language(),
        "ui": ui_text(),
        "alphabet": [shown(s, visible) for s in corpus.alphabet],
        "entries": [],
        "hidden": 0,
        "cut": "",
        "steps": steps,
        "start": {
            "narration": say(lesson.start),
            "vocab": len(training.special_tokens) + len(corpus.alphabet),
            "tokens": lesson.tokens_before,
        },
        "stop": stop if learned < asked else "",
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
        payload["hidden"] = hidden = len(corpus) - drawn
        payload["hiddenNote"] = _hidden_note(hidden, corpus.level) if hidden else ""
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


def _hidden_note(hidden: int, level: Level) -> str:
    """What the player says under the entries it does not draw (past MAX_SHOWN_ENTRIES)."""
    if level == "word":
        return ngettext("…and {n} more word not drawn (every count and sentence includes it).",
                        "…and {n} more words not drawn (every count and sentence includes them).",
                        hidden)
    if level == "sentence":
        return ngettext("…and {n} more line not drawn (every count and sentence includes it).",
                        "…and {n} more lines not drawn (every count and sentence includes them).",
                        hidden)
    return ngettext("…and {n} more chunk not drawn (every count and sentence includes it).",
                    "…and {n} more chunks not drawn (every count and sentence includes them).",
                    hidden)


_CUT_NOTES = {
    "word": N_("Not drawn from the word {label} on: drawing it at every step would take the trace "
               "sent to your browser past its bound of {mb} MB. Every count, merge and sentence "
               "includes them."),
    "sentence": N_("Not drawn from the line {label} on: drawing it at every step would take the "
                   "trace sent to your browser past its bound of {mb} MB. Every count, merge and "
                   "sentence includes them."),
    "byte": N_("Not drawn from the chunk {label} on: drawing it at every step would take the "
               "trace sent to your browser past its bound of {mb} MB. Every count, merge and "
               "sentence includes them."),
}


def _cut_note(label: str, level: Level, max_bytes: int) -> str:
    """What the player says about entries left out for the trace's size (plain text)."""
    return _(_CUT_NOTES[level], label=label_text(label, level),
             mb=number(round(max_bytes / 1_000_000)))


def player(trace_json: str, trace_id: str, step: int, seq: int, big: bool,
           on_step: Callable[[], None]) -> None:
    """Mount the player at `step` with a trace from `player_payload` (as a JSON string) named
    by `trace_id` (the browser parses a trace again only when its id changes); `on_step` runs
    when the user settles on another step. `seq` is the number of the player's last report
    this session heard (0 before any): the player ignores a step sent with an older number
    than its own, a late answer to a move it has made since."""
    _PLAYER(
        key="ms_player",
        data={"id": trace_id, "trace": trace_json, "step": step, "seq": seq, "big": big},
        default={"settled": {"step": step, "seq": seq}},
        on_settled_change=on_step,
        height="content",
    )


def settled_step() -> tuple[int, int] | None:
    """The (step, seq) the player last reported (inside on_step), or None."""
    value = st.session_state.get("ms_player")
    settled = value.get("settled") if hasattr(value, "get") else None
    if not hasattr(settled, "get"):
        return None
    step, seq = settled.get("step"), settled.get("seq")
    if type(step) is not int or type(seq) is not int:
        return None
    return step, seq


def script_html(lesson: Lesson) -> str:
    """Every step in words, for a teacher to read ahead or print (every sentence escaped)."""
    start = _("Step 0.")
    items = [f"<li><b>{escape(start)}</b> {escape(say(lesson.start))}</li>"]
    for told in lesson.steps:
        head = _("Merge {k}.", k=number(told.step.rank + 1))
        said = _("{narration}. {why}", narration=say(told.narration), why=say(told.why))
        items.append(f"<li><b>{escape(head)}</b> {escape(said)}</li>")
    style = "list-style: none; padding-left: 0; line-height: 1.5"
    return f'<ol class="ms-script" style="{style}">{"".join(items)}</ol>'
