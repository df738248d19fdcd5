"""The many-languages section: what the same meaning costs in eight languages, every tokenizer.

A heat table, languages x tokenizers: each cell is a language's tokens over the base's (the
file's first column) on the same rows. The rows are the built-in data/parallel/multi.tsv or the
user's upload in the same format (samples.parse_multilingual); a bad upload says which line and
why, and the section goes on with the rows it had.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.measure.language_costs import LanguagePremiums, language_premiums, utf8_bytes
from tokenizer_core.samples import (
    MAX_FIELD_CHARS,
    MAX_PARALLEL_CHARS,
    MAX_PARALLEL_LANGUAGES,
    MAX_PARALLEL_PAIRS,
    ParallelSet,
    multilingual_set,
    parse_multilingual,
)
from ui.common.charts import show_chart
from ui.common.i18n import N_, _, explain, number
from ui.common.safe_text import literal
from ui.common.shell import presentation_mode
from ui.common.table_view import show_table
from ui.common.tables import csv_download
from ui.common.uploads import apply_upload, decode_text
from ui.languages import data as data
from ui.languages.charts import language_heat_chart
from ui.languages.counting import counts_for
from ui.languages.limits import MAX_LANGUAGE_UPLOAD_BYTES, PAIR_RESULT_CACHE_ENTRIES
from ui.languages.tables import language_frame, language_table

BUILT_IN_SOURCE = "data/parallel/multi.tsv"
LANGUAGE_NAMES = {  # codes a header may use, as a class reads them; others show as the code
    "en": N_("English"), "zh": N_("Chinese"), "ja": N_("Japanese"), "ko": N_("Korean"),
    "ar": N_("Arabic"), "hi": N_("Hindi"), "ru": N_("Russian"), "es": N_("Spanish"),
    "fr": N_("French"), "de": N_("German"), "pt": N_("Portuguese"), "it": N_("Italian"),
    "tr": N_("Turkish"), "vi": N_("Vietnamese"), "th": N_("Thai"), "he": N_("Hebrew"),
    "el": N_("Greek"), "fa": N_("Persian"), "bn": N_("Bengali"), "sw": N_("Swahili"),
}  # fmt: skip


def language_name(code: str) -> str:
    """`Chinese (zh)` (in the session's language); a code this page has no name for stays as
    typed."""
    known = LANGUAGE_NAMES.get(code.split("-")[0].lower())
    return f"{_(known)} ({code})" if known else code


def read_language_upload(content: bytes, filename: str) -> ParallelSet:
    """Rows from an uploaded file, or ValueError naming the line and the fix."""
    text = decode_text(content, filename, max_bytes=MAX_LANGUAGE_UPLOAD_BYTES,
                       kept="the rows in use are unchanged")
    return parse_multilingual(text, source=filename)


def _apply_upload() -> None:
    apply_upload("lg_multi", read_language_upload)


def current_set() -> tuple[str, ParallelSet]:
    """(where the rows come from, the rows): the user's good upload, else the built-in file."""
    custom = st.session_state.get("lg_multi_custom")
    return custom if custom else (BUILT_IN_SOURCE, multilingual_set())


def language_results(parallel: ParallelSet) -> dict[str, LanguagePremiums]:
    """Premiums by tokenizer label (UTF-8 bytes first) for every tokenizer the page has."""
    texts = [t for row in parallel.rows for t in row.texts]
    counts_for(data.NAMES, texts, _("{count} texts", count=number(len(texts))))
    key = data.digest([f"{r.line}\t" + "\t".join(r.texts) for r in parallel.rows]
                      + ["\t".join(parallel.languages)])
    return _language_results(key, parallel)


@st.cache_resource(max_entries=PAIR_RESULT_CACHE_ENTRIES, show_spinner=False)
def _language_results(key: str, _parallel: ParallelSet) -> dict[str, LanguagePremiums]:
    texts = [t for row in _parallel.rows for t in row.texts]
    results = {data.BYTES_LABEL: language_premiums(_parallel, utf8_bytes)}
    for name in data.NAMES:
        known = dict(zip(texts, data.counts(name, texts)))  # kept by counts_for
        results[data.label(name)] = language_premiums(_parallel, known.__getitem__)
    return results


def _upload_ui(source: str, parallel: ParallelSet) -> None:
    with st.expander(_("Use your own many-language file (.tsv)")):
        st.markdown(_(
            "UTF-8 text, first line the language codes separated by tabs (`en<TAB>zh<TAB>ja`, "
            "codes such as `pt-BR` or `zh-Hant` too; the first is the base), then one row per "
            "line, the same meaning in each language. Lines starting with `#` are comments. "
            "Bounds: {languages} languages, {chars} characters, {rows} rows, {field} characters "
            "a text.", languages=number(MAX_PARALLEL_LANGUAGES), chars=number(MAX_PARALLEL_CHARS),
            rows=number(MAX_PARALLEL_PAIRS), field=number(MAX_FIELD_CHARS)))
        st.file_uploader(_("Many-language file"), type=["tsv", "txt"], key="lg_multi_upload",
                         on_change=_apply_upload)
    error = st.session_state.get("lg_multi_error")
    if error:
        st.error(_("{error}  \nStill using {source}.", error=literal(error),
                   source=literal(source)), icon="⚠️")
    st.caption(_(
        "Rows: **{source}**, {rows} rows in {languages} languages. Each text is tokenized on its "
        "own; every tokenizer the page has is shown, not only the ones picked above.",
        source=literal(source), rows=number(len(parallel.rows)),
        languages=number(len(parallel.languages))))


def many_section() -> None:
    st.markdown(_(
        "The same meaning in several languages, and what each tokenizer charges for it. "
        "**1×** costs what the base language costs; **red** is costlier, **blue** cheaper. The "
        "**{bytes}** column is the floor every byte-level tokenizer starts from.",
        bytes=data.shown(data.BYTES_LABEL)))
    source, parallel = current_set()
    _upload_ui(source, parallel)
    try:
        results = language_results(parallel)
    except ValueError as error:  # a text that counts zero tokens
        st.error(literal(explain(error)), icon="⚠️")
        return
    base = language_name(parallel.languages[0])
    names_by_code = {c: language_name(c) for c in parallel.languages}
    show_chart(language_heat_chart(language_frame(results, names_by_code), presentation_mode()),
               key="lg_chart_languages", theme=None)
    st.caption(_("Base: **{base}**. Each cell: all tokens of that language over all tokens of "
                 "the base, on the same rows (the ratio of totals).", base=literal(base)))
    table: pd.DataFrame = language_table(results, names_by_code)
    show_table(table, hide_index=True, width="stretch")
    csv_download(st, _("Download this table (CSV)"), table, "language_premiums.csv",
                 key="lg_csv_languages")
