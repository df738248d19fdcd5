"""A lesson file: one or more screens of the app, each a page and the state it was left in.

A link holds a screen as long as its text is short (a URL over a few kilobytes is cut by chat
apps and mail clients). A lesson file is the same thing without that limit: JSON, one "step"
per screen, each step the page's name and the very parameters its link would carry, with any
long text whole. One step reopens one screen; several steps are a teacher's path through a
lesson, walked with next/previous.

    {"format": "tokenization-explorer-lesson", "version": 1,
     "steps": [{"page": "playground", "title": "Playground", "params": {"text": "...", ...}}]}

A file comes from anyone: it is checked whole before anything of it is used (size, UTF-8,
JSON, the format and version, known pages, every name and value a bounded string), and a
file that fails gives one message saying what is wrong. Values are only ever *read* by the
pages' tolerant link reader, which checks each again as it would a link's.

Leaves out: Streamlit (the sidebar's buttons are in `ui.common.lesson_plan`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from ui.common.limits import (
    MAX_LESSON_FILE_BYTES,
    MAX_LESSON_PARAMS,
    MAX_LESSON_STEPS,
    MAX_LESSON_VALUE_CHARS,
    MAX_LINK_CHOICE_CHARS,
)

LESSON_FORMAT = "tokenization-explorer-lesson"
LESSON_VERSION = 1
# A page's name is its file's stem (pages/<name>.py); a parameter's name is what links use.
NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")


class LessonFileError(ValueError):
    """What is wrong with a lesson file, in words a teacher can act on."""


@dataclass(frozen=True)
class Step:
    """One screen: a page and the parameters its link would carry (long text whole)."""

    page: str
    title: str
    params: Mapping[str, str] = field(default_factory=dict)


def dump_lesson(steps: Sequence[Step]) -> str:
    """The file's text (keys sorted, so the same lesson is always the same file)."""
    body = {
        "format": LESSON_FORMAT,
        "version": LESSON_VERSION,
        "steps": [{"page": s.page, "title": s.title, "params": dict(s.params)} for s in steps],
    }
    return json.dumps(body, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def load_lesson(raw: bytes, pages: Collection[str]) -> list[Step]:
    """The steps of a lesson file whose every page is in `pages`; LessonFileError if it is not
    a lesson file this app can open."""
    if len(raw) > MAX_LESSON_FILE_BYTES:
        raise LessonFileError(f"the file has {len(raw):,} bytes; a lesson file has at most "
                              f"{MAX_LESSON_FILE_BYTES:,}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LessonFileError(f"the file is not UTF-8 text (byte {error.start:,} is not)") from None
    try:
        body = json.loads(text)
    except json.JSONDecodeError as error:
        raise LessonFileError(f"the file is not JSON ({error.msg} at line {error.lineno}, "
                              f"column {error.colno})") from None
    except RecursionError:
        raise LessonFileError("the file is not a lesson file (it is nested too deeply)") from None
    if not isinstance(body, dict) or body.get("format") != LESSON_FORMAT:
        raise LessonFileError(f'the file is not a lesson file (no "format": "{LESSON_FORMAT}")')
    version = body.get("version")
    if version != LESSON_VERSION:
        raise LessonFileError(f"the file is a lesson file of version {_shown(version)}; this "
                              f"app opens version {LESSON_VERSION}")
    steps = body.get("steps")
    if not isinstance(steps, list) or not steps:
        raise LessonFileError('the file has no "steps" (a list with one step per screen)')
    if len(steps) > MAX_LESSON_STEPS:
        raise LessonFileError(f"the file has {len(steps):,} steps; a lesson has at most "
                              f"{MAX_LESSON_STEPS}")
    return [_step(n, step, pages) for n, step in enumerate(steps, start=1)]


def _step(number: int, step: object, pages: Collection[str]) -> Step:
    where = f"step {number}"
    if not isinstance(step, dict):
        raise LessonFileError(f"{where} is not an object with a page and its parameters")
    page = step.get("page")
    if not isinstance(page, str) or page not in pages:
        raise LessonFileError(f"{where} names the page {_shown(page)}, which this app does not "
                              "have (it has " + ", ".join(sorted(pages)) + ")")
    title = step.get("title", page)
    if not isinstance(title, str) or len(title) > MAX_LINK_CHOICE_CHARS:
        raise LessonFileError(f"{where}'s title is not a text of at most "
                              f"{MAX_LINK_CHOICE_CHARS} characters")
    params = step.get("params", {})
    if not isinstance(params, dict):
        raise LessonFileError(f"{where}'s params are not an object of names and values")
    if len(params) > MAX_LESSON_PARAMS:
        raise LessonFileError(f"{where} has {len(params):,} params; a step has at most "
                              f"{MAX_LESSON_PARAMS}")
    for name, value in params.items():
        if not NAME.fullmatch(name):
            raise LessonFileError(f"{where} has a param named {_shown(name)}; names are "
                                  "lowercase letters, digits and _")
        if not isinstance(value, str):
            raise LessonFileError(f"{where}'s param {name} is not a text (links hold only text)")
        if len(value) > MAX_LESSON_VALUE_CHARS:
            raise LessonFileError(f"{where}'s param {name} has {len(value):,} characters; a "
                                  f"value has at most {MAX_LESSON_VALUE_CHARS:,}")
    return Step(page, title, dict(params))


def _shown(value: object) -> str:
    """A value of the file, short and printable, for a message (still plain text)."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else f'"{value}"'
    cut = "".join(c if c.isprintable() else "?" for c in text[:40])
    return cut + ("…" if len(text) > 40 else "")
