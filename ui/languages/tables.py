"""The Languages page's tables: pandas frames built from core results (pure, no Streamlit).

Frames for the charts are long (one row per tokenizer and language); frames for people are
wide (one row per tokenizer) and are what the CSV downloads hold. Headers and words in cells are
in the session's language (ui.common.i18n); tokenizer names stay as they are, and the frames
made inside a cache shared by sessions (pair_table, pair_ratio_frame) stay English, translated
where they are shown (shown_pair_table, the chart's hover).
"""

from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd

from tokenizer_core.measure.language_costs import LanguagePremiums, Premium, string_cost
from tokenizer_core.measure.vocab_growth import GrowthCurve
from tokenizer_core.render import escape
from tokenizer_core.samples import EmojiEntry, ParallelPair
from ui.common.i18n import N_, _, number
from ui.languages.data import shown
from ui.languages.limits import MAX_PAIR_HOVER_CHARS

CATEGORY_LABELS = {
    "single": N_("single emoji"), "skin_tone": N_("skin tone"), "zwj_family": N_("ZWJ family"),
    "zwj": N_("other ZWJ"), "flag": N_("flag"), "tag_flag": N_("tag flag"), "keycap": N_("keycap"),
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
        for language, side in ((_("English"), result.en), (_("Chinese"), result.zh)):
            records.append({
                "tokenizer": shown(name), "language": language, "tokens": side.tokens,
                "characters": side.characters, "utf8_bytes": side.utf8_bytes,
                "tokens_per_char": side.tokens_per_char, "bytes_per_token": side.bytes_per_token,
            })  # fmt: skip
    return pd.DataFrame.from_records(records)


def premium_frame(premiums: Mapping[str, Premium]) -> pd.DataFrame:
    """Chart frame: tokenizer, ratio_of_totals, median_ratio."""
    return pd.DataFrame({
        "tokenizer": [shown(n) for n in premiums],
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
            _("tokenizer"): shown(name),
            _("vocab size"): vocab.get(name),
            _("premium: ratio of totals"): round(p.total_ratio, 3),
            _("premium: median per pair"): round(p.median_ratio, 3),
            _("EN tokens"): p.en.tokens,
            _("ZH tokens"): p.zh.tokens,
            _("EN tokens/char"): round(p.en.tokens_per_char, 3),
            _("ZH tokens/char"): round(p.zh.tokens_per_char, 3),
            _("EN bytes/token"): round(p.en.bytes_per_token, 2),
            _("ZH bytes/token"): round(p.zh.bytes_per_token, 2),
            _("pairs costlier in ZH"): _("{count} of {total}", count=number(p.pairs_costlier_in_zh),
                                         total=number(len(p.pairs))),
            _("EN characters"): p.en.characters, _("ZH characters"): p.zh.characters,
            _("EN bytes"): p.en.utf8_bytes, _("ZH bytes"): p.zh.utf8_bytes,
            _("trained on"): trained_on.get(name, ""),
        })  # fmt: skip
    return pd.DataFrame.from_records(rows)


def pair_ratio_frame(
    premiums: Mapping[str, Premium], pairs: Sequence[ParallelPair]
) -> pd.DataFrame:
    """Long, for the per-pair chart: tokenizer, line, ratio, en_tokens, zh_tokens, hover (the
    two sentences, escaped). English labels: the chart says the words in the reader's language."""
    by_line = {p.line: p for p in pairs}
    records = []
    for name, result in premiums.items():
        for cost in result.pairs:
            pair = by_line[cost.line]
            hover = f"{_short(pair.en)}<br>{_short(pair.zh)}"
            records.append({"tokenizer": name, "line": cost.line, "ratio": cost.ratio,
                            "en_tokens": cost.en_tokens, "zh_tokens": cost.zh_tokens,
                            "hover": hover})
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


def shown_pair_table(frame: pd.DataFrame) -> pd.DataFrame:
    """pair_table's headers in the session's language (the frame itself is kept in a cache
    shared by sessions, in English)."""
    fixed = {c: _(c) for c in (N_("line"), N_("EN chars"), N_("ZH chars"))}
    per_tokenizer = {"EN": N_("{name}: EN"), "ZH": N_("{name}: ZH"), "ratio": N_("{name}: ratio")}
    renamed = {}
    for column in frame.columns:
        name, _sep, part = column.rpartition(": ")
        if column in fixed:
            renamed[column] = fixed[column]
        elif part in per_tokenizer:
            renamed[column] = _(per_tokenizer[part], name=shown(name))
    return frame.rename(columns=renamed)


def emoji_table(entries: Sequence[EmojiEntry], tokens: Mapping[str, Sequence[int]]) -> pd.DataFrame:
    """One row per emoji: kind, name, the emoji, code points, bytes, tokens per tokenizer."""
    costs = [string_cost(e.emoji) for e in entries]
    frame = pd.DataFrame({
        _("kind"): [_(CATEGORY_LABELS.get(e.category, e.category)) for e in entries],
        _("name"): [e.name for e in entries],
        "emoji": [e.emoji for e in entries],  # the column's key (page: its width), header below
        _("code points"): [" ".join(c.code_points) for c in costs],
        _("# code points"): [c.n_code_points for c in costs],
        _("UTF-8 bytes"): [c.n_bytes for c in costs],
        _("bytes (hex)"): [" ".join(c.utf8_hex) for c in costs],
    })  # fmt: skip
    for name, counts in tokens.items():
        frame[shown(name)] = list(counts)
    return frame


def emoji_chart_frame(table: pd.DataFrame, names: Sequence[str]) -> pd.DataFrame:
    """Long, for the emoji chart: category, series, value (means per kind)."""
    series = {_("code points"): _("# code points"), _("UTF-8 bytes"): _("UTF-8 bytes"),
              **{shown(n): shown(n) for n in names}}
    means = table.groupby(_("kind"), sort=False)[list(series.values())].mean()
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
        "character": [_("(none: bytes only)")]
        + [escape(f"{c} ({number(k)}×)") for c, k in zip(curve.added, curve.train_counts)],
    })  # fmt: skip


def added_frame(curve: GrowthCurve, n: int) -> pd.DataFrame:
    """The first n characters added, with their training counts and held-out savings order."""
    return pd.DataFrame({
        _("rank"): range(1, n + 1), _("character"): list(curve.added[:n]),
        _("count in training text"): list(curve.train_counts[:n]),
        _("code point"): [f"U+{ord(c):04X}" for c in curve.added[:n]],
    })  # fmt: skip


def headline_frame(
    premiums: Mapping[str, Premium], emoji_tokens: Mapping[str, Sequence[int]]
) -> pd.DataFrame:
    """One row per tokenizer (short label): premium (Chinese over English, ratio of totals) and
    emoji (mean tokens per emoji of the catalogue)."""
    return pd.DataFrame({
        "tokenizer": [shown(n) for n in premiums],
        "premium": [p.total_ratio for p in premiums.values()],
        "emoji": [sum(emoji_tokens[n]) / len(emoji_tokens[n]) for n in premiums],
    })  # fmt: skip


def language_frame(results: Mapping[str, LanguagePremiums], names: Mapping[str, str]) -> pd.DataFrame:
    """Long, for the heat chart: language (display name), tokenizer, premium; the base language
    (1× everywhere) is left out."""
    records = []
    for tokenizer, result in results.items():
        for code, ratio in list(result.ratios().items())[1:]:
            records.append({"language": names.get(code, code), "tokenizer": shown(tokenizer),
                            "premium": ratio})
    return pd.DataFrame.from_records(records)


def language_table(results: Mapping[str, LanguagePremiums], names: Mapping[str, str]) -> pd.DataFrame:
    """Wide, one row per language: its code, characters, bytes, then the premium per tokenizer
    (what the page shows and the CSV holds)."""
    first = next(iter(results.values()))
    frame = pd.DataFrame({
        _("language"): [names.get(c, c) for c in first.languages],
        _("code"): list(first.languages),
        _("characters"): [t.characters for t in first.totals],
        _("UTF-8 bytes"): [t.utf8_bytes for t in first.totals],
    })  # fmt: skip
    for tokenizer, result in results.items():
        frame[shown(tokenizer)] = [round(r, 3) for r in result.ratios().values()]
    return frame
