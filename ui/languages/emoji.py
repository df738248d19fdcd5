"""The emoji section: what one emoji costs in code points, bytes and tokens, by kind."""

from __future__ import annotations

from typing import Sequence

import streamlit as st

from tokenizer_core.samples import emoji_catalogue
from ui.common.charts import show_chart
from ui.common.i18n import _
from ui.common.page_state import KEEP
from ui.common.shell import presentation_mode
from ui.common.table_view import show_table
from ui.common.tables import csv_download
from ui.languages import data as data
from ui.languages.charts import emoji_chart
from ui.languages.ruler import ruler
from ui.languages.tables import emoji_chart_frame, emoji_table

CLOSER_DEFAULT = "family: man, woman, girl, boy"


def emoji_section(names: Sequence[str]) -> None:
    st.markdown(_(
        "An emoji can be one code point or a sequence: a skin-tone modifier after the base, "
        "people glued by the zero-width joiner (ZWJ, U+200D), two regional-indicator letters "
        "for a flag, or a digit + U+FE0F + U+20E3 for a keycap. Tokenizers pay for every byte "
        "of every code point they have not learned."
    ))
    entries = emoji_catalogue()
    emoji = tuple(e.emoji for e in entries)
    labels = [data.label(n) for n in names]
    table = emoji_table(entries, {data.label(n): data.counts(n, emoji) for n in names})
    show_chart(emoji_chart(emoji_chart_frame(table, labels), presentation_mode()),
               key="lg_chart_emoji", theme=None)
    show_table(table, hide_index=True, width="stretch", height=420,
                 column_config={"emoji": st.column_config.TextColumn(_("emoji"), width="small")})
    csv_download(st, _("Download the emoji table (CSV)"), table, "emoji_costs.csv",
                 key="lg_csv_emoji")
    st.subheader(_("Look closer"))
    by_name = {e.name: e for e in entries}
    default = list(by_name).index(CLOSER_DEFAULT) if CLOSER_DEFAULT in by_name else 0
    chosen = st.selectbox(_("Emoji"), list(by_name), index=default, key="lg_emoji_pick", persist_state=KEEP,
                          format_func=lambda n: f"{by_name[n].emoji}  {n}")
    if chosen:
        ruler(by_name[chosen].emoji, names, code_points=True)
