"""The Compression page in Chinese (issue 20): a link with lang=zh shows the page's own words from
the zh_CN catalog (title, labels, chart titles and legend, tables' headers), every number on
screen is the same as in English, the core's refusals are said in Chinese, and two sessions in
two languages never see each other's words through the page's caches."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import asdict

import pytest
from streamlit.testing.v1 import AppTest

from tests.core.classroom import LOW_NEWEST
from tokenizer_core import corpus_from_counts, train_bpe
from tokenizer_core.measure.compression import split_held_out
from tokenizer_core.measure.quality import measure
from tokenizer_core.measure.stored import _quality_from_json
from tokenizer_core.messages import Refusal, keep, say_kept
from tokenizer_core.modelfile import bpe_model
from ui.common import i18n

from .conftest import REPO, TIMEOUT_S, open_page
from .test_compression import PAGE

ZH = i18n.translations("zh")
HAN = re.compile(r"[\u4e00-\u9fff]")
SMALL = {"cp_corpora": ["code", "emoji"], "cp_hf": []}  # the two small corpora, no HF lines


def open_in(app: AppTest, language: str, state: dict = SMALL) -> AppTest:
    for key, value in state.items():
        app.session_state[key] = value
    return open_page(app, PAGE, {"lang": language} if language != "en" else None)


def figure(app: AppTest) -> dict:
    return json.loads(app.get("plotly_chart")[0].proto.spec)


def chart_words(app: AppTest) -> list[str]:
    """What the chart writes: axis titles, legend entries and group titles, annotations."""
    layout = figure(app)["layout"]
    words = [layout["xaxis"]["title"]["text"], layout["yaxis"]["title"]["text"]]
    words += [a["text"] for a in layout.get("annotations", [])]
    for trace in figure(app)["data"]:
        if trace.get("showlegend", True) is not False:
            words.append(trace.get("name", ""))
            words.append(trace.get("legendgrouptitle", {}).get("text", ""))
    return [w for w in words if w]


def screen_texts(app: AppTest) -> list[str]:
    """Every text the page shows as words or numbers: headings, captions, Markdown, alerts,
    and every cell and column header of its tables."""
    texts = [e.value for kind in ("title", "subheader", "caption", "markdown", "info", "warning")
             for e in getattr(app, kind)]
    for table in [*app.dataframe, *app.table]:
        frame = table.value
        texts += [str(v) for v in frame.to_numpy().ravel()] + [str(i) for i in frame.index]
    return texts


def numbers(texts: list[str]) -> Counter:
    return Counter(d for text in texts for d in re.findall(r"\d+", text))


def test_a_link_with_lang_zh_shows_the_page_in_chinese(app):
    open_in(app, "zh")
    assert not app.exception
    assert app.title[0].value == ZH.gettext("Compression") == "压缩率"
    assert app.pills(key="cp_corpora").label == ZH.gettext("Corpora (one line each)")
    assert app.select_slider(key="cp_vocab").label == ZH.gettext("Train up to (vocab size)")
    assert app.slider(key="cp_held_out").label == ZH.gettext("Held-out part")
    assert app.toggle(key="cp_train").label == ZH.gettext("Training part too")
    subheaders = [s.value for s in app.subheader]
    assert ZH.gettext("What each doubling buys") in subheaders
    assert ZH.gettext("One sentence, growing vocabularies") in subheaders
    # the split's caption: the corpus by its Chinese name, the sentence from the catalog
    assert any(c.value.startswith(f"**{ZH.gettext('Code')}**：") for c in app.caption)
    words = chart_words(app)
    for english in ("Vocabulary size (log scale)", "Characters per token", "Corpus (colour)",
                    "Tokenizer (shape, line)", "Ours: byte-level BPE"):
        assert ZH.gettext(english) in words, english
    assert not any(w in words for w in ("Vocabulary size (log scale)", "Corpus (colour)"))
    # the quality table's tabs and the doubling table's header, in Chinese
    tab_labels = [t.label for t in app.tabs]
    assert ZH.gettext("Coverage and round trip") in tab_labels
    assert ZH.gettext("Classroom: after 5 · 15 · 30 merges") in tab_labels
    # Llama 3's licence line (under the chart and the growing sentence) was English here
    licence = [c.value for c in app.caption if "Meta Llama 3" in c.value]
    assert licence and not any("Its tokenizer file is under" in c for c in licence), licence


def test_every_number_on_screen_is_the_same_in_both_languages(app):
    english = screen_texts(open_in(app, "en"))
    chinese_app = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    chinese = screen_texts(open_in(chinese_app, "zh"))
    assert not chinese_app.exception
    assert sum(1 for t in chinese if HAN.search(t)) > 10  # it is the Chinese page indeed
    assert numbers(english) and numbers(chinese) == numbers(english)


def test_two_sessions_in_two_languages_each_get_their_own_words(app):
    """The caches are shared by every session of the server: a Chinese visit first, then an
    English one in the same process (nothing cleared between them) must show no Chinese word,
    and a Chinese one after it no English page words."""
    open_in(app, "zh")
    assert HAN.search(" ".join(chart_words(app)))
    english = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    open_in(english, "en")
    assert not [t for t in screen_texts(english) + chart_words(english) if HAN.search(t)]
    again = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    open_in(again, "zh")
    assert "Vocabulary size (log scale)" not in chart_words(again)
    assert app.title[0].value == again.title[0].value == "压缩率"


def test_a_refusal_of_the_core_is_said_in_chinese_with_its_numbers():
    with pytest.raises(Refusal) as raised:  # every character of the held-out half is a space
        split_held_out("x" + " " * 1_233, 0.5)
    error = raised.value
    assert str(error) == ("a text of 1,234 characters is too short to split into a training "
                          "part and a held-out part of 50%; give a longer text")  # the CLI's
    assert error.values == {"count": 1_234, "percent": 50}
    chinese = ZH.gettext(error.template).format(count="1,234", percent=50)
    assert HAN.search(chinese) and "1,234" in chinese and chinese != str(error)


def test_what_decoding_loses_is_stored_unsaid_and_read_in_the_readers_language():
    """The quality table's records live in the on-disk store, which sessions in both languages
    read: the sentence is kept with its values apart (an English sentence stored there once
    showed in the Chinese table) and said when the page draws it."""
    model = bpe_model(train_bpe(corpus_from_counts(LOW_NEWEST), 8))  # word level: spaces lost
    quality = measure(model, "lowest   newer\nlow", set())
    restored = _quality_from_json(json.dumps(asdict(quality)))  # what the store writes, read back
    template = "whitespace layout (spaces, tabs, newlines): this level does not keep them"
    assert restored.round_trip_lost == quality.round_trip_lost == [template, {}]
    assert say_kept(restored.round_trip_lost) == template  # the English reader, the CSV
    chinese = say_kept(restored.round_trip_lost, lambda t, **v: ZH.gettext(t).format(**v))
    assert HAN.search(chinese) and chinese == ZH.gettext(template) != template


def test_a_reason_inside_a_reason_is_said_whole():
    kept = keep("decoding failed: {error}",
                error=keep("the regex has {length} characters; the bound is {bound}",
                           length=201, bound=200))
    assert json.loads(json.dumps(kept)) == kept  # plain data
    assert say_kept(kept) == ("decoding failed: the regex has 201 characters; "
                              "the bound is 200")
    chinese = say_kept(kept, lambda t, **v: ZH.gettext(t).format(**v))
    assert HAN.search(chinese) and "201" in chinese and "200" in chinese
    assert "decoding failed" not in chinese and "bound" not in chinese
