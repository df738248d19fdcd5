"""The Merge steps page in Chinese (issue 20): a link with lang=zh shows the page's own words in
Chinese (expected text read from the catalog, not copied from the page), the player is sent its
narration and controls in Chinese, and every number on screen is the same in both languages.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from streamlit.testing.v1 import AppTest

from ui.common import i18n

from .conftest import REPO, TIMEOUT_S, open_page, page_components

PAGE = "pages/merge_steps.py"
zh = i18n.translations("zh").gettext


def trace(app) -> dict:
    (player,) = page_components(app)
    return json.loads(json.loads(player.proto.json)["trace"])


def opened(app, lang: str, tab: str | None = None):
    open_page(app, PAGE, {"lang": lang} if lang != "en" else None)
    if tab is not None:
        app.session_state["ms_tab"] = zh(tab) if lang == "zh" else tab
        app.run()
        assert not app.exception, [e.value for e in app.exception]
    return app


def screen_texts(app) -> list[str]:
    """Every text the page shows: captions, Markdown, alerts, metrics, tables' cells, the
    player's sentences (its narration and why lines, step 0 included)."""
    texts = [e.value for kind in ("caption", "markdown", "info", "warning", "error", "success")
             for e in app.get(kind)]
    texts += [f"{m.value} {m.delta}" for m in app.metric]
    texts += [df.value.to_csv(index=False, header=False) for df in app.dataframe]
    texts += [h.proto.body for h in app.get("html")]
    for component in page_components(app):
        data = trace(app) if component.key == "ms_player" else {}
        if data:
            texts.append(data["start"]["narration"])
            texts += [s["narration"] + " " + s["why"] for s in data["steps"]]
    return texts


def numbers(texts: list[str]) -> Counter:
    return Counter(re.findall(r"\d+", " ".join(texts)))


def test_the_title_tabs_and_pickers_are_chinese(app):
    opened(app, "zh")
    assert [t.value for t in app.title] == [zh("Merge steps")]
    assert zh("Merge steps") != "Merge steps"
    assert [t.label for t in app.tabs] == [zh(t) for t in (
        "🎬 Watch BPE learn", "🔁 Encode replay", "⚖️ BPE vs WordPiece", "📜 Show me the code")]
    assert app.selectbox(key="ms_source").label == zh("Corpus")
    assert app.number_input(key="ms_merges").label == zh("Merges")
    assert not app.exception


def test_the_player_is_sent_its_words_in_chinese(app):
    opened(app, "zh")
    data = trace(app)
    assert data["ui"]["play"] == zh("▶ Play") != "▶ Play"
    assert data["ui"]["stepNo"] == zh("Step {k} / {n}")
    # low_newest, step 1: ('e','s') in newest (6) and widest (3), 9 times, said in Chinese
    first = data["steps"][0]["narration"]
    assert first.startswith("('e','s') ") and "9" in first and "appears" not in first
    assert "newest（6）" in first and "widest（3）" in first
    # low 5, lower 2, newest 6, widest 3: 4 words, 16 in all, 95 symbols, 11 letters and </w>
    assert data["start"]["narration"] == i18n.translations("zh").ngettext(
        "Before any merge: {n} distinct word ({occurrences} in all), each word split into "
        "characters and ended with '</w>': {tokens} tokens from an alphabet of {alphabet}.",
        "Before any merge: {n} distinct words ({occurrences} in all), each word split into "
        "characters and ended with '</w>': {tokens} tokens from an alphabet of {alphabet}.",
        4).format(n=4, occurrences=16, tokens=95, alphabet=11)


def test_english_stays_english(app):
    opened(app, "en")
    data = trace(app)
    assert data["ui"]["play"] == "▶ Play"
    assert data["steps"][0]["narration"] == \
        "('e','s') appears in newest (6) and widest (3): 9 times"


@pytest.mark.parametrize("tab", [None, "🔁 Encode replay", "⚖️ BPE vs WordPiece"])
def test_the_numbers_are_the_same_in_both_languages(app, tab, monkeypatch):
    english = numbers(screen_texts(opened(app, "en", tab)))
    chinese_app = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    # subtle: AppTest formats a selectbox's value again in the test's own thread (outside the
    # session) when it sends widget states; the pickers' format_func must find Chinese there too
    monkeypatch.setattr(i18n, "current_language", lambda: "zh")
    chinese = numbers(screen_texts(opened(chinese_app, "zh", tab)))
    assert sum(english.values()) > 20
    assert chinese == english
