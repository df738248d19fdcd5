"""The fill-in-the-blank exercises, written on this project's own code.

data/practice/exercises.json names, for each exercise, the functions (or classes) it quotes by
module and qualified name, the sha256 of the quoted code, and the blanks. The code is quoted
live with `inspect.getsource`, never pasted: when a quoted function changes, its sha256 no
longer matches and the staleness test fails until the exercise is brought in step.

A blank is a piece of the quoted code, named by its text (`original`) and which occurrence of
that text it is (1 = the first); its `mode` says whether it is an expression or a statement.
`accepted` lists other right answers (the original is always right), `wrong` lists common wrong
answers with the reason, `hint` nudges without giving it away. `equivalences` names the
classes of equivalences.py that hold where the blank sits (`iterated`: its value is only looped
over; `dict_argmax`: it picks a dict's key with the largest value).

Leaves out: checking answers (checker.py) and random blanks (masking.py).
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import textwrap
from dataclasses import dataclass
from functools import cache
from typing import Any

from ...samples import DATA_DIR, MAX_DATA_FILE_BYTES
from .checker import Mode, Verdict, WrongAnswer, check_answer
from .equivalences import CLASSES

EXERCISES_FILE = DATA_DIR / "practice" / "exercises.json"
QUOTABLE_PACKAGE = "tokenizer_core."  # an exercise may quote this project's code, nothing else
MARKER = "__{n}__"  # how blank n is drawn in the code


@dataclass(frozen=True)
class Source:
    module: str
    qualname: str


@dataclass(frozen=True)
class Blank:
    original: str
    occurrence: int
    mode: Mode
    hint: str
    accepted: tuple[str, ...]
    wrong: tuple[WrongAnswer, ...]
    equivalences: tuple[str, ...] = ()

    def check(self, answer: str) -> Verdict:
        return check_answer(answer, self.mode, (self.original, *self.accepted), self.wrong,
                            self.equivalences)


@dataclass(frozen=True)
class Exercise:
    id: str
    title: str
    intro: str
    sources: tuple[Source, ...]
    sha256: str
    blanks: tuple[Blank, ...]


def quote(source: Source) -> str:
    """The function's or class's code as it is now, dedented (a method is quoted alone)."""
    if not source.module.startswith(QUOTABLE_PACKAGE):
        raise ValueError(f"an exercise quotes {source.module!r}; only {QUOTABLE_PACKAGE}* may be")
    obj: Any = importlib.import_module(source.module)
    for part in source.qualname.split("."):
        obj = getattr(obj, part)
    return textwrap.dedent(inspect.getsource(obj))


def quoted_code(exercise: Exercise) -> str:
    """Every source of the exercise, one after the other."""
    return "\n\n".join(quote(s).rstrip("\n") for s in exercise.sources) + "\n"


def code_sha256(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


def blank_spans(exercise: Exercise, code: str) -> list[tuple[int, int]]:
    """Each blank's [start, end) in the quoted code; ValueError naming a blank that is gone."""
    spans = []
    for blank in exercise.blanks:
        start = -1
        for _ in range(blank.occurrence):
            start = code.find(blank.original, start + 1)
            if start < 0:
                raise ValueError(
                    f"exercise {exercise.id!r}: occurrence {blank.occurrence} of "
                    f"{blank.original!r} is not in the quoted code any more; update "
                    f"{EXERCISES_FILE.name}"
                )
        spans.append((start, start + len(blank.original)))
    if any(a[1] > b[0] for a, b in zip(sorted(spans), sorted(spans)[1:])):
        raise ValueError(f"exercise {exercise.id!r}: two blanks overlap")
    return spans


def with_markers(code: str, spans: list[tuple[int, int]]) -> str:
    """The code with span k replaced by `__k+1__` (numbered in the order given)."""
    order = sorted(range(len(spans)), key=lambda k: spans[k][0], reverse=True)
    for k in order:  # from the end, so earlier offsets stay right
        start, end = spans[k]
        code = code[:start] + MARKER.format(n=k + 1) + code[end:]
    return code


def _blank(record: dict[str, Any]) -> Blank:
    mode = record.get("mode", "expression")
    if mode not in ("expression", "statement"):
        raise ValueError(f"blank {record.get('original')!r}: mode must be expression or statement")
    return Blank(
        original=str(record["original"]),
        occurrence=int(record.get("occurrence", 1)),
        mode=mode,
        hint=str(record["hint"]),
        accepted=tuple(str(a) for a in record.get("accepted", [])),
        wrong=tuple(WrongAnswer(str(w["answer"]), str(w["why"])) for w in record.get("wrong", [])),
        equivalences=_classes(record),
    )


def _classes(record: dict[str, Any]) -> tuple[str, ...]:
    names = tuple(str(c) for c in record.get("equivalences", []))
    unknown = [c for c in names if c not in CLASSES]
    if unknown:
        raise ValueError(f"blank {record.get('original')!r}: unknown equivalence class "
                         f"{unknown[0]!r}; choose from " + ", ".join(sorted(CLASSES)))
    return names


def _exercise(record: dict[str, Any]) -> Exercise:
    return Exercise(
        id=str(record["id"]),
        title=str(record["title"]),
        intro=str(record["intro"]),
        sources=tuple(Source(str(s["module"]), str(s["qualname"])) for s in record["sources"]),
        sha256=str(record["sha256"]),
        blanks=tuple(_blank(b) for b in record["blanks"]),
    )


@cache
def all_exercises() -> tuple[Exercise, ...]:
    """The exercises in data/practice/exercises.json, in order (read once; never changed)."""
    raw = EXERCISES_FILE.read_bytes()
    if len(raw) > MAX_DATA_FILE_BYTES:
        raise ValueError(f"{EXERCISES_FILE} is over {MAX_DATA_FILE_BYTES:,} bytes")
    data = json.loads(raw.decode("utf-8"))
    return tuple(_exercise(r) for r in data["exercises"])


def exercise(exercise_id: str) -> Exercise:
    for ex in all_exercises():
        if ex.id == exercise_id:
            return ex
    raise ValueError(f"unknown exercise {exercise_id!r}; choose one of "
                     + ", ".join(e.id for e in all_exercises()))
