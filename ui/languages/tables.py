"""The Languages page's tables: pandas frames built from core results (pure, no Streamlit).

Frames for the charts are long (one row per tokenizer and language); frames for people are
wide (one row per tokenizer) and are what the CSV downloads hold.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd

from tokenizer_core.measure.language_costs import LanguagePremiums, Premium, string_cost
from tokenizer_core.measure.vocab_growth import GrowthCurve
from tokenizer_core.render import escape
from tokenizer_core.samples import EmojiEntry, ParallelPair
from ui.languages.limits import MAX_PAIR_HOVER_CHARS

CATEGORY_LABELS = {
    "single": "single emoji", "skin_tone": "skin tone", "zwj_family": "ZWJ family",
    "zwj": "other ZWJ", "flag": "flag", "tag_flag": "tag flag", "keycap": "keycap",
}  # fmt: skip


def _short(text: str) -> str:
    """A sentence for a hover box: cut to a bound, then escaped (plotly reads some HTML)."""
    cut = text if len(text) <= MAX_PAIR_HOVER_CHARS else text[: MAX_PAIR_HOVER_CHARS - 1] + "…"
    return escape(cut)


def rates_frame(premiums: Mapping[str, Premium]) -> pd.DataFrame:
    """Long: tokenizer, language, tokens, characters, utf8_bytes, tokens_per_char,
    bytes_per_token."""
    records = []
    for name, result in premiums.items():
        for language, side in (("English", result.en), ("Chinese", result.zh)):
            records.append({
                "tokenizer": name, "language": language, "tokens": side.tokens,
                "characters": side.characters, "utf8_bytes": side.utf8_bytes,
                "tokens_per_char": side.tokens_per_char, "bytes_per_token": side.bytes_per_token,
            })  # fmt: skip
    return pd.DataFrame.from_records(records)


def premium_frame(premiums: Mapping[str, Premium]) -> pd.DataFrame:
    """Chart frame: tokenizer, ratio_of_totals, median_ratio."""
    return pd.DataFrame({
        "tokenizer": list(premiums),
        "ratio_of_totals": [p.total_ratio for p in premiums.values()],
        "median_ratio": [p.median_ratio for p in premiums.values()],
    })  # fmt: skip


def premium_table(
    premiums: Mapping[str, Premium], vocab: Mapping[str, int], trained_on: Mapping[str, str]
) -> pd.DataFrame:
    """Wide, one row per tokenizer: what the page shows and the CSV holds."""
    rows = []
    for name, p in premiums.items():
        rows.append({
            "tokenizer": name,
            "vocab size": vocab.get(name),
            "premium: ratio of totals": round(p.total_ratio, 3),
            "premium: median per pair": round(p.median_ratio, 3),
            "EN tokens": p.en.tokens,
            "ZH tokens": p.zh.tokens,
            "EN tokens/char": round(p.en.tokens_per_char, 3),
            "ZH tokens/char": round(p.zh.tokens_per_char, 3),
            "EN bytes/token": round(p.en.bytes_per_token, 2),
            "ZH bytes/token": round(p.zh.bytes_per_token, 2),
            "pairs costlier in ZH": f"{p.pairs_costlier_in_zh} of {len(p.pairs)}",
            "EN characters": p.en.characters, "ZH characters": p.zh.characters,
            "EN bytes": p.en.utf8_bytes, "ZH bytes": p.zh.utf8_bytes,
            "trained on": trained_on.get(name, ""),
        })  # fmt: skip
    return pd.DataFrame.from_records(rows)


def pair_ratio_frame(
    premiums: Mapping[str, Premium], pairs: Sequence[ParallelPair]
) -> pd.DataFrame:
    """Long, for the per-pair chart: tokenizer, line, ratio, hover (escaped)."""
    by_line = {p.line: p for p in pairs}
    records = []
    for name, result in premiums.items():
        for cost in result.pairs:
            pair = by_line[cost.line]
            hover = (f"line {cost.line}: {cost.en_tokens} → {cost.zh_tokens} tokens<br>"
                     f"{_short(pair.en)}<br>{_short(pair.zh)}")
            records.append(
                {"tokenizer": name, "line": cost.line, "ratio": cost.ratio, "hover": hover}
            )
    return pd.DataFrame.from_records(records)


def pair_table(premiums: Mapping[str, Premium], pairs: Sequence[ParallelPair]) -> pd.DataFrame:
    """Wide, one row per pair: the sentences, then tokens and ratio per tokenizer."""
    frame = pd.DataFrame({
        "line": [p.line for p in pairs], "en": [p.en for p in pairs], "zh": [p.zh for p in pairs],
        "EN chars": [len(p.en) for p in pairs], "ZH chars": [len(p.zh) for p in pairs],
    })  # fmt: skip
    for name, result in premiums.items():
        frame[f"{name}: EN"] = [c.en_tokens for c in result.pairs]
        frame[f"{name}: ZH"] = [c.zh_tokens for c in result.pairs]
        frame[f"{name}: ratio"] = [round(c.ratio, 3) for c in result.pairs]
    return frame


def emoji_table(entries: Sequence[EmojiEntry], tokens: Mapping[str, Sequence[int]]) -> pd.DataFrame:
    """One row per emoji: kind, name, the emoji, code points, bytes, tokens per tokenizer."""
    costs = [string_cost(e.emoji) for e in entries]
    frame = pd.DataFrame({
        "kind": [CATEGORY_LABELS.get(e.category, e.category) for e in entries],
        "name": [e.name for e in entries],
        "emoji": [e.emoji for e in entries],
        "code points": [" ".join(c.code_points) for c in costs],
        "# code points": [c.n_code_points for c in costs],
        "UTF-8 bytes": [c.n_bytes for c in costs],
        "bytes (hex)": [" ".join(c.utf8_hex) for c in costs],
    })  # fmt: skip
    for name, counts in tokens.items():
        frame[name] = list(counts)
    return frame


def emoji_chart_frame(table: pd.DataFrame, names: Sequence[str]) -> pd.DataFrame:
    """Long, for the emoji chart: category, series, value (means per kind)."""
    series = {"code points": "# code points", "UTF-8 bytes": "UTF-8 bytes", **{n: n for n in names}}
    means = table.groupby("kind", sort=False)[list(series.values())].mean()
    records = [
        {"category": kind, "series": label, "value": float(means.loc[kind, column])}
        for label, column in series.items() for kind in means.index
    ]  # fmt: skip
    return pd.DataFrame.from_records(records)


def grow_frame(curve: GrowthCurve) -> pd.DataFrame:
    """added (N), vocab_size, tokens, character (the N-th added, escaped for the hover)."""
    n = len(curve.tokens)
    return pd.DataFrame({
        "added": range(n),
        "vocab_size": [curve.vocab_size(k) for k in range(n)],
        "tokens": list(curve.tokens),
        "character": ["(none: bytes only)"]
        + [escape(f"{c} ({k:,}×)") for c, k in zip(curve.added, curve.train_counts)],
    })  # fmt: skip


def added_frame(curve: GrowthCurve, n: int) -> pd.DataFrame:
    """The first n characters added, with their training counts and held-out savings order."""
    return pd.DataFrame({
        "rank": range(1, n + 1), "character": list(curve.added[:n]),
        "count in training text": list(curve.train_counts[:n]),
        "code point": [f"U+{ord(c):04X}" for c in curve.added[:n]],
    })  # fmt: skip


def headline_frame(
    premiums: Mapping[str, Premium], emoji_tokens: Mapping[str, Sequence[int]]
) -> pd.DataFrame:
    """One row per tokenizer (short label): premium (Chinese over English, ratio of totals) and
    emoji (mean tokens per emoji of the catalogue)."""
    return pd.DataFrame({
        "tokenizer": list(premiums),
        "premium": [p.total_ratio for p in premiums.values()],
        "emoji": [sum(emoji_tokens[n]) / len(emoji_tokens[n]) for n in premiums],
    })  # fmt: skip


def language_frame(results: Mapping[str, LanguagePremiums], names: Mapping[str, str]) -> pd.DataFrame:
    """Long, for the heat chart: language (display name), tokenizer, premium; the base language
    (1× everywhere) is left out."""
    records = []
    for tokenizer, result in results.items():
        for code, ratio in list(result.ratios().items())[1:]:
            records.append({"language": names.get(code, code), "tokenizer": tokenizer,
                            "premium": ratio})
    return pd.DataFrame.from_records(records)


def language_table(results: Mapping[str, LanguagePremiums], names: Mapping[str, str]) -> pd.DataFrame:
    """Wide, one row per language: its code, characters, bytes, then the premium per tokenizer
    (what the page shows and the CSV holds)."""
    first = next(iter(results.values()))
    frame = pd.DataFrame({
        "language": [names.get(c, c) for c in first.languages],
        "code": list(first.languages),
        "characters": [t.characters for t in first.totals],
        "UTF-8 bytes": [t.utf8_bytes for t in first.totals],
    })  # fmt: skip
    for tokenizer, result in results.items():
        frame[tokenizer] = [round(r, 3) for r in result.ratios().values()]
    return frame
