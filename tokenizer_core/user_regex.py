"""A regex someone typed, checked before it is compiled: `check_pattern`, `compile_user_pattern`.

Why: the `regex` module spells a repeat out when it compiles it. `x{10000000}` becomes ten
million copies of `x` (2.6 GB and 5.6 s before a single match runs), `x{1000000000}` asks for
hundreds of gigabytes and the kernel kills the whole server, every session with it; `(a{1000}){1000}`
is a million copies. A time limit on matching does not help: the damage is done while compiling.
So a user's pattern is read by a small scanner first and refused, with the bound it broke, if

1. it is longer than the caller's bound (`max_chars`);
2. a repeat count (`{n}`, `{n,}`, `{n,m}`, `{,m}`, or any number in braces) is over MAX_REPEAT;
3. spelled out, with each repeat's count multiplied through the groups around it, it holds more
   than MAX_SPELLED items: `(a{100}){100}` is 10,000 (allowed), `(a{1000}){1000}` a million;
4. it turns on verbose mode (`(?x)`), where spaces and `#` comments would hide what repeats what.

subtle: the scanner errs on the side of refusing. A character class ends at its first `]` (a
nested V1 set `[[a]b]` then reads as more pattern than it is, never less), every group counts
all its alternatives, and `{n,m}` counts m. Only the counts can make a short pattern huge: a
class, an escape or a character is one item, whatever it matches.

What it leaves out: matching time. A pattern within these bounds still backtracks without end
on some texts (`(a+)+$` on a long run of `a`); callers match with the `regex` module's
`timeout` (measure/vocabulary.py's search does, with a deadline for the whole table).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import regex

from .messages import N_, Refusal

MAX_REPEAT = 1_000  # the largest count a repeat may ask for: `x{1000}`
MAX_SPELLED = 10_000  # items the pattern holds with every repeat spelled out (about 3 MB compiled)
_VERBOSE = re.compile(r"\(\?[a-zA-Z0-9-]*x[a-zA-Z0-9-]*[:)]")  # (?x) (?ix) (?x:...)
_NUMBER = re.compile(r"\d+")
_COUNT = re.compile(r"\s*(\d*)\s*(?:(,)\s*(\d*)\s*)?")  # what braces hold when they are a repeat


@dataclass
class _Group:
    """Items so far in one group (or the whole pattern), and the size of its last atom."""

    total: int = 0
    last: int = 0

    def add(self, size: int) -> None:
        self.total += size
        self.last = size

    def repeat(self, count: int) -> None:
        # subtle: a second repeat of the same atom (`x{3}{2}`, which regex refuses) multiplies
        # again: counting more is never the unsafe side.
        self.total += self.last * (count - 1)
        self.last *= count


def _brace_count(inside: str) -> int | None:
    """The count a repeat in braces asks for (its largest number), or None when the braces are
    not a repeat (`x{a}` is the three characters, `{e<=1}` a fuzzy constraint)."""
    found = _COUNT.fullmatch(inside)
    if found is None or not (found.group(1) or found.group(3)):
        return None
    if found.group(2) and not found.group(3):
        return int(found.group(1))  # {n,}: n copies, then a loop
    return max(int(n) for n in (found.group(1), found.group(3)) if n)


def _class_end(pattern: str, start: int) -> int:
    """The index after the character class opening at `start`: its first `]` that is neither
    escaped nor the class's first character."""
    i = start + 1
    if pattern[i : i + 1] == "^":
        i += 1
    if pattern[i : i + 1] == "]":
        i += 1
    while i < len(pattern) and pattern[i] != "]":
        i += 2 if pattern[i] == "\\" else 1
    return i + 1


def _escape_end(pattern: str, start: int) -> int:
    """The index after the escape at `start`: `\\d` is two characters, `\\p{Han}`, `\\P{...}` and
    `\\N{...}` run to their closing brace.

    subtle: only those three take braces; `\\d{9}` is `\\d` repeated, and must be counted."""
    i = start + 2
    if pattern[start + 1 : start + 2] in ("p", "P", "N") and pattern[i : i + 1] == "{":
        close = pattern.find("}", i)
        if close > 0 and "{" not in pattern[i + 1 : close]:  # else: count what follows, too
            return close + 1
    return i


def _refuse_counts(pattern: str, inside: str) -> None:
    for number in _NUMBER.findall(inside):
        if int(number) > MAX_REPEAT:
            raise Refusal(
                N_("the regex {pattern} repeats something {count} times; the bound is {bound} "
                   "repeats (compiling it would spell every copy out in memory)"),
                pattern=repr(pattern), count=int(number), bound=MAX_REPEAT)


def spelled_size(pattern: str) -> int:
    """How many items the pattern holds with every repeat spelled out (by the docstring's rule);
    ValueError for a count over MAX_REPEAT, found before any multiplication can grow large."""
    groups = [_Group()]
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i = _escape_end(pattern, i)
            groups[-1].add(1)
            continue
        if ch == "[":
            i = _class_end(pattern, i)
            groups[-1].add(1)
            continue
        if ch == "(":
            groups.append(_Group())
        elif ch == ")" and len(groups) > 1:
            inner = groups.pop()
            groups[-1].add(inner.total)
        elif ch == "|":
            groups[-1].last = 0  # an alternative starts: nothing before it is repeated
        elif ch in "*+?":
            pass  # one copy, then a loop: nothing spelled out twice
        elif ch == "{" and (close := pattern.find("}", i)) > 0:
            inside = pattern[i + 1 : close]
            _refuse_counts(pattern, inside)
            count = _brace_count(inside)
            if count is not None:
                groups[-1].repeat(count)
                i = close + 1
                continue
            groups[-1].add(1)
        else:
            groups[-1].add(1)
        i += 1
    while len(groups) > 1:  # an unclosed group (regex will say so): count it anyway
        inner = groups.pop()
        groups[-1].add(inner.total)
    return groups[0].total


def check_pattern(pattern: str, max_chars: int) -> None:
    """Refuse, before compiling, a pattern that could take the server's memory (the docstring's
    four rules); ValueError naming the bound broken."""
    if len(pattern) > max_chars:
        raise Refusal(N_("the regex has {length} characters; the bound is {bound}"),
                      length=len(pattern), bound=max_chars)
    if _VERBOSE.search(pattern):
        raise Refusal(
            N_("the regex {pattern} turns on verbose mode (?x), where spaces and comments "
               "could hide a repeat; write it without (?x), a space as \\x20 or [ ]"),
            pattern=repr(pattern))
    size = spelled_size(pattern)
    if size > MAX_SPELLED:
        raise Refusal(
            N_("the regex {pattern} repeats repeats: spelled out it holds {size} items; the "
               "bound is {bound} (use smaller nested counts, or + and *)"),
            pattern=repr(pattern), size=size, bound=MAX_SPELLED)


def compile_user_pattern(pattern: str, max_chars: int) -> regex.Pattern[str]:
    """`regex.compile(pattern)` once `check_pattern` lets it through; ValueError for a pattern
    refused or not valid, in words a user can act on."""
    check_pattern(pattern, max_chars)
    try:
        return regex.compile(pattern)
    except (regex.error, OverflowError, RecursionError) as error:
        raise Refusal(N_("the regex {pattern} is not valid: {error}"),
                      pattern=repr(pattern), error=str(error)) from None
