"""Model inputs: specials, templates, truncation, padding and masks, with HF `tokenizers` as the oracle.

HF gets the very same ids: a WordLevel model whose vocabulary maps the word "17" to id 17, fed
pre-tokenized words, so any difference is in the framing, never in the tokenization.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import models, processors

from tokenizer_core.interface import DisallowedSpecialToken
from tokenizer_core.measure.sequences import (
    BOS_EOS,
    CLS_SEP,
    NO_SPECIALS,
    SPECIAL_FAMILIES,
    STRATEGIES,
    Settings,
    Template,
    encode_with_set,
    prepare,
    prepare_batch,
    special_set,
)
from tokenizer_core.registry import load_tokenizer

VOCAB = 50
SPECIALS = special_set([s for family in SPECIAL_FAMILIES.values() for s in family], first_id=VOCAB)
TEMPLATE_TEXT = {
    "bos": ("<bos> $A <eos>", "<bos> $A <eos> $B:1 <eos>:1"),
    "cls": ("<cls> $A <sep>", "<cls> $A <sep> $B:1 <sep>:1"),
    "none": ("$A", "$A $B:1"),
}
TEMPLATES = {"bos": BOS_EOS, "cls": CLS_SEP, "none": NO_SPECIALS}


def hf_tokenizer(kind: str, max_length, strategy, padding, side) -> HFTokenizer:
    hf = HFTokenizer(models.WordLevel({str(i): i for i in range(VOCAB)}, unk_token="0"))
    single, pair = TEMPLATE_TEXT[kind]
    hf.post_processor = processors.TemplateProcessing(
        single=single, pair=pair, special_tokens=[(s, i) for s, i in SPECIALS.items()]
    )
    if max_length is not None:
        hf.enable_truncation(max_length, strategy=strategy)
    if padding != "none":
        length = max_length if padding == "max_length" else None
        hf.enable_padding(direction=side, pad_id=SPECIALS["<pad>"], pad_token="<pad>", length=length)
    return hf


def words(ids):
    return [str(i) for i in ids]


ids_lists = st.lists(st.integers(1, VOCAB - 1), max_size=30)


@settings(max_examples=300, deadline=None)
@given(
    batch=st.lists(st.tuples(ids_lists, st.one_of(st.none(), ids_lists)), min_size=1, max_size=4),
    kind=st.sampled_from(sorted(TEMPLATES)),
    max_length=st.one_of(st.none(), st.integers(4, 40)),
    strategy=st.sampled_from(STRATEGIES),
    padding=st.sampled_from(["none", "max_length", "longest"]),
    side=st.sampled_from(["right", "left"]),
)
def test_prepare_batch_equals_hf(batch, kind, max_length, strategy, padding, side):
    # HF's batch is all singles or all pairs; so is ours here
    pairs = batch[0][1] is not None
    batch = [(a, (b or [1]) if pairs else None) for a, b in batch]
    if padding == "max_length" and max_length is None:
        padding = "longest"
    hf = hf_tokenizer(kind, max_length, strategy, padding, side)
    ours = Settings(TEMPLATES[kind], max_length, strategy, padding, side, SPECIALS["<pad>"])
    try:
        expected = hf.encode_batch(
            [(words(a), words(b)) if pairs else words(a) for a, b in batch], is_pretokenized=True
        )
    except Exception:  # HF refuses (only_first/only_second cannot make room): so must we
        with pytest.raises(ValueError):
            prepare_batch(batch, ours, SPECIALS)
        return
    rows = prepare_batch(batch, ours, SPECIALS)
    assert [list(r.ids) for r in rows] == [e.ids for e in expected]
    assert [list(r.type_ids) for r in rows] == [e.type_ids for e in expected]
    assert [list(r.attention_mask) for r in rows] == [e.attention_mask for e in expected]
    assert [list(r.special_mask) for r in rows] == [e.special_tokens_mask for e in expected]


def test_the_lesson_example_cls_a_sep_b_sep():
    a, b = [7, 8, 9], [20, 21]
    row = prepare(a, b, Settings(CLS_SEP), SPECIALS)
    cls, sep = SPECIALS["<cls>"], SPECIALS["<sep>"]
    assert row.ids == (cls, 7, 8, 9, sep, 20, 21, sep)
    assert row.type_ids == (0, 0, 0, 0, 0, 1, 1, 1)
    assert row.attention_mask == (1,) * 8


def test_truncation_keeps_the_end_of_sequence_token():
    row = prepare(list(range(1, 20)), None, Settings(BOS_EOS, max_length=6), SPECIALS)
    assert row.ids == (SPECIALS["<bos>"], 1, 2, 3, 4, SPECIALS["<eos>"])


def test_left_padding_puts_pads_first_and_masks_them():
    row = prepare([5, 6], None, Settings(BOS_EOS, 6, padding="max_length", side="left",
                                         pad_id=SPECIALS["<pad>"]), SPECIALS)
    pad = SPECIALS["<pad>"]
    assert row.ids == (pad, pad, SPECIALS["<bos>"], 5, 6, SPECIALS["<eos>"])
    assert row.attention_mask == (0, 0, 1, 1, 1, 1)


def test_max_length_below_the_template_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="template adds 3 special tokens"):
        prepare([1, 2], [3], Settings(CLS_SEP, max_length=2), SPECIALS)


def test_special_ids_come_first_in_the_order_given():
    assert special_set(["<pad>", "<bos>", "<pad>", "<eos>"]) == {"<pad>": 0, "<bos>": 1, "<eos>": 2}
    with pytest.raises(ValueError, match="spaces"):
        special_set([" <bos>"])


def test_template_parse_needs_its_sequences():
    with pytest.raises(ValueError, match=r"\$A and \$B"):
        Template.parse("$A", "$A <sep>")


def test_an_added_special_is_one_token_and_refused_unless_allowed():
    gpt2 = load_tokenizer("gpt2")
    specials = special_set(["<human>", "<assistant>"], first_id=gpt2.vocab_size)
    text = "<human>Hi there<assistant>Hello"
    tokens = encode_with_set(gpt2, text, specials, allowed_special="all")
    assert tokens[0].id == specials["<human>"] and tokens[0].special
    assert [t.id for t in tokens[1:3]] == [t.id for t in gpt2.encode("Hi there")]
    assert (tokens[1].start, tokens[-1].end) == (7, len(text))
    with pytest.raises(DisallowedSpecialToken, match="<human>"):
        encode_with_set(gpt2, text, specials)
