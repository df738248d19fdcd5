"""Pandas tables the pages show: tokenizer stats side by side, one tokenizer's tokens, and the
one way a table becomes a CSV download."""

from __future__ import annotations

from typing import Any, Sequence

import pandas as pd

from tokenizer_core import Token, Tokenizer
from tokenizer_core.measure.metrics import round_trip, text_stats


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
    records = []
    for label, tokenizer, tokens in rows:
        stats = text_stats(text, tokens)
        trip = round_trip(tokenizer, text, tokens)
        records.append(
            {
                "tokenizer": label,
                "tokens": stats.tokens,
                "chars / token": _rounded(stats.chars_per_token),
                "bytes / token": _rounded(stats.bytes_per_token),
                "words / token": _rounded(stats.words_per_token),
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


def csv_download(
    container: Any, label: str, frame: pd.DataFrame, file_name: str, key: str | None = None
) -> None:
    """A download button for `frame` as CSV in `container` (the `st` module, a column, ...).

    subtle: the data is a callable, so the CSV is written only when the button is clicked, never
    on a rerun that merely draws the button. The frame must not change after this call.
    """
    container.download_button(label, data=lambda: frame.to_csv(index=False).encode("utf-8"),
                              file_name=file_name, mime="text/csv", key=key)
