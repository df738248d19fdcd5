"""The regex's effect: one training per regex on the same split, and each regex's rule visible in
what its training learned (Qwen's digits stay single, cl100k's never go past three)."""

from __future__ import annotations

import regex

from tokenizer_core.lessons.pre_split import PRE_SPLITTERS
from tokenizer_core.measure.regex_effect import mixed_split, regex_curves
from tokenizer_core.samples import sample_text

TEXTS = [sample_text(n) for n in ("english", "code", "chinese")] + ["call 5551234567 or 911\n" * 30]


def test_mixed_split_keeps_a_part_of_every_text():
    split = mixed_split(TEXTS)
    for text in TEXTS:
        assert text.splitlines()[-1] in split.held_out
        assert text.splitlines()[0] in split.train


def test_each_regex_leaves_its_mark_on_the_merges():
    names = ("gpt2", "cl100k_base", "qwen2.5")
    curves = regex_curves(mixed_split(TEXTS), {n: PRE_SPLITTERS[n].pat_str for n in names}, 300)
    digits = {n: [len((a + b).strip()) for a, b in c.merges if regex.fullmatch(rb" ?[0-9]+", a + b)
                  and len((a + b).strip()) > 1] for n, c in curves.items()}  # digits per token
    assert digits["qwen2.5"] == []  # every digit a chunk of its own: no digit pair ever merges
    assert digits["cl100k_base"] and max(digits["cl100k_base"]) == 3  # groups of 1-3
    assert max(digits["gpt2"]) == 10  # GPT-2 keeps a run of digits in one chunk: ` 5551234567`
    held_out_bytes = len(mixed_split(TEXTS).held_out.encode("utf-8"))
    for curve in curves.values():  # no merges: one token per byte, whatever the regex
        assert curve.held_out_tokens[0] == held_out_bytes
