"""A lesson file: one or more screens of the app, each a page and the state it was left in.

A link holds a screen as long as its text is short (a URL over a few kilobytes is cut by chat
apps and mail clients). A lesson file is the same thing without that limit: JSON, one "step"
per screen, each step the page's name and the very parameters its link would carry, with any
long text whole. One step reopens one screen; several steps are a teacher's path through a
lesson, walked with next/previous.

    {"format": "tokenization-explorer-lesson", "version": 1,
     "steps": [{"page": "playground", "title": "Playground", "params": {"text": "...", ...}}]}

The session's own state rides in the params too, as in a link: `present` (presentation mode) and
`lang` (the interface's language, "zh" or "en"; ui/common/lesson_plan.py). Still version 1: a
file without `lang` is as valid as before, and keeps the session's language.

A file comes from anyone: it is checked whole before anything of it is used (size, UTF-8,
JSON, the format and version, known pages, every name and value a bounded string), and a
file that fails gives one message saying what is wrong. Values are only ever *read* by the
pages' tolerant link reader, which checks each again as it would a link's.

subtle: JSON can say more than a link can. `"\\ud800"` is half of a UTF-16 surrogate pair, a
Python string no page can send to the browser (UnicodeEncodeError): titles get U+FFFD in its
place here, values in the link reader (with a note). A number of 5,000 digits makes `int()`
refuse (Python's 4,300-digit limit); numbers are bounded while the JSON is read.

Leaves out: Streamlit (the sidebar's buttons are in `ui.common.lesson_plan`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from tokenizer_core.messages import N_, Refusal
from ui.common.limits import (
    MAX_LESSON_FILE_BYTES,
    MAX_LESSON_PARAMS,
    MAX_LESSON_STEPS,
    MAX_LESSON_VALUE_CHARS,
    MAX_LINK_CHOICE_CHARS,
    MAX_LINK_DIGITS,
)
from ui.common.safe_text import without_lone_surrogates

LESSON_FORMAT = "tokenization-explorer-lesson"
LESSON_VERSION = 1
# A page's name is its file's stem (pages/<name>.py); a parameter's name is what links use.
NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")


class LessonFileError(Refusal):
    """What is wrong with a lesson file, in words a teacher can act on (a Refusal: an English
    sentence and its values, said in the session's language by the sidebar)."""


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
        raise LessonFileError(N_("the file has {size} bytes; a lesson file has at most {bound}"),
                              size=len(raw), bound=MAX_LESSON_FILE_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LessonFileError(N_("the file is not UTF-8 text (byte {offset} is not)"),
                              offset=error.start) from None
    try:
        body = json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as error:
        # Python's own words for what is wrong with the JSON stay as they are (error.msg).
        raise LessonFileError(N_("the file is not JSON ({why} at line {line}, column {column})"),
                              why=error.msg, line=error.lineno, column=error.colno) from None
    except RecursionError:
        raise LessonFileError(N_("the file is not a lesson file (it is nested too deeply)")) from None
    if not isinstance(body, dict) or body.get("format") != LESSON_FORMAT:
        raise LessonFileError(N_('the file is not a lesson file (no "format": "{format}")'),
                              format=LESSON_FORMAT)
    version = body.get("version")
    # subtle: `True == 1` and `1.0 == 1` in Python; the version is the integer 1, nothing else.
    if type(version) is not int or version != LESSON_VERSION:
        raise LessonFileError(N_("the file is a lesson file of version {version}; this app opens "
                                 "version {opens}"), version=_shown(version), opens=LESSON_VERSION)
    steps = body.get("steps")
    if not isinstance(steps, list) or not steps:
        raise LessonFileError(N_('the file has no "steps" (a list with one step per screen)'))
    if len(steps) > MAX_LESSON_STEPS:
        raise LessonFileError(N_("the file has {count} steps; a lesson has at most {bound}"),
                              count=len(steps), bound=MAX_LESSON_STEPS)
    return [_step(n, step, pages) for n, step in enumerate(steps, start=1)]


def _step(number: int, step: object, pages: Collection[str]) -> Step:
    if not isinstance(step, dict):
        raise LessonFileError(N_("step {step} is not an object with a page and its parameters"),
                              step=number)
    page = step.get("page")
    if not isinstance(page, str) or page not in pages:
        raise LessonFileError(N_("step {step} names the page {page}, which this app does not have "
                                 "(it has {pages})"), step=number, page=_shown(page),
                              pages=", ".join(sorted(pages)))
    title = step.get("title", page)
    if not isinstance(title, str) or len(title) > MAX_LINK_CHOICE_CHARS:
        raise LessonFileError(N_("step {step}'s title is not a text of at most {bound} characters"),
                              step=number, bound=MAX_LINK_CHOICE_CHARS)
    params = step.get("params", {})
    if not isinstance(params, dict):
        raise LessonFileError(N_("step {step}'s params are not an object of names and values"),
                              step=number)
    if len(params) > MAX_LESSON_PARAMS:
        raise LessonFileError(N_("step {step} has {count} params; a step has at most {bound}"),
                              step=number, count=len(params), bound=MAX_LESSON_PARAMS)
    for name, value in params.items():
        if not NAME.fullmatch(name):
            raise LessonFileError(N_("step {step} has a param named {name}; names are lowercase "
                                     "letters, digits and _"), step=number, name=_shown(name))
        if not isinstance(value, str):
            raise LessonFileError(N_("step {step}'s param {name} is not a text (links hold only "
                                     "text)"), step=number, name=name)
        if len(value) > MAX_LESSON_VALUE_CHARS:
            raise LessonFileError(N_("step {step}'s param {name} has {count} characters; a value "
                                     "has at most {bound}"), step=number, name=name,
                                  count=len(value), bound=MAX_LESSON_VALUE_CHARS)
    return Step(page, without_lone_surrogates(title), dict(params))


def _bounded_int(digits: str) -> int:
    """A JSON integer, refused before `int()` sees more digits than any lesson needs."""
    if len(digits.lstrip("-")) > MAX_LINK_DIGITS:
        raise LessonFileError(N_("the file holds a number of {count} digits; a lesson file's "
                                 "numbers have at most {bound}"),
                              count=len(digits), bound=MAX_LINK_DIGITS)
    return int(digits)


def _shown(value: object) -> str:
    """A value of the file, short and printable, for a message (still plain text)."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else f'"{value}"'
    cut = "".join(c if c.isprintable() else "?" for c in text[:40])
    return cut + ("…" if len(text) > 40 else "")
