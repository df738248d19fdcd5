"""Guess the token count: a short series of texts (or your own), a guess, then the real count
with the coloured tokens, how far off the guess was, and a running score.

State, this session only: `pr_step` (which text of the series), `pr_guesses`, a dict
{(text id, tokenizer): GuessScore} of what was revealed (its sum is the running score).
"""

from __future__ import annotations

import streamlit as st

from tokenizer_core.lessons.practice import (
    SCORING_RULE,
    GuessScore,
    guess_texts,
    score_guess,
    scoring_values,
)
from ui.common import catalog
from ui.common.i18n import N_, _, explain, ngettext, number, percent
from ui.common.page_state import KEEP
from ui.common.safe_text import literal
from ui.common.shell import presentation_mode
from ui.common.token_view import PanelData, render_options, token_panel
from ui.practice.limits import MAX_GUESS, MAX_GUESS_TEXT_CHARS, MAX_ROUNDS

GUESSES_KEY = "pr_guesses"
ERROR_KEY = "pr_guess_error"
OWN = "own"  # the text id of "your own text"
SOURCES = {"series": N_("The series"), OWN: N_("Your own text")}  # values stay English
TYPE_FIRST = N_("Type your guess first, then Reveal.")


def init_state() -> None:
    st.session_state.setdefault("pr_tok", "gpt2")
    st.session_state.setdefault("pr_step", 0)
    st.session_state.setdefault("pr_source", "series")
    st.session_state.setdefault("pr_own_text", "")
    st.session_state.setdefault("pr_guess", None)


def _guesses() -> dict[tuple[str, str], GuessScore]:
    return st.session_state.setdefault(GUESSES_KEY, {})


def _next() -> None:
    st.session_state["pr_step"] = (st.session_state["pr_step"] + 1) % len(guess_texts())
    st.session_state["pr_guess"] = None


def _start_again() -> None:
    st.session_state["pr_step"] = 0
    st.session_state["pr_guess"] = None
    _guesses().clear()


def _current() -> tuple[str, str, str]:
    """(text id, label, text) of what is being guessed now."""
    if st.session_state["pr_source"] == OWN:
        text = st.session_state.get("pr_own_text") or ""
        return f"{OWN}:{text}", N_("Your text"), text
    item = guess_texts()[st.session_state["pr_step"] % len(guess_texts())]
    return item.id, item.label, item.text


def _reveal(name: str) -> None:
    text_id, _, text = _current()
    guess = st.session_state.get("pr_guess")
    st.session_state.pop(ERROR_KEY, None)
    if not text:
        return
    if guess is None:
        st.session_state[ERROR_KEY] = TYPE_FIRST
        return
    try:
        tokens = catalog.tokenize(name, text, "plain")
    except ValueError as error:  # e.g. a character a trained vocabulary cannot spell
        st.session_state[ERROR_KEY] = error  # said in the language of the run that shows it
        return
    guesses = _guesses()
    guesses.pop((text_id, name), None)
    while len(guesses) >= MAX_ROUNDS:  # the oldest first: dicts keep insertion order
        del guesses[next(iter(guesses))]
    guesses[(text_id, name)] = score_guess(int(guess), len(tokens))


def guess_section() -> None:
    rule = _(SCORING_RULE, **{k: number(v) for k, v in scoring_values().items()})
    st.caption(_("How many tokens is this text? Guess, then reveal the real count and the "
                 "tokens. Scoring: {rule}", rule=rule))
    names = catalog.choices()
    if st.session_state.get("pr_tok") not in names:
        st.session_state["pr_tok"] = "gpt2"
    pick, source = st.columns([3, 2])
    name = pick.selectbox(_("Tokenizer"), names, key="pr_tok", format_func=catalog.label_of(),
                          persist_state=KEEP)
    source.segmented_control(_("Text"), list(SOURCES), key="pr_source",
                             format_func={v: _(t) for v, t in SOURCES.items()}.get,
                             persist_state=KEEP, required=True)
    if st.session_state["pr_source"] == OWN:
        st.text_area(_("Your text"), key="pr_own_text", max_chars=MAX_GUESS_TEXT_CHARS,
                     height=100, persist_state=KEEP,
                     help=_("At most {bound} characters.", bound=number(MAX_GUESS_TEXT_CHARS)))
    text_id, label, text = _current()
    if not text:
        st.info(_("Type a text to guess its token count."), icon="✏️")
        return
    series = guess_texts()
    if st.session_state["pr_source"] != OWN:
        st.markdown(_("**Text {step} of {total}: {label}** · {chars} characters",
                      step=number(st.session_state["pr_step"] + 1), total=number(len(series)),
                      label=literal(_(label)), chars=number(len(text))))
    st.code(text, language=None, wrap_lines=True)
    guess_col, reveal_col, next_col = st.columns([2, 1.2, 1.4],  # "Next text" on one line
                                                 vertical_alignment="bottom")
    guess_col.number_input(_("Your guess (tokens)"), min_value=0, max_value=MAX_GUESS, step=1,
                           key="pr_guess", persist_state=KEEP, placeholder=_("How many tokens?"))
    reveal_col.button(_("Reveal"), key="pr_reveal", type="primary", on_click=_reveal, args=(name,),
                      width="stretch")
    if st.session_state["pr_source"] != OWN:
        next_col.button(_("Next text"), key="pr_next", on_click=_next, width="stretch")
    if error := st.session_state.get(ERROR_KEY):
        st.error(literal(explain(error) if isinstance(error, Exception) else _(error)),
                 icon="⚠️")
    scored = _guesses().get((text_id, name))
    if scored is not None:
        (st.success if scored.points >= 8 else st.warning)(summary(scored), icon="🎯")
        big = presentation_mode()
        tokens = catalog.tokenize(name, text, "plain")
        token_panel(text, PanelData(name, catalog.label(name), tokens),
                    render_options(visible_whitespace=True, big=big, contrast=big))
    elif st.session_state.get("pr_guess") is None:
        st.caption(_("Type a guess, then Reveal."))
    points = sum(s.points for s in _guesses().values())
    rounds = len(_guesses())
    st.metric(_("Running score"), f"{number(points)} / {number(10 * rounds)}" if rounds else "0",
              help=_("Every text and tokenizer you revealed, 10 points each at most."))
    if rounds:
        st.button(_("Start again"), key="pr_restart", on_click=_start_again)


def summary(scored: GuessScore) -> str:
    """GuessScore.summary() in the session's language (plural forms by the locale)."""
    points = ngettext("{n} point.", "{n} points.", scored.points)
    if scored.off == 0:
        return _("Exactly right: {count} tokens. {points}", count=number(scored.count),
                 points=points)
    values = {"off": number(abs(scored.off)), "percent": percent(scored.percent_off / 100, 0),
              "count": number(scored.count), "points": points}
    if scored.off > 0:
        return _("{off} too high ({percent} off): the count is {count}: {points}", **values)
    return _("{off} too low ({percent} off): the count is {count}: {points}", **values)
