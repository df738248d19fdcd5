"""A user's regex is checked before it is compiled (issue 23, item 5): `x{1000000000}` typed in
the Vocabulary search took the server from 773 MB to 19.3 GB in two seconds.

The hostile patterns run in a child process that measures its own peak memory (and has an
address-space limit, so the code before the fix fails there with MemoryError instead of taking
this machine's memory); good patterns must match exactly as `regex` does.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.lessons.pre_split import PRE_SPLITTERS
from tokenizer_core.pretokenize import PATTERNS
from tokenizer_core.samples import sample_text
from tokenizer_core.user_regex import (
    MAX_SPELLED,
    check_pattern,
    compile_user_pattern,
    spelled_size,
)

HOSTILE = {
    "x{1000000000}": "the bound is 1,000 repeats",
    "x{10000000}": "the bound is 1,000 repeats",
    "(a{1000}){1000}": "the bound is 10,000",
    "x{1000000,}": "the bound is 1,000 repeats",
    "(?:(?:a{30}){30}){30}": "the bound is 10,000",
}
# What the child runs: every hostile pattern through the Vocabulary search and through a model
# file's pattern, then a backtracking pattern on a long token; it prints what each raised and
# how much its peak memory grew meanwhile.
CHILD = textwrap.dedent("""
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    from tokenizer_core.measure.vocabulary import search_regex, vocabulary
    from tokenizer_core.modelfile import bpe_from_json
    from tokenizer_core.models.wordpiece import WordPieceTokenizer

    def peak_mb():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    vocab = vocabulary(WordPieceTokenizer.from_vocab(["[UNK]", "a", "x", "a" * 5000 + "b"]))
    before = peak_mb()
    said = {}
    for pattern in json.loads(sys.argv[1]):
        for where, run in (
            ("search", lambda: search_regex(vocab, pattern)),
            ("model", lambda: bpe_from_json({"algorithm": "bpe", "level": "byte", "merges": [],
                                             "pattern": pattern})),
        ):
            try:
                run()
                said[where + " " + pattern] = "accepted"
            except (ValueError, MemoryError) as error:
                # a Refusal (tokenizer_core.messages) is a ValueError: said as one
                kind = "ValueError" if isinstance(error, ValueError) else type(error).__name__
                said[where + " " + pattern] = kind + ": " + str(error)
    try:
        search_regex(vocab, "(a+)+$", seconds=0.2)
        said["backtracking"] = "finished"
    except ValueError as error:
        said["backtracking"] = str(error)
    print(json.dumps({"said": said, "grew_mb": peak_mb() - before}))
""")


def test_hostile_patterns_are_refused_before_compiling_and_memory_stays_flat():
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(list(HOSTILE))],
                          capture_output=True, text=True, timeout=600, check=True)
    report = json.loads(done.stdout)
    for pattern, bound in HOSTILE.items():
        for where in ("search", "model"):
            said = report["said"][f"{where} {pattern}"]
            assert said.startswith("ValueError") and bound in said, (where, pattern, said)
    assert "was stopped" in report["said"]["backtracking"]
    # x{10000000} alone compiles to 2.6 GB; refused before compiling, nothing grows.
    assert report["grew_mb"] < 50, report


@pytest.mark.parametrize("pattern, bound", [
    ("a" * 201, "the bound is 200"),
    ("(?x)a {3}", "verbose mode"),
    ("(?ix:a)", "verbose mode"),
    ("a{e<=5000}", "the bound is 1,000 repeats"),  # a fuzzy constraint's number too
    ("x{0,1000}{1000}", "the bound is 10,000"),
    ("(?:x{999}|y){11}", "the bound is 10,000"),  # every alternative counts
    ("((x{10}){10}){101}", "the bound is 10,000"),
    ("(unclosed{100}){101}", "the bound is 10,000"),
])
def test_each_bound_is_named(pattern, bound):
    with pytest.raises(ValueError, match=regex.escape(bound)):
        compile_user_pattern(pattern, 200)


GOOD = [
    *PATTERNS.values(), *(s.pat_str for s in PRE_SPLITTERS.values()),
    r"^ [A-Z][a-z]+ing$", r"\d{3}", r"x{1000}", r"(a{100}){100}", r"\p{Han}{2}", r"[[a]b]",
    r"[]a]+", r"\p{L}+(?=\s)", r"(?i)THE", r"x{a}", r"\N{LATIN SMALL LETTER A}{2,3}", r"\x41{2}", r"(?P<w>\w+)\s(?P=w)",
    r"a{,3}", r"[{}]{2}", r"\{3\}",
]  # fmt: skip


@pytest.mark.parametrize("pattern", GOOD)
def test_good_patterns_match_exactly_as_regex_does(pattern):
    texts = [sample_text("english"), sample_text("chinese"), "aaa{3} x{a} AAA " + "x" * 1200,
             "The the  word word"]
    compiled = compile_user_pattern(pattern, 1_000)
    for text in texts:
        assert compiled.findall(text) == regex.findall(pattern, text)


def test_built_in_patterns_are_far_inside_the_bounds():
    for pattern in (*PATTERNS.values(), *(s.pat_str for s in PRE_SPLITTERS.values())):
        check_pattern(pattern, 1_000)
        assert spelled_size(pattern) <= len(pattern)


# --- the scanner never counts less than the pattern holds --------------------------------------
# A pattern built from parts whose spelled-out size is known as it is built: a letter is one item,
# a group holds the sum of its alternatives, a repeat {n} or {m,n} multiplies by n. A part is
# (text, size, whether it is one atom or group, which a repeat may follow as it is).

Part = tuple[str, int, bool]
ATOMS = st.sampled_from(["a", r"\d", "[a-z]", r"\p{Han}", "[]x]", r"\N{DIGIT ONE}"]).map(
    lambda text: (text, 1, True))


def _repeat(part: Part, counts: tuple[int, int]) -> Part:
    text, size, single = part
    low, high = sorted(counts)
    quantifier = f"{{{high}}}" if low == high else f"{{{low},{high}}}"
    return (text if single else f"(?:{text})") + quantifier, size * high, False


def _group(branches: list[Part]) -> Part:
    return "(?:" + "|".join(t for t, _, _ in branches) + ")", sum(s for _, s, _ in branches), True


def _sequence(parts: list[Part]) -> Part:
    return "".join(t for t, _, _ in parts), sum(s for _, s, _ in parts), len(parts) == 1 and parts[0][2]


PARTS = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.tuples(inner, st.tuples(st.integers(1, 40), st.integers(1, 40))).map(lambda p: _repeat(*p)),
        st.lists(inner, min_size=1, max_size=3).map(_group),
        st.lists(inner, min_size=1, max_size=3).map(_sequence),
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(PARTS)
def test_spelled_size_is_never_less_than_what_the_pattern_holds(part):
    pattern, size, _ = part
    assert spelled_size(pattern) >= size
    if size > MAX_SPELLED:
        with pytest.raises(ValueError):
            check_pattern(pattern, 10_000)
