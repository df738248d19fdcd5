"""The built-in data: every file loads, presets equal the classroom examples exactly, the emoji
are the code point sequences their category says, and bad parallel files fail with the line."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

from tokenizer_core import corpus_from_text, samples, split_held_out, train_bpe
from tokenizer_core.samples import (
    CORPUS_BOUNDS,
    DATA_DIR,
    SAMPLE_BOUNDS,
    ParallelPair,
    corpus_text,
    emoji_catalogue,
    english_reference_corpus,
    load_preset,
    parallel_pairs,
    parse_parallel,
    playground_presets,
    presets,
    sample_text,
)

from .classroom import HUG_PUG, LOW_LOWER, LOW_NEWEST, TEN_SENTENCES, THE_TABLE

PAYLOADS = Path(__file__).parent.parent / "data" / "injection_payloads.txt"

EXPECTED_PRESETS = {  # the lesson values, exactly as the lessons print them
    "low_newest": LOW_NEWEST,
    "hug_pug": HUG_PUG,
    "ten_sentences": TEN_SENTENCES,
    "low_lower": LOW_LOWER,
    "the_table": THE_TABLE,
}
EXPECTED_LEVELS = {
    "low_newest": "word",
    "hug_pug": "word",
    "ten_sentences": "sentence",
    "low_lower": "word",
    "the_table": "word",
}

CJK = re.compile(r"[\u4e00-\u9fff]")
ALLOWED_LATIN_IN_ZH: set[str] = set()  # names like "Python" would go here; none are used now


def test_data_dir_is_next_to_the_package():
    assert DATA_DIR == Path(samples.__file__).parent.parent / "data"
    assert (DATA_DIR / "README.md").is_file()


# --- classroom presets ---------------------------------------------------------------------


def test_presets_are_exactly_the_classroom_examples():
    found = presets()
    assert [p.id for p in found] == list(EXPECTED_PRESETS)
    for preset in found:
        value = load_preset(preset.id)
        assert value == EXPECTED_PRESETS[preset.id]
        assert preset.level == EXPECTED_LEVELS[preset.id]
        assert preset.kind == ("counts" if isinstance(value, dict) else "text")
        assert preset.title and preset.description and 1 <= preset.merges <= 50


def test_count_tables_keep_their_order():
    assert list(load_preset("low_newest")) == ["low", "lower", "newest", "widest"]


def test_unknown_preset_names_the_choices():
    with pytest.raises(ValueError, match="unknown preset 'nope'.*low_newest"):
        load_preset("nope")


def test_presets_are_frozen():
    with pytest.raises(AttributeError):
        presets()[0].merges = 3  # type: ignore[misc]


# --- sample texts --------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(SAMPLE_BOUNDS))
def test_samples_load_within_their_bounds(name):
    text = sample_text(name)
    low, high = SAMPLE_BOUNDS[name]
    assert low <= len(text.encode("utf-8")) <= high
    assert "\ufffd" not in text and "\t" not in text and text.endswith("\n")


def test_sample_contents_match_their_language():
    assert CJK.search(sample_text("chinese")) and "，" in sample_text("chinese")
    assert not re.search(r"[A-Za-z]", sample_text("chinese"))
    assert sample_text("english").isascii()
    compile(sample_text("code"), "code.txt", "exec")  # the code sample is real Python
    emoji = sample_text("emoji")
    assert "\u200d" in emoji and "\u20e3" in emoji and re.search("[\U0001F3FB-\U0001F3FF]", emoji)
    assert re.search("[\U0001F1E6-\U0001F1FF]{2}", emoji)


def test_mixed_default_mixes_everything():
    text = sample_text("mixed_default")
    assert 5 <= len(text.strip().splitlines()) <= 8
    assert CJK.search(text) and re.search(r"[A-Za-z]", text) and "\u200d" in text
    assert "1.11" in text and re.search(r"\d{10,}", text)


# --- long corpora ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(CORPUS_BOUNDS))
def test_long_corpora_load_within_their_bounds(name):
    text = corpus_text(name)
    low, high = CORPUS_BOUNDS[name]
    assert low <= len(text.encode("utf-8")) <= high
    assert "\ufffd" not in text and text.endswith("\n")


def test_long_corpora_are_what_they_say():
    chinese = corpus_text("chinese")
    assert not re.search(r"[A-Za-z]", chinese) and chinese.count("，") > 1_000
    # the code corpus is Python modules joined under `# ==== path ====` headers; each compiles
    parts = re.split(r"(?m)^# ==== (.+?) ====\n", corpus_text("code"))
    modules = list(zip(parts[1::2], parts[2::2]))
    assert not parts[0].strip() and len(modules) >= 10
    for path, source in modules:
        compile(source, path, "exec")
    emoji = corpus_text("emoji")
    assert "\u200d" in emoji and "\u20e3" in emoji and re.search("[\U0001F3FB-\U0001F3FF]", emoji)
    # every code point is one this Python's unicodedata knows (no unassigned characters)
    assert not [hex(ord(c)) for c in set(emoji) if unicodedata.category(c) == "Cn"]


def test_long_corpora_are_not_padded_with_repeats():
    # a paragraph, chat line or module written twice would make a fake curve: each is distinct
    # (code repeats short lines such as imports by nature, so there the unit is the module)
    units = {
        "chinese": re.split(r"\n\s*\n", corpus_text("chinese")),
        "emoji": [line for line in corpus_text("emoji").splitlines() if len(line) >= 40],
        "code": re.split(r"(?m)^# ==== .+? ====\n", corpus_text("code"))[1:],
    }
    for name, parts in units.items():
        parts = [p.strip() for p in parts if p.strip()]
        assert len(parts) == len(set(parts)), name


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CORPUS_BOUNDS))
def test_long_corpora_train_past_4000_merges_on_their_training_part(name):
    # what the corpora are for: a compression curve past 4,000 merges on held-out text, with the
    # Compression page's default split (20% held out)
    split = split_held_out(corpus_text(name), 0.2)
    training = train_bpe(corpus_from_text(split.train, "byte"), 4_000)
    assert len(training.merges) == 4_000, training.stop_reason


def test_unknown_corpus_names_the_choices():
    with pytest.raises(ValueError, match="unknown corpus 'french'.*chinese"):
        corpus_text("french")


def test_unknown_sample_names_the_choices():
    with pytest.raises(ValueError, match="unknown sample 'french'.*english"):
        sample_text("french")


def test_english_reference_corpus_is_pythons_documentation():
    from pydoc_data.topics import topics

    text = english_reference_corpus()
    assert 300_000 < len(text) < 1_000_000
    assert text.startswith(topics[min(topics)])
    assert text == english_reference_corpus()


# --- parallel pairs ------------------------------------------------------------------------


def test_builtin_parallel_pairs():
    pairs = parallel_pairs()
    assert len(pairs) >= 40
    assert len({p.en for p in pairs}) == len(pairs)
    for pair in pairs:
        assert pair.en.isascii() and re.search(r"[A-Za-z]", pair.en), pair
        assert CJK.search(pair.zh), pair
        assert set(re.findall(r"[A-Za-z]+", pair.zh)) <= ALLOWED_LATIN_IN_ZH, pair
        assert "\t" not in pair.en + pair.zh


def test_parse_parallel_accepts_comments_blank_lines_crlf_and_bom():
    text = "\ufeff# my pairs\r\nen\tzh\r\n\r\nHello.\t你好。\r\n# more\r\nThanks!\t谢谢！\r\n"
    assert parse_parallel(text) == [
        ParallelPair("Hello.", "你好。", 4),
        ParallelPair("Thanks!", "谢谢！", 6),
    ]


@pytest.mark.parametrize(
    "text, message",
    [
        ("Hello.\t你好。\n", r"line 1: expected the header line 'en<TAB>zh'"),
        ("en zh\nHello.\t你好。\n", r"line 1: .*separated by a tab"),
        ("# c\nen\tzh\nHello.\t你好。\nBye.\n", r"line 4: expected 2 tab-separated fields.*found 1"),
        ("en\tzh\nA\tB\tC\n", r"line 2: expected 2 tab-separated fields.*found 3"),
        ("en\tzh\nHello.\t你好。\n \t再见\n", r"line 3: the 'en' field is empty"),
        ("en\tzh\nHello.\t  \n", r"line 2: the 'zh' field is empty"),
        ("en\tzh\n\n# nothing\n", r"no rows after the header"),
        ("", r"no header line"),
        ("en\tzh\n" + "x\ty\n" + "a" * 1_001 + "\tb\n", r"line 3: a sentence is over 1,000"),
    ],
)
def test_parse_parallel_rejects_bad_input_with_the_line(text, message):
    with pytest.raises(ValueError, match=message):
        parse_parallel(text, source="mine.tsv")


def test_parse_parallel_names_the_source():
    with pytest.raises(ValueError, match=r"^mine\.tsv, line 1"):
        parse_parallel("nope\n", source="mine.tsv")


def test_parse_parallel_bounds_the_upload():
    with pytest.raises(ValueError, match="over the bound"):
        parse_parallel("en\tzh\n" + "a\tb\n" * (samples.MAX_PARALLEL_CHARS // 4 + 1))


def test_parse_parallel_does_not_split_on_unicode_line_separators():
    (pair,) = parse_parallel("en\tzh\nA\u2028B\t甲\u0085乙\n")
    assert (pair.en, pair.zh, pair.line) == ("A\u2028B", "甲\u0085乙", 2)


# --- emoji ---------------------------------------------------------------------------------

TONES = set(range(0x1F3FB, 0x1F400))
REGIONAL = range(0x1F1E6, 0x1F200)


def test_emoji_catalogue_has_every_category():
    entries = emoji_catalogue()
    for category in ("single", "skin_tone", "zwj_family", "zwj", "flag", "keycap"):
        assert sum(e.category == category for e in entries) >= 5, category
    assert sum(e.category == "tag_flag" for e in entries) >= 3
    assert len({e.emoji for e in entries}) == len(entries)


@pytest.mark.parametrize("entry", emoji_catalogue(), ids=lambda e: e.name)
def test_emoji_entry_is_one_well_formed_sequence(entry):
    points = [ord(c) for c in entry.emoji]
    for c in entry.emoji:
        unicodedata.name(c)  # every code point is assigned
    assert not any(unicodedata.category(c) in ("Zs", "Cc") for c in entry.emoji)
    assert entry.code_points == [f"U+{p:04X}" for p in points]
    if entry.category == "single":
        assert len(points) == 1 and unicodedata.name(entry.emoji).lower() == entry.name
    elif entry.category == "skin_tone":
        assert len(points) == 2 and points[1] in TONES and points[0] not in TONES
    elif entry.category in ("zwj_family", "zwj"):
        parts = entry.emoji.split("\u200d")
        assert len(parts) >= 2 and all(parts), "ZWJ only between emoji"
        if entry.category == "zwj_family":
            assert entry.name.startswith("family: ")
            assert {unicodedata.name(p) for p in parts} <= {"MAN", "WOMAN", "GIRL", "BOY"}
    elif entry.category == "flag":
        assert len(points) == 2 and all(p in REGIONAL for p in points)
        letters = "".join(unicodedata.name(c)[-1] for c in entry.emoji)
        assert entry.name.startswith("flag: ") and len(letters) == 2
    elif entry.category == "tag_flag":
        assert points[0] == 0x1F3F4 and points[-1] == 0xE007F
        assert all(0xE0061 <= p <= 0xE007A for p in points[1:-1])
    elif entry.category == "keycap":
        assert len(points) == 3 and points[1:] == [0xFE0F, 0x20E3]
        assert entry.emoji[0] in "0123456789#*"


def test_skin_tone_and_zwj_entries_contain_their_marks():
    entries = emoji_catalogue()
    assert all(
        any(ord(c) in TONES for c in e.emoji) for e in entries if e.category == "skin_tone"
    )
    assert all("\u200d" in e.emoji for e in entries if e.category.startswith("zwj"))
    assert all(e.emoji.endswith("\u20e3") for e in entries if e.category == "keycap")


# --- playground presets and payloads -------------------------------------------------------


def test_playground_presets_cover_the_classic_quirks():
    found = {p.id: p for p in playground_presets()}
    texts = [p.text for p in found.values()]
    assert len(found) >= 10
    assert any("1.11" in t and "1.9" in t for t in texts)
    assert any(t.startswith("cat ") and " cat" in t for t in texts)
    assert any("    " in t and "\n" not in t for t in texts)
    assert any("\n    " in t for t in texts)
    assert "你好，世界\U0001F642" in texts
    assert any("<|endoftext|>" in t for t in texts)
    assert any(re.search(r"\d{10,}", t) for t in texts)
    family = "\u200d".join(chr(p) for p in (0x1F468, 0x1F469, 0x1F467, 0x1F466))
    assert any(family in t for t in texts)
    for preset in found.values():
        assert preset.label and len(preset.what_to_notice) > 40


def test_injection_payloads():
    lines = PAYLOADS.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 25 and all(lines)
    joined = "\n".join(lines)
    for needle in ("<script>", "onerror=", "javascript:", "&lt;script&gt;", "</span><script>",
                   "<svg onload=", "<iframe srcdoc=", "<style>", "{{7*7}}", "\\x00"):
        assert needle in joined, needle
    assert max(map(len, lines)) > 4_000  # the very long attribute


# --- the README and broken built-in files --------------------------------------------------


def test_readme_describes_every_data_file():
    readme = (DATA_DIR / "README.md").read_text(encoding="utf-8")
    for path in DATA_DIR.rglob("*"):
        if path.is_file() and path.name != "README.md":
            assert f"`{path.relative_to(DATA_DIR).as_posix()}`" in readme, path


@pytest.fixture
def fake_data(tmp_path, monkeypatch):
    """An empty data/ folder the loaders read from instead of the real one."""
    monkeypatch.setattr(samples, "DATA_DIR", tmp_path)
    return tmp_path


def test_missing_file_says_how_to_restore_it(fake_data):
    with pytest.raises(FileNotFoundError, match=r"data/presets\.json is missing.*git checkout"):
        presets()


def test_invalid_json_names_the_line(fake_data):
    (fake_data / "presets.json").write_text('[\n  {"id": "x",}\n]\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"data/presets\.json, line 2: invalid JSON"):
        presets()


def test_bad_preset_field_names_the_preset(fake_data):
    record = {"id": "x", "title": "t", "description": "d", "kind": "counts",
              "file": "x.json", "level": "letter", "merges": 3}
    (fake_data / "presets.json").write_text(json.dumps([record]), encoding="utf-8")
    with pytest.raises(ValueError, match=r"preset 1: level 'letter' must be one of word"):
        presets()


@pytest.mark.parametrize(
    "table, message",
    [({"low": 0}, "count of 'low' must be a positive integer"),
     ({"low": True}, "count of 'low' must be a positive integer"),
     ({"lo w": 2}, "'lo w' must be one word"),
     ([], "non-empty JSON object")],
)
def test_bad_count_table_is_rejected(fake_data, table, message):
    record = {"id": "x", "title": "t", "description": "d", "kind": "counts",
              "file": "x.json", "level": "word", "merges": 3}
    (fake_data / "presets.json").write_text(json.dumps([record]), encoding="utf-8")
    (fake_data / "x.json").write_text(json.dumps(table), encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(message)):
        load_preset("x")


def test_oversized_sample_is_rejected(fake_data):
    (fake_data / "samples").mkdir()
    (fake_data / "samples" / "english.txt").write_text("a" * 9_000, encoding="utf-8")
    with pytest.raises(ValueError, match=r"english\.txt is 9,000 bytes, over its bound of 8,000"):
        sample_text("english")


def test_invalid_utf8_is_rejected(fake_data):
    (fake_data / "emoji.tsv").write_bytes(b"category\tname\temoji\nsingle\tx\t\xff\n")
    with pytest.raises(ValueError, match=r"emoji\.tsv is not valid UTF-8"):
        emoji_catalogue()


def test_unknown_emoji_category_names_the_line(fake_data):
    (fake_data / "emoji.tsv").write_text("category\tname\temoji\nsmiley\tx\t\U0001F600\n")
    with pytest.raises(ValueError, match=r"emoji\.tsv, line 2: unknown category 'smiley'"):
        emoji_catalogue()


# --- the long article (the Sequences page's long text) -------------------------------------


def test_article_loads_within_its_bounds_and_has_paragraphs_sentences_and_words():
    from tokenizer_core.samples import ARTICLE_BOUNDS, article_text

    for name, (low, high) in ARTICLE_BOUNDS.items():
        text = article_text(name)
        assert low <= len(text.encode("utf-8")) <= high
        assert len(text) > 20_000 and text.isascii() and text.endswith("\n")
        paragraphs = [p for p in re.split(r"\n\s*\n", text) if p.strip()]
        assert len(paragraphs) >= 30
        # every boundary a window may prefer: paragraphs, sentences inside them, and words
        assert sum(len(re.findall(r"[.!?] [A-Z]", p)) >= 2 for p in paragraphs) >= 20
        assert len(paragraphs) == len({p.strip() for p in paragraphs})  # nothing padded twice


def test_unknown_article_names_the_choices():
    from tokenizer_core.samples import article_text

    with pytest.raises(ValueError, match="unknown article 'french'.*cutting_text"):
        article_text("french")
