"""A link's query parameters, read by the one tolerant reader every page uses.

A link is typed by hand, cut short by a chat app, shared and tampered with; whatever it holds,
the page opens. Each value is checked before it is used: a bounded length, ASCII digits only
for a number (`²` and `٣` are digits to `str.isdigit`, and `int()` reads `٣`, but no link of
ours writes them), inside its range or one of its choices. A value that fails gives the page's
default instead, and the reader keeps a quiet note of what it did not use and why; the page
shows the notes under its title, until the user moves to another page.

Leaves out: writing the link (each page does that after its widgets) and deciding *when* to read
it (once per session and page: `ui.common.page_state.first_visit`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import streamlit as st

from tokenizer_core.messages import N_, Refusal
from ui.common.i18n import _, explain, number
from ui.common.limits import MAX_LINK_CHOICE_CHARS, MAX_LINK_DIGITS
from ui.common.safe_text import literal, lone_surrogates, without_lone_surrogates

T = TypeVar("T")

SHOWN_CHARS = 24  # characters of a value that was not used, quoted in its note
NOTES_KEY = "link_notes"  # session state: (page, [notes]) of the link this page was opened with


def parse_int(value: str, low: int, high: int, allowed: Collection[int] | None = None) -> int:
    """`value` as a whole number in [low, high] (and in `allowed`, if given); ValueError saying
    why not. The length is checked first, so 5,000 digits never reach `int()`."""
    if len(value) > MAX_LINK_DIGITS:
        raise Refusal(N_("it has {count} characters, and a number here has at most {bound}"),
                      count=len(value), bound=MAX_LINK_DIGITS)
    if not (value.isascii() and value.isdigit()):
        raise Refusal(N_("it is not a whole number written with the digits 0-9"))
    whole = int(value)
    if not low <= whole <= high:
        raise Refusal(N_("it is outside {low} to {high}"), low=low, high=high)
    if allowed is not None and whole not in allowed:
        # subtle: a list of numbers, one value: grouped the English way in both languages
        # (Chinese groups by thousands too).
        raise Refusal(N_("it is not one of {choices}"),
                      choices=", ".join(f"{n:,}" for n in sorted(allowed)))
    return whole


def parse_choice(value: str, choices: Mapping[str, T]) -> T:
    """The choice `value` names (`choices` maps every accepted spelling to its value)."""
    if len(value) <= MAX_LINK_CHOICE_CHARS and value in choices:
        return choices[value]
    names = list(dict.fromkeys(str(v) for v in choices.values()))
    if len(names) <= 6:
        raise Refusal(N_("it is not one of {choices}"), choices=", ".join(names))
    raise Refusal(N_("it is not one of this page's choices"))


def parse_flag(value: str) -> bool:
    """`1` is on and `0` is off, as the pages write them."""
    if value in ("0", "1"):
        return value == "1"
    raise Refusal(N_("it is neither 1 (on) nor 0 (off)"))


def quoted(value: str) -> str:
    """A value that was not used, shortened and made printable for a note (still plain text)."""
    cut = value[:SHOWN_CHARS]
    shown = "".join(c if c.isprintable() else "?" for c in cut)
    return shown + ("…" if len(value) > SHOWN_CHARS else "")


@dataclass
class LinkReader:
    """One page's reading of a link: each value it can use, and a note for each it cannot.

    Every `read_*` returns the link's value, or `default` when the link has none, or `default`
    and a note when the link's value does not fit. `shown` is the default as the page names it
    ("1,024 tokens"); notes are Markdown, the link's value inside them made literal.
    """

    params: Mapping[str, str]
    notes: list[str] = field(default_factory=list)
    whole_text: bool = False  # a lesson file's values: text is not cut at a link's length
    replaced: dict[str, int] = field(default_factory=dict)  # name -> lone surrogates replaced

    def __post_init__(self) -> None:
        # subtle: a lesson file's JSON can hold half of a surrogate pair ("\\ud800"), which no
        # page can send to the browser; a link cannot (the browser's URL encoding replaces it).
        # U+FFFD takes each one's place; a text says so when read, any other value fails its
        # check and says so anyway.
        params = dict(self.params)
        for name, value in params.items():
            if count := lone_surrogates(value):
                params[name] = without_lone_surrogates(value)
                self.replaced[name] = count
        self.params = params

    def _note(self, name: str, value: str, why: str, used: str) -> None:
        self.notes.append(_("This link's `{name}` value “{value}” was not used: {why}. Showing "
                            "{used} instead.", name=name, value=literal(quoted(value)),
                            why=literal(why), used=literal(used)))

    def _read(self, name: str, default: T, parse: Callable[[str], T], shown: str | None) -> T:
        value = self.params.get(name)
        if value is None:
            return default
        try:
            return parse(value)
        except ValueError as why:
            self._note(name, value, explain(why), shown if shown is not None else str(default))
            return default

    def read_int(self, name: str, default: int, *, low: int, high: int,
                 allowed: Collection[int] | None = None, shown: str | None = None) -> int:
        return self._read(name, default, lambda v: parse_int(v, low, high, allowed),
                          shown if shown is not None else number(default))

    def read_choice(self, name: str, choices: Mapping[str, T], default: T, *,
                    shown: str | None = None) -> T:
        return self._read(name, default, lambda v: parse_choice(v, choices), shown)

    def read_flag(self, name: str, default: bool = False) -> bool:
        return self._read(name, default, parse_flag, _("on") if default else _("off"))

    def read_names(self, name: str, allowed: Collection[str], default: Sequence[str], *,
                   limit: int) -> list[str]:
        """A comma-separated list: the names this page knows, in order, at most `limit`;
        unknown names are left out with a note, and no known name at all gives `default`."""
        value = self.params.get(name)
        if not value:
            return list(default)
        if len(value) > MAX_LINK_CHOICE_CHARS:
            why = _("it has {count} characters, more than {limit} names take",
                    count=number(len(value)), limit=number(limit))
            self._note(name, value, why, ", ".join(default))
            return list(default)
        names = [n for n in value.split(",") if n]
        unknown = [n for n in names if n not in allowed]
        known = list(dict.fromkeys(n for n in names if n in allowed))
        if len(unknown) == 1:
            self.notes.append(_("This link's `{name}` names “{first}”, which this page does not "
                                "know: left out.", name=name, first=literal(quoted(unknown[0]))))
        elif unknown:
            self.notes.append(_("This link's `{name}` names “{first}” and {more} more, which this "
                                "page does not know: left out.", name=name,
                                first=literal(quoted(unknown[0])), more=number(len(unknown) - 1)))
        if len(known) > limit:
            self.notes.append(_("This link's `{name}` names {count}; the first {limit} are shown.",
                                name=name, count=number(len(known)), limit=number(limit)))
        return known[:limit] or list(default)

    def read_text(self, name: str, default: str, *, max_chars: int,
                  file_max_chars: int | None = None) -> str:
        """Text as written (Streamlit has already percent-decoded it), cut at `max_chars`, or
        at `file_max_chars` (the page's own text bound) when it comes from a lesson file."""
        value = self.params.get(name)
        if not value:
            return default
        if self.whole_text and file_max_chars is not None:
            max_chars = file_max_chars
        if count := self.replaced.get(name):
            self.notes.append(
                _("This link's `{name}` holds half of a UTF-16 surrogate pair, which no text can "
                  "carry: U+FFFD (�) stands in its place.", name=name) if count == 1 else
                _("This link's `{name}` holds {count} halves of UTF-16 surrogate pairs, which no "
                  "text can carry: U+FFFD (�) stands in place of each.", name=name,
                  count=number(count)))
        if len(value) > max_chars:
            self.notes.append(_("This link's `{name}` has {count} characters; the first {bound} "
                                "are used.", name=name, count=number(len(value)),
                                bound=number(max_chars)))
        return value[:max_chars]


def read_link() -> LinkReader:
    """A reader over the current URL's query parameters (the last value of a repeated one)."""
    return LinkReader(st.query_params.to_dict())


def keep_notes(page: str, reader: LinkReader) -> None:
    """Show the reader's notes under `page`'s title: the list itself is kept, so notes of the
    values read after this call are shown too."""
    st.session_state[NOTES_KEY] = (page, reader.notes)


def show_link_notes(page: str) -> None:
    """Under a page's title: what the link it was opened with held but could not be used.
    The notes last while the user stays on that page; any other page drops them."""
    kept_for, notes = st.session_state.get(NOTES_KEY) or (None, [])
    if kept_for != page:
        st.session_state.pop(NOTES_KEY, None)
        return
    if notes:
        with st.container(key="link_notes_box"):
            st.caption("  \n".join(f"ⓘ {note}" for note in notes))
