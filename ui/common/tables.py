"""Pandas tables the pages show: tokenizer stats side by side, one tokenizer's tokens, and the
one way a table becomes a CSV download."""

from __future__ import annotations

from typing import Any, Sequence

import pandas as pd

from tokenizer_core import Token, Tokenizer
from tokenizer_core.measure.metrics import count_words, round_trip, text_stats
from ui.common.i18n import N_, _, say


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


STATS_DETAIL = "what was lost"  # a column of stats_frame for a note under the table, not a cell


def stats_frame(
    text: str, rows: Sequence[tuple[str, Tokenizer, Sequence[Token]]], window: int
) -> pd.DataFrame:
    """One row per tokenizer: tokens, compression, share of a `window`-token context, round trip.

    What is the same on every row (the text's characters, bytes and words) is not a column, so
    the table fits a laptop's width; nor is the round trip's long explanation (STATS_DETAIL).
    """
    words = count_words(text).words  # per script: a Chinese character is a word (metrics.py)
    records = []
    for label, tokenizer, tokens in rows:
        stats = text_stats(text, tokens)
        trip = round_trip(tokenizer, text, tokens, say)
        records.append(
            {
                "tokenizer": label,
                "tokens": stats.tokens,
                "chars / token": _rounded(stats.chars_per_token),
                "bytes / token": _rounded(stats.bytes_per_token),
                "words / token": "n/a" if words is None else _rounded(
                    words / stats.tokens if stats.tokens else None),
                "% of context": round(100 * stats.context_share(window), 2),
                "round trip": "OK" if trip.ok else "lost",
                STATS_DETAIL: trip.lost,
            }
        )
    return pd.DataFrame.from_records(records)


def token_frame(tokens: Sequence[Token]) -> pd.DataFrame:
    """Every token: position, id, how it shows, its own string, bytes in hex, offsets, flags."""
    return pd.DataFrame(
        {
            "#": range(len(tokens)),
            "id": [t.id for t in tokens],
            "text": [t.display(visible_whitespace=True) for t in tokens],
            # a token that splits a character has no string of its own: its bytes (<E4 BD>)
            "token string": [t.display() if t.piece is None else t.piece for t in tokens],
            "bytes (hex)": [" ".join(f"{b:02X}" for b in t.bytes) for t in tokens],
            "start": [t.start for t in tokens],
            "end": [t.end for t in tokens],
            "splits a character": [t.partial for t in tokens],
            "special": [t.special for t in tokens],
        }
    )


# Column headers as the screen shows them (the frames, and the CSV files, keep the English names:
# tests and other programs read them). Marked here, translated where a table is drawn.
HEADERS: dict[str, str] = {
    "tokenizer": N_("tokenizer"), "tokens": N_("tokens"), "chars / token": N_("chars / token"),
    "bytes / token": N_("bytes / token"), "words / token": N_("words / token"),
    "% of context": N_("% of context"), "round trip": N_("round trip"),
    "#": "#", "id": "id", "text": N_("text"), "token string": N_("token string"),
    "bytes (hex)": N_("bytes (hex)"), "start": N_("start"), "end": N_("end"),
    "splits a character": N_("splits a character"), "special": N_("special"),
}
CELLS = {"n/a": N_("n/a"), "OK": N_("OK"), "lost": N_("lost")}  # words a stats cell may hold


def shown_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` with its headers, and the cells that are words, in the session's language."""
    shown = frame.rename(columns={c: _(HEADERS[c]) for c in frame.columns if c in HEADERS})
    for column in frame.columns:
        if column in ("words / token", "round trip"):
            shown[_(HEADERS[column])] = frame[column].map(
                lambda v: _(CELLS[v]) if isinstance(v, str) and v in CELLS else v)
    return shown


def csv_download(
    container: Any, label: str, frame: pd.DataFrame, file_name: str, key: str | None = None
) -> None:
    """A download button for `frame` as CSV in `container` (the `st` module, a column, ...).

    subtle: the data is a callable, so the CSV is written only when the button is clicked, never
    on a rerun that merely draws the button. The frame must not change after this call. A
    download changes nothing, so it starts no rerun (a rerun racing the download lost it).
    """
    container.download_button(label, data=lambda: frame.to_csv(index=False).encode("utf-8"),
                              file_name=file_name, mime="text/csv", key=key, on_click="ignore")
