"""WordPiece: training by score (classroom examples worked by hand, the fast trainer merge for
merge equal to the textbook loop), encoding (classroom vocabulary, offsets, special tokens, the
model file) and parity with HF `tokenizers` given the same vocabulary (encoding, not training:
HF's WordPieceTrainer trains BPE)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders, models, pre_tokenizers

from tokenizer_core import corpus_from_counts, corpus_from_text
from tokenizer_core.interface import Tokenizer
from tokenizer_core.wordpiece import (
    WordPieceTokenizer,
    bert_pieces,
    bert_word_counts,
    is_bert_punctuation,
    is_bert_whitespace,
    train_wordpiece_json,
    wordpiece_from_json,
)
from tokenizer_core.wordpiece_train import (
    DEFAULT_SPECIAL_TOKENS,
    continuation_split,
    count_symbols_and_pairs,
    merge_wordpiece,
    pair_score,
    rank_by_score,
    textbook_wordpiece,
    train_wordpiece,
    wordpiece_corpus,
)

from .classroom import HUG_PUG, LOW_NEWEST, THE_TABLE

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
    # and on the `</w>` split, joining plainly (what compare.py runs)
    plain = corpus_from_counts(table)
    assert (train_wordpiece(plain, num_merges, score, tie_break, continuation="").merges
            == textbook_wordpiece(plain, num_merges, score, tie_break, continuation="")[0])


@given(st.lists(st.text(alphabet="ab #é\n", max_size=12), max_size=8), st.integers(0, 30))
def test_fast_equals_textbook_on_random_text(lines, num_merges):
    corpus = wordpiece_corpus(corpus_from_text("\n".join(lines)))
    assert train_wordpiece(corpus, num_merges).merges == textbook_wordpiece(corpus, num_merges)[0]


# --- encoding ------------------------------------------------------------------------------------

CLASSROOM_VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "un", "##believ", "##able",
                   "##ably", "believ", "able", "a", "##b", ",", "!"]


@pytest.fixture
def classroom() -> WordPieceTokenizer:
    return WordPieceTokenizer.from_vocab(CLASSROOM_VOCAB)


def test_unbelievable_is_un_believ_able(classroom):
    tokens = classroom.encode("unbelievable")
    assert [t.piece for t in tokens] == ["un", "##believ", "##able"]
    assert [t.id for t in tokens] == [5, 6, 7]
    assert [t.bytes for t in tokens] == [b"un", b"believ", b"able"]  # ## covers `able`
    assert [(t.start, t.end) for t in tokens] == [(0, 2), (2, 8), (8, 12)]
    assert classroom.tokenize_word("unbelievably") == ["un", "##believ", "##ably"]


def test_a_word_with_an_unknown_character_is_one_unk(classroom):
    tokens = classroom.encode("unbelievablé ab")
    assert [t.piece for t in tokens] == ["[UNK]", "a", "##b"]
    assert tokens[0].bytes == "unbelievablé".encode()
    assert (tokens[0].start, tokens[0].end) == (0, 12)
    assert tokens[0].id == classroom.unk_id == 1


def test_longest_match_first_is_greedy_not_optimal():
    model = WordPieceTokenizer.from_vocab(["[UNK]", "ab", "a", "##bc", "##c"])
    assert model.tokenize_word("abc") == ["ab", "##c"]  # greedy takes `ab`; `a ##bc` is never tried
    assert model.tokenize_word("abcc") == ["ab", "##c", "##c"]


def test_long_words_become_unk():
    model = WordPieceTokenizer.from_vocab(["[UNK]", "a", "##a"], max_input_chars_per_word=3)
    assert [t.piece for t in model.encode("aaa aaaa")] == ["a", "##a", "##a", "[UNK]"]
    default = WordPieceTokenizer.from_vocab(["[UNK]", "a", "##a"])  # 100 characters
    assert default.tokenize_word("a" * 100) == ["a"] + ["##a"] * 99
    assert default.tokenize_word("a" * 101) == ["[UNK]"]


def test_pretokenizer_isolates_punctuation_and_splits_rust_whitespace():
    assert [(p.text, p.start, p.end) for p in bert_pieces("Hi, you!! ok")] == [
        ("Hi", 0, 2), (",", 2, 3), ("you", 4, 7), ("!", 7, 8), ("!", 8, 9), ("ok", 10, 12)]
    assert [p.text for p in bert_pieces("a\u3000b\u00a0c\u2028d\x85e")] == list("abcde")
    assert [p.text for p in bert_pieces("a\x1cb")] == ["a\x1cb"]  # str.isspace says yes, Rust no
    assert "\x1c".isspace() and not is_bert_whitespace("\x1c")
    assert is_bert_punctuation("$") and is_bert_punctuation("、") and not is_bert_punctuation("a")
    assert not is_bert_punctuation("\u2e45")  # P* in today's Unicode, but not in HF's tables


def test_special_tokens_follow_the_interface_rule(classroom):
    with pytest.raises(ValueError, match="disallowed special token"):
        classroom.encode("[CLS] unbelievable")
    tokens = classroom.encode("[CLS]unbelievable[SEP]", allowed_special="all")
    assert [t.piece for t in tokens] == ["[CLS]", "un", "##believ", "##able", "[SEP]"]
    assert tokens[0].special and not tokens[1].special
    assert [(t.start, t.end) for t in tokens] == [(0, 5), (5, 7), (7, 13), (13, 17), (17, 22)]
    plain = classroom.encode("[CLS]", disallowed_special=())
    assert [t.piece for t in plain] == ["[UNK]", "[UNK]", "[UNK]"]  # `[`, `CLS`, `]`
    assert classroom.special_tokens == {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4}


def test_decode_glues_continuations_and_says_what_it_loses(classroom):
    ids = [t.id for t in classroom.encode("unbelievable,  unbelievably!")]
    assert classroom.decode(ids) == "unbelievable , unbelievably !"  # spacing is lost
    unk = [t.id for t in classroom.encode("xyz ab")]
    assert classroom.decode(unk) == "[UNK] ab"  # what [UNK] stood for is lost
    assert classroom.decode([6, 5]) == "##believ un"  # a leading ## piece keeps its prefix
    with pytest.raises(ValueError, match="not in this vocabulary"):
        classroom.decode([5, 99])


def test_is_a_tokenizer(classroom):
    assert isinstance(classroom, Tokenizer)
    assert classroom.vocab_size == len(CLASSROOM_VOCAB)
    assert classroom.encode("") == [] and classroom.encode(" \t\n") == []


def test_lone_surrogates_are_refused(classroom):
    with pytest.raises(ValueError, match="lone surrogate"):
        classroom.encode("ab\ud800")


# --- the model file ----------------------------------------------------------------------------


def test_model_file_round_trip_and_command_line_entry_points():
    data = train_wordpiece_json(corpus_from_counts(LOW_NEWEST), 6, "first", "likelihood")
    assert data["algorithm"] == "wordpiece" and data["level"] == "word"
    assert data["score"] == "likelihood" and len(data["merges"]) == len(data["scores"]) == 6
    assert data["vocab_size"] == len(data["vocab"])
    assert data["vocab"][:5] == list(DEFAULT_SPECIAL_TOKENS)
    training = train_wordpiece(wordpiece_corpus(LOW_NEWEST), 6, "likelihood")
    assert data["merges"] == [list(m) for m in training.merges]
    assert data["counts"] == training.counts
    model = wordpiece_from_json(json.loads(json.dumps(data)))
    assert model.to_dict() == data
    assert [t.piece for t in model.encode("lowest")] == model.tokenize_word("lowest")


def test_a_vocabulary_written_by_hand_loads():
    model = WordPieceTokenizer.from_dict({"algorithm": "wordpiece", "vocab": CLASSROOM_VOCAB})
    assert model.tokenize_word("unbelievable") == ["un", "##believ", "##able"]
    assert model.to_dict()["score"] is None and model.to_dict()["merges"] == []


GOOD = {"algorithm": "wordpiece", "level": "word", "merges": [["a", "##b"]], "counts": [3],
        "scores": [0.5], "vocab_size": 4, "vocab": ["[UNK]", "a", "##b", "ab"],
        "special_tokens": ["[UNK]"], "unk_token": "[UNK]", "max_input_chars_per_word": 100,
        "score": "ratio"}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"algorithm": "bpe"}, "expected 'wordpiece'"),
        ({"level": "byte"}, "level should be 'word'"),
        ({"vocab": "abc"}, "'vocab' should be a list of strings"),
        ({"vocab": [], "vocab_size": 0}, "empty"),
        ({"vocab": ["[UNK]", "a", "a", "##b", "ab"], "vocab_size": 5}, "twice"),
        ({"vocab": ["[UNK]", "", "##b", "ab"]}, "non-empty"),
        ({"vocab_size": 9}, "vocab_size 9"),
        ({"unk_token": "<unk>"}, "'<unk>' is not in the vocabulary"),
        ({"unk_token": 3}, "unk_token should be a string"),
        ({"special_tokens": ["[CLS]"]}, "special token '\\[CLS\\]'"),
        ({"max_input_chars_per_word": 0}, "max_input_chars_per_word"),
        ({"max_input_chars_per_word": "100"}, "max_input_chars_per_word"),
        ({"merges": [["a"]]}, "merge 0 should be a pair"),
        ({"merges": [["a", "b"]]}, "'##' piece"),
        ({"merges": [["a", "##c"]]}, "'##c' is not in the vocabulary"),
        ({"counts": []}, "go together"),
        ({"counts": [0]}, "counts"),
        ({"scores": ["x"]}, "scores"),
        ({"score": "frequency"}, "score should be"),
        ({"score": None}, "needs its score"),
        ({"unk": "[UNK]"}, "unknown key"),
    ],
)
def test_malformed_model_files_are_refused_clearly(change, message):
    assert WordPieceTokenizer.from_dict(GOOD).tokenize_word("ab") == ["ab"]
    with pytest.raises(ValueError, match=message):
        WordPieceTokenizer.from_dict({**GOOD, **change})


@pytest.mark.parametrize("data", [[], "x", None, {"vocab": ["[UNK]"]}])
def test_not_a_model_file_at_all(data):
    with pytest.raises(ValueError):
        wordpiece_from_json(data)


def test_training_without_unk_cannot_make_an_encoder():
    training = train_wordpiece(wordpiece_corpus(HUG_PUG), 2, special_tokens=("<pad>",))
    with pytest.raises(ValueError, match="special_tokens"):
        WordPieceTokenizer.from_training(training)


# --- parity with HF `tokenizers` (encoding, given the same vocabulary) ----------------------------


def hf_wordpiece(model: WordPieceTokenizer) -> HFTokenizer:
    hf = HFTokenizer(models.WordPiece(
        model.get_vocab(), unk_token=model.unk_token,
        max_input_chars_per_word=model.max_input_chars_per_word,
    ))
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return hf


def assert_same_as_hf(model: WordPieceTokenizer, text: str) -> None:
    ours = model.encode(text, disallowed_special=())
    theirs = hf_wordpiece(model).encode(text)
    assert [t.id for t in ours] == theirs.ids
    assert [(t.start, t.end) for t in ours] == theirs.offsets
    assert [t.piece for t in ours] == theirs.tokens
    assert [t.bytes for t in ours] == [text[a:b].encode() for a, b in theirs.offsets]


def test_pretokenizer_matches_hf_on_every_code_point():
    hf = pre_tokenizers.BertPreTokenizer()
    points = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    for i in range(0, len(points), 50_000):
        text = "".join("a" + chr(c) for c in points[i : i + 50_000]) + "a"
        ours = [(p.text, (p.start, p.end)) for p in bert_pieces(text)]
        assert ours == hf.pre_tokenize_str(text), f"code points from U+{points[i]:04X}"


_SMALL = "ab#é你🙂,.!"
_WHITESPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u3000\u180e\u200b"
_OTHER = "\u2e45\u166d\U000111c9\u00ad\u0301\U0001f1fa\U0001f1f8\u4e00-_"


@st.composite
def vocabularies(draw):
    """Some single characters (as starts and as `##` continuations) and longer entries."""
    singles = draw(st.lists(st.sampled_from([*_SMALL, *("##" + c for c in _SMALL)]), max_size=18))
    entries = draw(st.lists(st.text(alphabet=_SMALL, min_size=2, max_size=4), max_size=20))
    prefixed = draw(st.lists(st.booleans(), min_size=len(entries), max_size=len(entries)))
    vocab = ["[UNK]", *singles, *(("##" + e) if p else e for e, p in zip(entries, prefixed))]
    max_chars = draw(st.sampled_from([1, 2, 3, 5, 8, 100]))
    return WordPieceTokenizer.from_vocab(
        list(dict.fromkeys(vocab)), max_input_chars_per_word=max_chars
    )


_small = st.sampled_from(_SMALL)
_texts = st.text(
    alphabet=st.one_of(  # mostly the vocabulary's own characters, so that words do match
        _small, _small, _small, st.sampled_from(_WHITESPACE), st.sampled_from(_OTHER),
        st.characters(exclude_categories=("Cs",)),
    ),
    max_size=40,
) | st.text(alphabet=_SMALL + " \t", max_size=30)


@given(vocabularies(), _texts)
def test_encoding_matches_hf_on_random_vocabularies(model, text):
    assert_same_as_hf(model, text)


@given(st.text(alphabet="ab é,\n你", max_size=60), _texts)
def test_encoding_matches_hf_with_a_trained_vocabulary(training_text, text):
    table = bert_word_counts(training_text + " a b é , 你")
    training = train_wordpiece(wordpiece_corpus(table), 15)
    model = WordPieceTokenizer.from_training(training)
    assert_same_as_hf(model, text)
    assert_same_as_hf(model, training_text)


@given(vocabularies(), st.lists(st.integers(0, 24), max_size=12))
def test_decode_matches_hf_wordpiece_decoder_without_cleanup(model, ids):
    ids = [i % model.vocab_size for i in ids]
    pieces = [model.vocab[i] for i in ids]
    assert model.decode(ids) == decoders.WordPiece(prefix="##", cleanup=False).decode(pieces)


_SPECIAL_TEXT_PARTS = [*"ab ,", "[CLS]", "[SEP]", "[UNK]"]


@given(st.lists(st.sampled_from(_SPECIAL_TEXT_PARTS), max_size=12).map("".join))
def test_allowed_special_tokens_match_hf_added_tokens(text):
    model = WordPieceTokenizer.from_vocab(["[UNK]", "[CLS]", "[SEP]", "a", "##b", "b", ","])
    hf = hf_wordpiece(model)
    hf.add_special_tokens(["[UNK]", "[CLS]", "[SEP]"])
    ours, theirs = model.encode(text, allowed_special="all"), hf.encode(text)
    assert [t.id for t in ours] == theirs.ids
    assert [(t.start, t.end) for t in ours] == theirs.offsets
