"""The premium of each language over the first column of a many-language file: hand-checked on
characters, and equal to ratios of tiktoken's own counts on the built-in eight-language set."""

from __future__ import annotations

import pytest

from tests.shared import tiktoken, tiktoken_encoding
from tokenizer_core.measure.language_costs import language_premiums, token_counts, utf8_bytes
from tokenizer_core.samples import multilingual_set, parse_multilingual


def test_by_characters_hand_checked():
    found = parse_multilingual("en\tzh\tes\nGood morning.\t早上好。\tBuenos días.\nYes.\t是。\tSí.\n")
    result = language_premiums(found, len)
    # en: 13 + 4 = 17 characters; zh: 4 + 2 = 6; es: 12 + 3 = 15
    assert result.languages == ("en", "zh", "es")
    assert [t.tokens for t in result.totals] == [17, 6, 15]
    assert result.ratios() == {"en": 1.0, "zh": 6 / 17, "es": 15 / 17}


def test_utf8_bytes_hand_checked():
    found = parse_multilingual("en\tzh\nab\t你\n")
    assert language_premiums(found, utf8_bytes).ratios()["zh"] == 3 / 2


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_equals_tiktoken_counts_on_the_builtin_set(name):
    found = multilingual_set()
    encoding = tiktoken_encoding(name)
    tokens = {
        code: sum(len(encoding.encode_ordinary(r.texts[i])) for r in found.rows)
        for i, code in enumerate(found.languages)
    }
    expected = {code: tokens[code] / tokens["en"] for code in found.languages}
    texts = [t for r in found.rows for t in r.texts]
    known = dict(zip(texts, token_counts(tiktoken(name), texts)))
    assert language_premiums(found, known.__getitem__).ratios() == pytest.approx(expected, abs=0)


def test_gpt2_pays_most_for_hindi_and_least_for_spanish():
    """What a class sees in the heat table, from tiktoken directly: GPT-2 learned English."""
    found = multilingual_set()
    encoding = tiktoken_encoding("gpt2")
    result = language_premiums(found, lambda t: len(encoding.encode_ordinary(t)))
    ratios = result.ratios()
    assert max(ratios, key=ratios.get) == "hi"
    assert min((r, c) for c, r in ratios.items() if c != "en")[1] == "es"


def test_zero_tokens_names_the_line_and_language():
    found = parse_multilingual("en\tzh\nab\tcd\nef\tgh\n")
    with pytest.raises(ValueError, match="line 3: the 'zh' text counts 0 tokens"):
        language_premiums(found, lambda t: 0 if t == "gh" else 1)
