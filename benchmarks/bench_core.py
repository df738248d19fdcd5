"""Time the tokenizer core against its peers, measured in the same run, and print a Markdown table.

    python benchmarks/bench_core.py [--repeats 5] [--skip-textbook]

Training: byte level, GPT-2's regex, 1,000 and 4,000 merges, on Python's own documentation
(`pydoc_data.topics`, ~465 KB of English, on every machine) and the built-in Chinese sample.
  pre-tokenize  corpus_from_text: regex chunks counted once (shared by ours and the textbook)
  ours          train_bpe on that corpus (the per-merge trace is always recorded)
  textbook      textbook_train on the same corpus (the oracle loop; run once, it is slow)
  HF            tokenizers' BpeTrainer end to end, ByteLevel pre-tokenizer (GPT-2 regex),
                vocab 256 + N; compared with our pre-tokenize + train
Encoding: our byte-level encoder over GPT-2's ranks (core:gpt2) vs tiktoken's gpt2, same ranks;
ids are checked identical. "cold" clears our per-chunk (and per-segment) cache before each run.

Times are medians of --repeats runs (wall clock, time.perf_counter). Ratios compare numbers from
this run only. HF tokenizers may use both cores; ours uses one.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import median_seconds  # noqa: E402  (benchmarks/timing.py, beside this file)
from tokenizers import Tokenizer, models, pre_tokenizers, trainers  # noqa: E402

from tokenizer_core import corpus_from_text, textbook_train, train_bpe
from tokenizer_core.registry import core_tokenizer, load_tokenizer
from tokenizer_core.samples import english_reference_corpus, sample_text


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


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--repeats", type=int, default=5)
    options.add_argument("--skip-textbook", action="store_true", help="the textbook loop takes minutes")
    args = options.parse_args()
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


if __name__ == "__main__":
    main()
