"""Token counts for the command line: one text through many tokenizers, and what each language
of a parallel file costs, by the same rules as `encode` and the Languages page.

What it adds, over measure/language_costs.py (which it reuses):
- `count_tokens`: how many tokens `encode` would return for a text under one special-token
  rule, without building the Token records when the tokenizer is tiktoken (ids are enough);
- `parallel_costs`: one tokenizer's totals per language of a many-language file and its
  premium over the first column, each text counted on its own with special-token strings read
  as plain text: exactly the numbers the Languages page's heat table shows (it calls the same
  `token_counts` and `language_premiums`).

Leaves out: reading files and flags, loading tokenizers by name (cli.py, registry.py), and the
page's labels and charts.
"""

from __future__ import annotations

from typing import Any, Collection, Mapping

from .interface import Tokenizer, resolve_special
from .measure.language_costs import LanguagePremiums, language_premiums, token_counts
from .reference.tiktoken_encodings import TiktokenTokenizer
from .samples import ParallelSet
from .tokens import require_unicode


def present_specials(text: str, specials: Collection[str]) -> list[str]:
    """The special-token strings that occur in `text`, found with one search per distinct first
    two characters, not one per token.

    subtle: o200k_harmony has 1,078 special tokens; looking for each in a megabyte (as
    resolve_special does) takes seconds, while all of them start `<|`, which most text lacks."""
    by_start: dict[str, list[str]] = {}
    for token in specials:
        by_start.setdefault(token[:2], []).append(token)
    return [token for start, tokens in by_start.items() if start in text
            for token in tokens if token in text]


def count_tokens(tokenizer: Tokenizer, text: str, special: Mapping[str, Any]) -> int:
    """len(tokenizer.encode(text, **special)), the same number and the same refusal
    (DisallowedSpecialToken) as `encode`; tiktoken counts its ids, the others their tokens.
    Special tokens absent from the text can be neither refused nor matched, so only the
    present ones go through the rule."""
    if isinstance(tokenizer, TiktokenTokenizer):
        require_unicode(text)
        present = present_specials(text, tokenizer.special_tokens)
        allowed = resolve_special(text, present, **special)
        return len(tokenizer.encode_ids(text, allowed))  # normalized first where the model is
    return len(tokenizer.encode(text, **special))


def parallel_costs(parallel: ParallelSet, tokenizer: Tokenizer) -> LanguagePremiums:
    """Each language's totals and premium for one tokenizer, as the Languages page makes them:
    every text counted on its own, special-token strings as plain text, the same text once."""
    texts = [text for row in parallel.rows for text in row.texts]
    known = dict(zip(texts, token_counts(tokenizer, texts)))
    return language_premiums(parallel, known.__getitem__)
