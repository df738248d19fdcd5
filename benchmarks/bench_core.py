"""Time the tokenizer core against its peers, measured in the same run, and print a Markdown table.

    python benchmarks/bench_core.py [--repeats 5] [--skip-textbook] [--goals-only]
                                    [--textbook-chinese]

Training: byte level, GPT-2's regex, 1,000 and 4,000 merges, on Python's own documentation
(`pydoc_data.topics`, ~465 KB of English, on every machine) and the built-in Chinese sample.
  pre-tokenize  corpus_from_text: regex chunks counted once (shared by ours and the textbook)
  ours          train_bpe on that corpus (the per-merge trace is always recorded)
  textbook      textbook_train on the same corpus (the oracle loop; run once, it is slow)
  HF            tokenizers' BpeTrainer end to end, ByteLevel pre-tokenizer (GPT-2 regex),
                vocab 256 + N; compared with our pre-tokenize + train
Encoding: our byte-level encoder over GPT-2's ranks (core:gpt2) vs tiktoken's gpt2, same ranks;
ids are checked identical. "cold" clears our per-chunk (and per-segment) cache before each run.

Held-out 1 MB texts (issue 15's goals): text the project neither ships nor trains anything
on. Not in the repository: both are read from Debian packages installed on this machine, and
their rows say "skipped" where they are missing:
  Chinese       the Simplified Chinese translations (msgstr) in /usr/share/locale/zh_CN/LC_MESSAGES/
                *.mo (git, coreutils, PostgreSQL, bash, apt, ... 81 catalogs here): each distinct
                translation that holds a CJK character once, catalogs in file-name order, entries
                in catalog order, joined by newlines, the first 1,000,000 bytes (whole entries).
                Interface strings, not prose: short lines, many `%s`, some Latin words.
  English       Vim's help files, /usr/share/vim/vim90/doc/*.txt in file-name order, the first
                1,000,000 bytes (whole lines): English prose with commands and tables.
  goal 1        byte-level training, 4,000 merges: ours end to end (pre-tokenize + train) / HF
  goal 2        English 1 MB (Chinese too with --textbook-chinese), 1,000 merges, end to end
                on both sides: the textbook side pre-tokenizes the plain way (regex findall,
                a dict counted in a Python loop) and runs textbook_train; ours
                is corpus_from_text + train_bpe. Merges are checked equal. Also as CPU time of
                this process (time.process_time): both sides are one Python thread, so on a
                shared machine that ratio is the steadier one.
  goal 3        cold encoding (caches cleared before each run) / tiktoken, Chinese at 3.4 KB
                (the built-in sample), 64 KB (the built-in corpus) and 1 MB

Times are medians of --repeats runs (wall clock, time.perf_counter). Ratios compare numbers from
this run only. HF tokenizers may use both cores; ours uses one.
"""

from __future__ import annotations

import argparse
import gettext
import os
import platform
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import median_seconds  # noqa: E402  (benchmarks/timing.py, beside this file)
from tokenizers import Tokenizer, models, pre_tokenizers, trainers  # noqa: E402

from tokenizer_core import corpus_from_text, textbook_train, train_bpe  # noqa: E402
from tokenizer_core.pretokenize import GPT2_PATTERN, compile_pattern  # noqa: E402
from tokenizer_core.registry import core_tokenizer, load_tokenizer  # noqa: E402
from tokenizer_core.samples import corpus_text, english_reference_corpus, sample_text  # noqa: E402
from tokenizer_core.trainers.corpus import corpus_from_counts  # noqa: E402

HELD_OUT_BYTES = 1_000_000
ZH_CATALOGS = Path("/usr/share/locale/zh_CN/LC_MESSAGES")
VIM_HELP = Path("/usr/share/vim/vim90/doc")


def _first_bytes(parts: list[str], limit: int = HELD_OUT_BYTES) -> str:
    """Whole parts joined by newlines, as many as fit in `limit` bytes."""
    kept, size = [], 0
    for part in parts:
        size += len(part.encode()) + 1
        if size > limit:
            break
        kept.append(part)
    return "\n".join(kept)


def chinese_held_out() -> str | None:
    """~1 MB of Chinese from the zh_CN message catalogs installed here (see the docstring)."""
    cjk = re.compile("[\u4e00-\u9fff]")
    entries: dict[str, None] = {}
    for path in sorted(ZH_CATALOGS.glob("*.mo")):
        with path.open("rb") as file:
            catalog = gettext.GNUTranslations(file)._catalog  # type: ignore[attr-defined]
        for msgid, text in catalog.items():
            if msgid and isinstance(text, str) and cjk.search(text):
                entries.setdefault(text, None)
    text = _first_bytes(list(entries))
    return text if len(text.encode()) > HELD_OUT_BYTES * 0.9 else None


def english_held_out() -> str | None:
    """~1 MB of English: Vim's help files installed here (see the docstring)."""
    lines: list[str] = []
    for path in sorted(VIM_HELP.glob("*.txt")):
        lines += path.read_text("utf-8", errors="replace").split("\n")
    text = _first_bytes(lines)
    return text if len(text.encode()) > HELD_OUT_BYTES * 0.9 else None


def textbook_end_to_end(text: str, merges: int) -> list:
    """The plain way from text to merges: regex chunks counted in a Python loop, then the
    textbook loop (the project's own pre-tokenizer is faster; this side must stay plain)."""
    counts: dict[str, int] = {}
    for chunk in compile_pattern(GPT2_PATTERN).findall(text):
        counts[chunk] = counts.get(chunk, 0) + 1
    return textbook_train(corpus_from_counts(counts, "byte"), merges)[0]


def hugging_face(text: str, merges: int) -> None:
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=256 + merges, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator([text], trainer)


def training_rows(name: str, text: str, repeats: int, skip_textbook: bool) -> list[str]:
    """Pre-tokenizing (regex + counting) is the same work for ours and the textbook loop, so
    the loop-vs-loop ratio leaves it out; the HF comparison is end to end (HF cannot split it)."""
    rows = []
    corpus = corpus_from_text(text, "byte")
    t_pre = median_seconds(lambda: corpus_from_text(text, "byte"), repeats)
    for merges in (1000, 4000):
        learned = train_bpe(corpus, merges).merges
        t_ours = median_seconds(lambda: train_bpe(corpus, merges), repeats)
        t_hf = median_seconds(lambda: hugging_face(text, merges), repeats)
        if skip_textbook:
            t_book, ratio_book = float("nan"), "-"
        else:
            start = time.perf_counter()
            book = textbook_train(corpus, merges)[0]
            t_book = time.perf_counter() - start
            assert book == learned, "fast trainer disagrees with the textbook loop"
            ratio_book = f"{t_book / t_ours:.0f}x"
        rows.append(
            f"| {name}, {merges:,} merges ({len(learned):,} learned) | {t_pre:.3f} | {t_ours:.3f} "
            f"| {t_book:.2f} | {ratio_book} | {t_pre + t_ours:.3f} | {t_hf:.3f} "
            f"| {(t_pre + t_ours) / t_hf:.2f}x |"
        )
    return rows


def encoding_rows(name: str, text: str, repeats: int) -> list[str]:
    reference = load_tokenizer("gpt2").encoding  # type: ignore[attr-defined]
    mine = core_tokenizer("gpt2")
    assert mine.encode_ordinary_ids(text) == reference.encode_ordinary(text), "ids differ"

    def cold() -> None:
        mine.clear_cache()
        mine.encode_ordinary_ids(text)

    t_tik = median_seconds(lambda: reference.encode_ordinary(text), repeats)
    t_cold = median_seconds(cold, repeats)
    t_warm = median_seconds(lambda: mine.encode_ordinary_ids(text), repeats)
    return [
        f"| {name} ({len(text.encode()):,} bytes) | {t_cold:.4f} | {t_warm:.4f} | {t_tik:.4f} "
        f"| {t_cold / t_tik:.2f}x | {t_warm / t_tik:.2f}x |"
    ]


def median_cpu_seconds(run: Callable[[], object], repeats: int) -> float:
    """Median CPU seconds of this process for `run()`: on a shared machine, other processes'
    load stretches wall-clock time but not this (both sides of goal 2 use one thread)."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def goal_rows(english: str | None, chinese: str | None, repeats: int,
              skip_textbook: bool, textbook_chinese: bool = False) -> None:
    """The three issue-15 goals on the held-out 1 MB texts, each against its peer."""
    print("Goal 1: byte-level training, 4,000 merges, GPT-2 regex, end to end (seconds)")
    print()
    print("| text | ours: pre-tokenize | ours: train | ours end to end | HF end to end "
          "| ours / HF |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, text in (("Chinese 1 MB", chinese), ("English 1 MB", english)):
        if text is None:
            print(f"| {name}: not installed here, skipped | | | | | |")
            continue
        corpus = corpus_from_text(text, "byte")
        t_pre = median_seconds(lambda: corpus_from_text(text, "byte"), repeats)
        t_train = median_seconds(lambda: train_bpe(corpus, 4000), repeats)
        t_hf = median_seconds(lambda: hugging_face(text, 4000), repeats)
        print(f"| {name} | {t_pre:.3f} | {t_train:.3f} | {t_pre + t_train:.3f} | {t_hf:.3f} "
              f"| {(t_pre + t_train) / t_hf:.2f}x |", flush=True)
    print()
    print("Goal 2: against the textbook loop, 1,000 merges, pre-tokenization counted on both "
          "sides (seconds; the textbook side runs once)")
    print()
    print("| text | textbook end to end | ours end to end | textbook / ours "
          "| textbook, CPU | ours, CPU | textbook / ours, CPU |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    texts_2 = [("English 1 MB", english)] + ([("Chinese 1 MB", chinese)] if textbook_chinese else [])
    for name, text in texts_2:
        if text is None or skip_textbook:
            print(f"| {name}: skipped | | | | | | |")
            continue

        def ours() -> None:
            train_bpe(corpus_from_text(text, "byte"), 1000)

        t_ours = median_seconds(ours, repeats)
        c_ours = median_cpu_seconds(ours, repeats)
        start, cpu = time.perf_counter(), time.process_time()
        book = textbook_end_to_end(text, 1000)
        t_book, c_book = time.perf_counter() - start, time.process_time() - cpu
        assert book == train_bpe(corpus_from_text(text, "byte"), 1000).merges, "merges differ"
        print(f"| {name} | {t_book:.2f} | {t_ours:.3f} | {t_book / t_ours:.0f}x | {c_book:.2f} "
              f"| {c_ours:.3f} | {c_book / c_ours:.0f}x |", flush=True)
    print()
    print("Goal 3: cold encoding of Chinese with GPT-2's ranks, ids identical to tiktoken's "
          "(seconds)")
    print()
    print("| text | ours, cold cache | ours, warm cache | tiktoken | cold / tiktoken "
          "| warm / tiktoken |")
    print("|---|---:|---:|---:|---:|---:|")
    texts = [("Chinese sample", sample_text("chinese")), ("Chinese corpus", corpus_text("chinese"))]
    if chinese is not None:
        texts.append(("Chinese held-out", chinese))
    for name, text in texts:
        for row in encoding_rows(name, text, repeats):
            print(row, flush=True)


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--repeats", type=int, default=5)
    options.add_argument("--skip-textbook", action="store_true", help="the textbook loop takes minutes")
    options.add_argument("--goals-only", action="store_true",
                         help="only the held-out 1 MB rows (issue 15's goals)")
    options.add_argument("--textbook-chinese", action="store_true",
                         help="goal 2 on the Chinese 1 MB too (the textbook loop takes ~7 minutes)")
    args = options.parse_args()
    held_english, held_chinese = english_held_out(), chinese_held_out()
    if args.goals_only:
        _print_machine(args.repeats, held_english, held_chinese)
        goal_rows(held_english, held_chinese, args.repeats, args.skip_textbook,
                  args.textbook_chinese)
        return
    english = english_reference_corpus()
    chinese = sample_text("chinese")
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"median of {args.repeats} runs; English {len(english.encode()):,} bytes, "
          f"Chinese {len(chinese.encode()):,} bytes")
    print()
    print("Training, byte level, GPT-2 regex (seconds; trace on)")
    print()
    print("| corpus | pre-tokenize | ours: train | textbook: train | ours vs textbook "
          "| ours end to end | HF end to end | ours / HF |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in training_rows("English", english, args.repeats, args.skip_textbook):
        print(row, flush=True)
    for row in training_rows("Chinese", chinese, args.repeats, args.skip_textbook):
        print(row, flush=True)
    print()
    print("Encoding with GPT-2's ranks, ids identical to tiktoken's (seconds)")
    print()
    print("| text | ours, cold cache | ours, warm cache | tiktoken | cold / tiktoken "
          "| warm / tiktoken |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, text in (("English", english), ("Chinese", chinese)):
        for row in encoding_rows(name, text, args.repeats):
            print(row, flush=True)
    print()
    _print_machine(args.repeats, held_english, held_chinese)
    goal_rows(held_english, held_chinese, args.repeats, args.skip_textbook,
                  args.textbook_chinese)


def _print_machine(repeats: int, english: str | None, chinese: str | None) -> None:
    sizes = ", ".join(f"{name} {len(text.encode()):,} bytes" for name, text
                      in (("English", english), ("Chinese", chinese)) if text is not None)
    print(f"Held-out texts: {sizes or 'none installed'}; load average "
          f"{os.getloadavg()[0]:.1f} at the start; median of {repeats} runs")
    print()


if __name__ == "__main__":
    main()
