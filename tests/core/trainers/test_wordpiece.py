"""WordPiece training by score: classroom examples worked by hand, and the fast trainer merge for
merge equal to the textbook loop (classroom tables and hypothesis)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokenizer_core import corpus_from_counts, corpus_from_text
from tokenizer_core.models.wordpiece import (
    DEFAULT_SPECIAL_TOKENS,
    continuation_split,
)
from tokenizer_core.trainers.wordpiece import (
    bert_word_counts,
    count_symbols_and_pairs,
    merge_wordpiece,
    pair_score,
    rank_by_score,
    textbook_wordpiece,
    train_wordpiece,
    wordpiece_corpus,
)

from ..classroom import HUG_PUG, LOW_NEWEST, THE_TABLE

# --- training: the classroom examples, worked by hand ------------------------------------------

# hug pug pun bun on the ## split: h ##u ##g | p ##u ##g | p ##u ##n | b ##u ##n (count 1 each).
# Symbols: h 1, p 2, b 1, ##u 4, ##g 2, ##n 2 (N = 12).
# Step 1, ratio: (h,##u) 1/(1*4), (##u,##g) 2/(4*2), (p,##u) 2/(2*4), (##u,##n) 2/(4*2),
#   (b,##u) 1/(1*4): FIVE pairs tie at 0.25 and the first met, (h, ##u), wins -> `hu`.
# Step 2: hu ##g | p ##u ##g | p ##u ##n | b ##u ##n; ##u is down to 3, so (hu,##g) = 1/(1*2)
#   = 0.5 beats (p,##u) = 2/(2*3), (##u,##n) = 2/(3*2), (b,##u) = 1/(1*3) -> `hug`.
# Step 3: (p,##u) 2/(2*3), (##u,##g) 1/(3*1), (##u,##n) 2/(3*2), (b,##u) 1/(1*3): four tie at
#   1/3, (p, ##u) is met first -> `pu`.
# Step 4: hug | pu ##g | pu ##n | b ##u ##n; ##u is down to 1: (b,##u) = 1/(1*1) = 1 -> `bu`.
# Step 5: (pu,##g) 1/(2*1) and (bu,##n) 1/(1*2) tie at 0.5 -> `pug`; then `pun`, `bun`; then
#   every word is one piece and training stops after 7 merges.
HUG_PUG_RATIO = [("h", "##u"), ("hu", "##g"), ("p", "##u"), ("b", "##u"),
                 ("pu", "##g"), ("pu", "##n"), ("bu", "##n")]

# Same corpus, likelihood, N = 12: (h,##u) 1*ln(12/4) = ln 3; (##u,##g), (p,##u), (##u,##n)
#   2*ln(2*12/8) = 2 ln 3; (b,##u) ln 3. Three tie at 2 ln 3; (##u, ##g) is met first -> `##ug`.
# Step 2: h ##ug | p ##ug | p ##u ##n | b ##u ##n, N = 10, ##u 2, ##n 2: (##u,##n)
#   2*ln(2*10/(2*2)) = 2 ln 5 = 3.219 beats (h,##ug) ln 5 and the rest -> `##un`.

# The table on the ## split: t 20 (first letters only), c 11, ##h 20, ##e 16, ##r 7, ##a 16,
# ##t 12, ##i 2, ##n 2; N = 106.
# Ratio, step 1: (t,##h) 20/(20*20) = 0.05, (##a,##t) 12/(16*12) = 0.0625, (c,##a) 11/(11*16)
#   = 0.0625, (##h,##i) 2/(20*2) = 0.05, (##i,##n) 2/(2*2) = 0.5 -> `##in`.
# Step 2: (##a,##t) and (c,##a) tie at 1/16; `that` (word 3) comes before `cat` -> `##at`.
# Likelihood, step 1: (t,##h) 20*ln(20*106/(20*20)) = 20 ln 5.3 = 33.35, the largest -> `th`.


def test_hug_pug_ratio_merges_worked_by_hand():
    training = train_wordpiece(wordpiece_corpus(HUG_PUG), 20, top_k=10)
    assert training.merges == HUG_PUG_RATIO
    assert [s.new_token for s in training.steps] == ["hu", "hug", "pu", "bu", "pug", "pun", "bun"]
    first = training.steps[0]
    assert (first.score, first.count, first.count_a, first.count_b) == (0.25, 1, 1, 4)
    assert first.total == 12
    assert first.ties == 5  # five on the ## split (seven on the `</w>` split: see test_compare)
    assert [s.ties for s in training.steps[:5]] == [5, 1, 4, 1, 2]
    assert training.steps[1].score == 0.5 and training.steps[3].score == 1.0
    assert "stopped after 7 of 20 merges" in training.stop_reason


def test_hug_pug_likelihood_merges_worked_by_hand():
    steps = train_wordpiece(wordpiece_corpus(HUG_PUG), 2, "likelihood", top_k=10).steps
    assert steps[0].pair == ("##u", "##g") and steps[0].new_token == "##ug"
    assert steps[0].score == pytest.approx(2 * math.log(3)) and steps[0].ties == 3
    assert steps[1].pair == ("##u", "##n") and steps[1].score == pytest.approx(2 * math.log(5))
    assert (steps[1].count, steps[1].count_a, steps[1].count_b, steps[1].total) == (2, 2, 2, 10)


def test_the_table_ratio_and_likelihood_worked_by_hand():
    corpus = wordpiece_corpus(THE_TABLE)
    ratio = train_wordpiece(corpus, 2, top_k=3).steps
    assert (ratio[0].pair, ratio[0].score, ratio[0].total) == (("##i", "##n"), 0.5, 106)
    assert (ratio[1].pair, ratio[1].score, ratio[1].ties) == (("##a", "##t"), 0.0625, 2)
    assert ratio[1].candidates[1].pair == ("c", "##a")  # the tie it won by coming first
    likelihood = train_wordpiece(corpus, 1, "likelihood").steps[0]
    assert likelihood.pair == ("t", "##h") and likelihood.new_token == "th"
    assert likelihood.score == pytest.approx(20 * math.log(5.3))
    assert (likelihood.count, likelihood.count_a, likelihood.count_b) == (20, 20, 20)


def test_continuation_split_and_joins():
    assert continuation_split("hug") == ("h", "##u", "##g")
    assert merge_wordpiece(["h", "##u", "##g"], ("##u", "##g")) == ["h", "##ug"]
    assert merge_wordpiece(["h", "##u", "##g"], ("h", "##u")) == ["hu", "##g"]
    # subtle: a word of '#' keeps its characters (`#` + `###` is `##`, not ``)
    assert merge_wordpiece(["#", "###", "##a"], ("#", "###")) == ["##", "##a"]


def test_vocab_is_specials_then_sorted_alphabet_then_merges():
    training = train_wordpiece(wordpiece_corpus(HUG_PUG), 3)
    alphabet = ("##g", "##n", "##u", "b", "h", "p")
    assert training.vocab == (*DEFAULT_SPECIAL_TOKENS, *alphabet, "hu", "hug", "pu")
    assert [s.vocab_size for s in training.steps] == [12, 13, 14]
    assert [training.vocab[s.new_id] for s in training.steps] == ["hu", "hug", "pu"]
    custom = train_wordpiece(wordpiece_corpus(HUG_PUG), 0, special_tokens=("<unk>",))
    assert custom.vocab == ("<unk>", *alphabet)


def test_the_same_piece_made_twice_keeps_one_id():
    # `abc` + `abd`: a merge order that builds `##bc` and later joins `a`+`##bc` may meet `ab`+`##c`
    corpus = wordpiece_corpus({"abc": 1, "xbc": 3, "ab": 2})
    training = train_wordpiece(corpus, 20)
    assert len(set(training.vocab)) == len(training.vocab)
    assert training.merges == textbook_wordpiece(corpus, 20)[0]


def test_training_from_text_uses_whitespace_words_in_first_seen_order():
    corpus = wordpiece_corpus(corpus_from_text("low lower low\tnewest\n"))
    assert corpus.labels == ("low", "lower", "newest") and corpus.counts == (2, 1, 1)
    assert corpus.sequences[0] == ("l", "##o", "##w")
    punct = wordpiece_corpus(bert_word_counts("Hi, you. Hi!"))
    assert punct.labels == ("Hi", ",", "you", ".", "!") and punct.counts[0] == 2


@pytest.mark.parametrize("score", ["ratio", "likelihood"])
@pytest.mark.parametrize("tie_break", ["first", "lexical"])
@pytest.mark.parametrize("table", [HUG_PUG, THE_TABLE, LOW_NEWEST], ids=["hug", "the", "low"])
def test_fast_equals_textbook_on_classroom_tables(table, score, tie_break):
    corpus = wordpiece_corpus(table)
    training = train_wordpiece(corpus, 100, score, tie_break)
    assert (training.merges, training.scores) == textbook_wordpiece(corpus, 100, score, tie_break)


def test_lexical_changes_the_tie_winner():
    corpus = wordpiece_corpus(HUG_PUG)
    assert train_wordpiece(corpus, 1).merges == [("h", "##u")]
    assert train_wordpiece(corpus, 1, tie_break="lexical").merges == [("##u", "##g")]


@pytest.mark.parametrize("score", ["ratio", "likelihood"])
def test_segmentation_at_every_step_equals_replay(score):
    corpus = wordpiece_corpus(corpus_from_text("the cat sat on the mat with the hat that sat"))
    with_history = train_wordpiece(corpus, 30, score, record_history=True)
    without = train_wordpiece(corpus, 30, score)
    splits = [list(seq) for seq in corpus.sequences]
    for k in range(len(with_history.steps) + 1):
        assert with_history.segmentation_at(k) == [tuple(s) for s in splits]
        assert without.segmentation_at(k) == [tuple(s) for s in splits]
        if k < len(with_history.steps):
            splits = [merge_wordpiece(s, with_history.merges[k]) for s in splits]
    with pytest.raises(ValueError, match="between 0 and"):
        without.segmentation_at(len(without.steps) + 1)


def test_trace_records_are_the_textbook_numbers():
    corpus = wordpiece_corpus(LOW_NEWEST)
    training = train_wordpiece(corpus, 12, "likelihood", top_k=4)
    splits = [list(seq) for seq in corpus.sequences]
    for step in training.steps:
        symbols, pairs = count_symbols_and_pairs(splits, corpus.counts)
        a, b = step.pair
        assert (step.count, step.count_a, step.count_b) == (pairs[(a, b)], symbols[a], symbols[b])
        assert step.total == sum(symbols.values())
        expected = pair_score("likelihood", step.count, step.count_a, step.count_b, step.total)
        assert step.score == expected
        ranked, ties = rank_by_score(splits, corpus.counts, "likelihood")
        assert step.candidates == tuple(ranked[:4]) and step.ties == ties
        assert step.candidates[0].pair == step.pair
        splits = [merge_wordpiece(s, step.pair) for s in splits]


def test_progress_is_reported_per_merge():
    seen: list[tuple[int, int]] = []
    train_wordpiece(wordpiece_corpus(LOW_NEWEST), 3, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"score": "frequency"}, "'ratio' or 'likelihood'"),
        ({"tie_break": "random"}, "'first' or 'lexical'"),
        ({"num_merges": -1}, "whole number"),
        ({"num_merges": 10**6}, "over the bound"),
        ({"top_k": 1000}, "top_k"),
        ({"special_tokens": ("[UNK]", "[UNK]")}, "distinct"),
    ],
)
def test_bad_training_requests_are_refused(kwargs, message):
    args = {"num_merges": 3, **kwargs}
    with pytest.raises(ValueError, match=message):
        train_wordpiece(wordpiece_corpus(HUG_PUG), **args)


def test_wrong_corpora_are_refused_with_the_remedy():
    with pytest.raises(ValueError, match="continuation=''"):
        train_wordpiece(corpus_from_counts(HUG_PUG), 3)  # a `</w>` split, not a ## split
    with pytest.raises(ValueError, match="word-level"):
        wordpiece_corpus(corpus_from_text("hug pug", "sentence"))
    with pytest.raises(ValueError, match="over the bound"):
        train_wordpiece(wordpiece_corpus({"x" * 5000: 1}), 1)


# Random corpora: few letters so ties and repeats are common, `#` to stress the ## joins,
# unicode, single-character words.
_letters = st.sampled_from(["ab", "abc", "a#", "xé你🙂", "z", "aab"])


@st.composite
def count_tables(draw):
    letters = draw(_letters)
    words = st.text(alphabet=letters, min_size=1, max_size=7)
    return draw(st.dictionaries(words, st.integers(1, 6), min_size=0, max_size=10))


@given(count_tables(), st.integers(0, 40), st.sampled_from(["ratio", "likelihood"]),
       st.sampled_from(["first", "lexical"]))
def test_fast_equals_textbook_on_random_corpora(table, num_merges, score, tie_break):
    corpus = wordpiece_corpus(table)
    training = train_wordpiece(corpus, num_merges, score, tie_break)
    merges, scores = textbook_wordpiece(corpus, num_merges, score, tie_break)
    assert training.merges == merges
    assert training.scores == scores
    # and on the `</w>` split, joining plainly (what lessons/bpe_vs_wordpiece.py runs)
    plain = corpus_from_counts(table)
    assert (train_wordpiece(plain, num_merges, score, tie_break, continuation="").merges
            == textbook_wordpiece(plain, num_merges, score, tie_break, continuation="")[0])


@given(st.lists(st.text(alphabet="ab #é\n", max_size=12), max_size=8), st.integers(0, 30))
def test_fast_equals_textbook_on_random_text(lines, num_merges):
    corpus = wordpiece_corpus(corpus_from_text("\n".join(lines)))
    assert train_wordpiece(corpus, num_merges).merges == textbook_wordpiece(corpus, num_merges)[0]
