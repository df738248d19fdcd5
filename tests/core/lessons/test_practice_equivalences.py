"""Right answers written another way are accepted, blank by blank, and wrong ones still are not.

The alternatives are written here, by hand, for what each blank is for (a value only looped
over, a dict's argmax, ...); most are in no list of the exercises data, so they pass only
because the checker's normal form (and the blank's equivalence classes) makes them equal.
Nothing here is run: the checker parses, and a trap makes any eval/exec/compile fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.lessons.test_practice_checker import no_running  # noqa: F401 (a fixture)
from tokenizer_core.lessons.practice import all_exercises, exercise
from tokenizer_core.lessons.practice.equivalences import apply_classes

# (exercise id, blank number): (right answers, wrong answers)
ANSWERS: dict[tuple[str, int], tuple[list[str], list[str]]] = {
    ("bpe_trainer", 1): ([
        "list(zip(split, split[1:]))",
        "tuple(zip(split, split[1:]))",
        "list(zip(split[:-1], split[1:]))",
        "[(a, b) for a, b in zip(split, split[1:])]",
        "(pair for pair in zip(split, split[1:]))",
        "iter(zip(split, split[1:]))",
        "[(split[i], split[i + 1]) for i in range(len(split) - 1)]",
    ], [
        "zip(split, split)",
        "zip(split[1:], split)",
        "list(zip(split))",
        "sorted(zip(split, split[1:]))",  # another order
        "set(zip(split, split[1:]))",  # a repeated pair counted once
        "zip(split, split[2:])",
        "[(b, a) for a, b in zip(split, split[1:])]",
        "[a for a, b in zip(split, split[1:])]",
        "[(a, b) for a, b in zip(split, split[1:]) if a != b]",
        "list(reversed(list(zip(split, split[1:]))))",
    ]),
    ("bpe_trainer", 2): ([
        "count + pair_counts.get(pair, 0)",
        "pair_counts.get(pair,0)+count",
        "(count) + (pair_counts.get(pair, 0x0))",
    ], [
        "pair_counts.get(pair, 0) + 1",
        "pair_counts[pair] + count",
        "pair_counts.get(pair, 0) - count",
        "pair_counts.get(pair, count)",
    ]),
    ("bpe_trainer", 3): ([
        "max(pair_counts.items(), key=lambda item: item[1])[0]",  # the audit's answer
        "max(pair_counts.items(), key=lambda kv: kv[1])[0]",
        "max(pair_counts.items(), key=lambda kv: kv[-1])[0]",
        "max(pair_counts, key=lambda p: pair_counts[p])",
        "max(pair_counts, key=lambda pair: pair_counts.get(pair))",
        "max(pair_counts.keys(), key=lambda k: pair_counts[k])",
        "max(pair_counts, key=pair_counts.__getitem__)",
        "max(pair_counts.keys(), key=pair_counts.get)",
    ], [
        "max(pair_counts.items(), key=lambda item: item[1])",  # (pair, count): add [0]
        "max(pair_counts.items(), key=lambda item: item[1])[1]",  # the count
        "max(pair_counts.items(), key=lambda item: item[0])[0]",  # the largest pair
        "max(pair_counts.items())[0]",
        "sorted(pair_counts, key=pair_counts.get)[-1]",  # the last of a tie
        "min(pair_counts, key=pair_counts.get)",
        "max(pair_counts, key=lambda p: -pair_counts[p])",
        "max(pair_counts.values())",
        "max(pair_counts, key=lambda p: splits[p])",
        "max(splits, key=pair_counts.get)",
    ]),
    ("bpe_trainer", 4): ([
        "splits = [merge_pair(s, best) for s in splits]",
        "splits = list(map(lambda w: merge_pair(w, best), splits))",
        "splits=[merge_pair(word,best) for word in splits]",
    ], [
        "[merge_pair(split, best) for split in splits]",
        "splits = [merge_pair(best, split) for split in splits]",
        "splits = (merge_pair(split, best) for split in splits)",
    ]),
    ("bpe_encoder", 1): ([
        "list(range(len(current) - 1))",
        "range(0, len(current) - 1)",
        "range(len(current[:-1]))",
        "[i for i in range(len(current) - 1)]",
        "tuple(range(0, len(current) - 1))",
    ], [
        "range(len(current))",
        "range(1, len(current))",
        "range(len(current) - 2)",
        "list(range(len(current)))",
        "reversed(range(len(current) - 1))",  # a tie would go to the rightmost pair
    ]),
    ("bpe_encoder", 2): ([
        "rank_of(*current[i:i + 2])",
        "rank_of(current[i],current[i+1])",
        "rank_of((current[i]), current[(i + 1)])",
    ], [
        "rank_of(current[i + 1], current[i])",
        "rank_of(current[i], current[i])",
        "rank_of(current[i] + current[i + 1])",
        "rank_of(current[i - 1], current[i])",
    ]),
    ("bpe_encoder", 3): ([
        "rank is not None and (best_rank is None or best_rank > rank)",
        "not rank is None and (best_rank is None or rank < best_rank)",
        "(rank is not None) and ((best_rank is None) or (rank < best_rank))",
    ], [
        "rank is not None and (best_rank is None or rank <= best_rank)",
        "rank and (best_rank is None or rank < best_rank)",
        "best_rank is None or rank < best_rank",
    ]),
    ("bpe_encoder", 4): ([
        "current[best_i:best_i + 2] = [current[best_i] + current[best_i + 1]]",
        "current[best_i : best_i + 2] = (pair[0] + pair[1],)",
        "current[best_i:best_i+2] = [(pair[0] + pair[1])]",
    ], [
        "current[best_i] = pair[0] + pair[1]",
        "current[best_i : best_i + 1] = [pair[0] + pair[1]]",
        "current[best_i : best_i + 2] = pair[0] + pair[1]",  # splices the joined part's items
        "current[best_i : best_i + 2] = [pair[1] + pair[0]]",
    ]),
    ("wordpiece_score", 1): ([
        "count_ab / (count_b * count_a)",
        "count_ab/(count_a*count_b)",
        "(count_ab) / ((count_a) * (count_b))",
    ], [
        "count_ab / count_a / count_b",
        "count_ab // (count_a * count_b)",
        "(count_a * count_b) / count_ab",
        "count_ab",
    ]),
    ("wordpiece_score", 2): ([
        "math.log(count_ab * total / (count_a * count_b)) * count_ab",
        "count_ab * math.log(total * count_ab / (count_a * count_b))",
        "count_ab*math.log(count_ab*total/(count_a*count_b))",
    ], [
        "math.log(count_ab * total / (count_a * count_b))",
        "count_ab * math.log(count_ab / (count_a * count_b))",
        "count_ab * math.log(count_ab * total / count_a * count_b)",
        "count_ab * math.log10(count_ab * total / (count_a * count_b))",
    ]),
    ("wordpiece_score", 3): ([
        "count + symbol_counts.get(symbol, 0)",
        "symbol_counts.get(symbol,0)+count",
        "(symbol_counts.get(symbol, 0)) + count",
    ], [
        "symbol_counts[symbol] + count",
        "symbol_counts.get(symbol, 0) + 1",
        "symbol_counts.get(symbol, 0) + counts",
    ]),
    ("utf8_bytes", 1): ([
        "b < 128",
        "128 > b",
        "b <= 0x7f",
        "0x7F >= b",
        "not b & 0x80",
    ], [
        "b < 0xFF",
        "b <= 0x80",
        "b > 0x80",
        "b < 0x7F",
    ]),
    ("utf8_bytes", 2): ([
        "b < 192",
        "0xC0 > b",
        "b <= 0xBF",
        "b >> 6 == 2",
        "0x80 == b & 0xC0",
    ], [
        "b < 0xE0",
        "b <= 0xC0",
        "b < 0x80",
    ]),
    ("utf8_bytes", 3): ([
        "len(ch.encode())",
        "len(ch.encode('utf-8'))",
        "len(ch.encode(\"utf8\"))",
        "len(bytes(ch, \"utf-8\"))",
        "len(ch.encode(encoding='utf-8'))",
    ], [
        "len(ch)",
        "1",
        "len(ch.encode(\"utf-16\"))",
        "len(ch.encode(\"latin-1\"))",
    ]),
    ("utf8_bytes", 4): ([
        "bisect.bisect(self.char_byte_starts, byte_offset) - 1",
        "bisect.bisect_right(self.char_byte_starts,byte_offset)-1",
        "(bisect.bisect_right(self.char_byte_starts, byte_offset)) - 1",
    ], [
        "bisect.bisect_left(self.char_byte_starts, byte_offset)",
        "bisect.bisect_right(self.char_byte_starts, byte_offset)",
        "bisect.bisect_right(self.char_byte_starts, byte_offset) + 1",
    ]),
    ("tiny_tokenizer", 1): ([
        "sorted(self.special_ids, key=lambda s: len(s), reverse=True)",
        "sorted(self.special_ids, reverse=True, key=len)",  # keyword order
        "list(sorted(self.special_ids, key=len, reverse=True))",
        "sorted(self.special_ids.keys(), key=lambda t: len(t), reverse=True)",
        "sorted(self.special_ids, key=lambda s: -len(s))",
    ], [
        "sorted(self.special_ids, key=len)",
        "sorted(self.special_ids)",
        "sorted(self.special_ids, key=len, reverse=False)",
        "sorted(self.special_ids, key=len, reverse=True)[0]",
        "set(sorted(self.special_ids, key=len, reverse=True))",
    ]),
    ("tiny_tokenizer", 2): ([
        "sorted(ranked)[0]",
        "min(ranked, key=lambda t: (t[0], t[1]))",
        "min(ranked, key=lambda pair: pair[0])",  # ranked is in position order
    ], [
        "max(ranked)",
        "ranked[0]",
        "sorted(ranked)[-1]",
        "min(ranked, key=lambda pair: pair[1])",
    ]),
    ("tiny_tokenizer", 3): ([
        "parts[i:i + 2] = [b\"\".join(parts[i:i + 2])]",
        "parts[i : i + 2] = (parts[i] + parts[i + 1],)",
        "parts[i:i+2] = [parts[i]+parts[i+1]]",
    ], [
        "parts[i] = parts[i] + parts[i + 1]",
        "parts[i:i + 1] = [parts[i] + parts[i + 1]]",
        "parts[i : i + 2] = parts[i] + parts[i + 1]",
    ]),
    ("tiny_tokenizer", 4): ([
        "self.special_ids.get(chunk)",
        "self.special_ids [ chunk ]",
        "(self.special_ids)[chunk]",
    ], [
        "self.ranks[chunk]",
        "self.special_ids[chunk.encode()]",
        "chunk",
    ]),
    ("tiny_tokenizer", 5): ([
        "b\"\".join([self.vocab[i] for i in ids])",
        "b''.join(self.vocab[t] for t in ids)",
        "bytes().join(self.vocab[i] for i in ids)",
        "b\"\".join(map(self.vocab.__getitem__, ids))",
    ], [
        "\"\".join(self.vocab[i] for i in ids)",
        "b\" \".join(self.vocab[i] for i in ids)",
        "b\"\".join(self.vocab[i] for i in range(len(ids)))",
    ]),
}


def _blank(key: tuple[str, int]):
    ex_id, n = key
    return exercise(ex_id).blanks[n - 1]


def test_every_blank_has_several_right_and_wrong_alternatives():
    every = {(ex.id, n) for ex in all_exercises() for n in range(1, len(ex.blanks) + 1)}
    assert set(ANSWERS) == every
    assert all(len(right) >= 3 and len(wrong) >= 3 for right, wrong in ANSWERS.values())


RIGHT = [(key, a) for key, (right, _) in ANSWERS.items() for a in right]
WRONG = [(key, a) for key, (_, wrong) in ANSWERS.items() for a in wrong]


@pytest.mark.parametrize(("key", "answer"), RIGHT, ids=[f"{k[0]}-{k[1]}: {a}" for k, a in RIGHT])
def test_a_right_answer_written_another_way_is_correct(key, answer):
    verdict = _blank(key).check(answer)
    assert verdict.correct, verdict.message


@pytest.mark.parametrize(("key", "answer"), WRONG, ids=[f"{k[0]}-{k[1]}: {a}" for k, a in WRONG])
def test_a_wrong_answer_is_still_not_yet(key, answer):
    assert _blank(key).check(answer).status == "not_yet"


def test_the_argmax_advice_leads_to_a_right_answer():
    # "close: ... Add [0]" must not be followed by "Not yet" once [0] is added
    argmax = _blank(("bpe_trainer", 3))
    assert "Add [0]" in argmax.check("max(pair_counts.items(), key=lambda item: item[1])").message
    assert argmax.check("max(pair_counts.items(), key=lambda item: item[1])[0]").correct
    assert "last" in argmax.check("sorted(pair_counts, key=pair_counts.get)[-1]").message


def test_the_classes_are_per_blank_not_everywhere():
    # list(zip(..)) is not zip(..) where the value is kept, not looped: a blank without the
    # class keeps them apart
    from tokenizer_core.lessons.practice import check_answer
    assert not check_answer("list(zip(a, a[1:]))", "expression", ["zip(a, a[1:])"]).correct
    assert check_answer("list(zip(a, a[1:]))", "expression", ["zip(a, a[1:])"],
                        classes=["iterated"]).correct
    assert not check_answer("max(d.items(), key=lambda kv: kv[1])[0]", "expression",
                            ["max(d, key=d.get)"]).correct
    with pytest.raises(ValueError, match="unknown equivalence class"):
        apply_classes(__import__("ast").parse("x", mode="eval"), ("anything",))


def test_iterated_peels_only_at_the_top():
    from tokenizer_core.lessons.practice import normal_form
    top = normal_form("list(zip(a, b))", "expression", ["iterated"])
    assert top == normal_form("zip(a, b)", "expression", ["iterated"])
    inner = normal_form("f(list(zip(a, b)))", "expression", ["iterated"])
    assert inner != normal_form("f(zip(a, b))", "expression", ["iterated"])


def test_no_answer_to_any_blank_is_run(tmp_path: Path, no_running):  # noqa: F811
    marker = tmp_path / "ran"
    payloads = [f"__import__('os').system('touch {marker}')",
                f"list(__import__('os').system('touch {marker}') for _ in [0])",
                f"max(__import__('os').system('touch {marker}'), key=len)"]
    for key in ANSWERS:
        blank = _blank(key)
        for payload in payloads:
            if blank.mode == "statement":
                payload = f"x = {payload}"
            assert blank.check(payload).status == "not_yet"
        right, wrong = ANSWERS[key]
        assert blank.check(right[0]).correct and not blank.check(wrong[0]).correct
    assert not marker.exists()
