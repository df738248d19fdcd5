"""Time the tokenizer core against its peers, measured in the same run, and print a Markdown table.

    python benchmarks/bench_core.py [--repeats 5] [--skip-textbook] [--goals-only]
                                    [--textbook-chinese]
    python benchmarks/bench_core.py --core-training [--repeats 5]

Training: byte level, GPT-2's regex, 1,000 and 4,000 merges, on Python's own documentation
(`pydoc_data.topics`, ~465 KB of English, on every machine) and the built-in Chinese sample.
  pre-tokenize  corpus_from_text: regex chunks counted once (shared by ours and the textbook)
  ours          train_bpe on that corpus (the per-merge trace is always recorded)
  textbook      textbook_train on the same corpus (the oracle loop; run once, it is slow)
  HF            tokenizers' BpeTrainer end to end, ByteLevel pre-tokenizer (GPT-2 regex),
                vocab 256 + N; compared with our pre-tokenize + train
Encoding: our byte-level encoder over GPT-2's ranks (core:gpt2) vs tiktoken's gpt2, same ranks;
ids are checked identical. "cold" clears our per-chunk (and per-segment) cache before each run.

Held-out 1 MB texts (issue 15's goals, issue 22's Core goal): text the project neither ships
nor trains anything on, read from Debian packages installed on this machine (held_out.py says
which); rows say "skipped" where they are missing.
  core          (--core-training prints only this) byte-level training, 4,000 merges, from the
                text to the merges on every held-out text: ours (corpus_from_text + train_bpe)
                against HF's BpeTrainer on its default threads (in this process) and on one
                thread (a child process started with RAYON_NUM_THREADS=1); CPU time of the
                process (every thread) and wall time, the three taking turns in each repeat
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
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from held_out import HELD_OUT, catalog_text, english_held_out  # noqa: E402  (beside this file)
from timing import median_seconds  # noqa: E402  (benchmarks/timing.py, beside this file)
from tokenizers import Tokenizer, models, pre_tokenizers, trainers  # noqa: E402

from tokenizer_core import corpus_from_text, textbook_train, train_bpe  # noqa: E402
from tokenizer_core.pretokenize import GPT2_PATTERN, compile_pattern  # noqa: E402
from tokenizer_core.registry import core_tokenizer, load_tokenizer  # noqa: E402
from tokenizer_core.samples import corpus_text, english_reference_corpus, sample_text  # noqa: E402
from tokenizer_core.trainers.corpus import corpus_from_counts  # noqa: E402


def chinese_held_out() -> str | None:
    """The zh_CN catalogs' text the goal-2 and goal-3 rows use (held_out.py says which)."""
    return catalog_text("zh_CN")


def textbook_end_to_end(text: str, merges: int) -> list:
    """The plain way from text to merges: regex chunks counted in a Python loop, then the
    textbook loop (the project's own pre-tokenizer is faster; this side must stay plain)."""
    counts: dict[str, int] = {}
    for chunk in compile_pattern(GPT2_PATTERN).findall(text):
        counts[chunk] = counts.get(chunk, 0) + 1
    return textbook_train(corpus_from_counts(counts, "byte"), merges)[0]


def hugging_face(text: str, merges: int) -> int:
    """HF's BpeTrainer from the text, GPT-2's regex (ByteLevel), 256 + merges; its vocab size."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=256 + merges, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator([text], trainer)
    return tokenizer.get_vocab_size()


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
    core_training_rows(repeats)
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


def _one_run(run: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds of this process, every thread of it counted; wall seconds) of one run."""
    cpu, wall = time.process_time(), time.perf_counter()
    run()
    return time.process_time() - cpu, time.perf_counter() - wall


def hf_one_thread(name: str) -> tuple[float, float]:
    """One HF training in a child process held to one thread: RAYON_NUM_THREADS is read when
    its thread pool starts, so it must be set before the process first trains. The child
    times the training itself (not its start or its reading of the text)."""
    env = {**os.environ, "RAYON_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
    child = subprocess.run([sys.executable, __file__, "--hf-child", name], env=env,
                           capture_output=True, text=True, check=True)
    cpu, wall = map(float, child.stdout.split())
    return cpu, wall


def core_training_rows(repeats: int, merges: int = 4000) -> None:
    """Issue 22's Core goal: byte-level training from the text to the merges (ours: pre-tokenize
    + train_bpe; HF: train_from_iterator, which pre-tokenizes and counts inside), GPT-2's regex
    on both sides, same vocabulary size, on every held-out text. The three runs take turns in
    each repeat, so they meet the same load; medians of CPU and of wall seconds."""
    print(f"Core goal (#22): byte-level training, {merges:,} merges, GPT-2 regex, from the text "
          "to the merges; CPU / wall seconds, medians; HF in this process on its default threads "
          f"({os.cpu_count()} CPUs) and in a child process on one thread")
    print()
    print("| text | ours | HF, default threads | HF, one thread | ours / HF, CPU | ours / HF, wall "
          "| ours / HF one thread, CPU | wall | load average |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, load in HELD_OUT.items():
        text = load()
        if text is None:
            print(f"| {name}: not installed here, skipped | | | | | | | | |")
            continue

        def ours() -> None:
            learned = train_bpe(corpus_from_text(text, "byte"), merges).merges
            assert len(learned) == merges, "ours stopped early"

        def hf() -> None:
            assert hugging_face(text, merges) == 256 + merges, "HF learned another size"

        ours(), hf()  # warm: first allocations, HF's thread pool
        before = os.getloadavg()[0]
        runs: dict[str, list[tuple[float, float]]] = {"ours": [], "hf": [], "hf1": []}
        for _ in range(repeats):
            runs["ours"].append(_one_run(ours))
            runs["hf"].append(_one_run(hf))
            runs["hf1"].append(hf_one_thread(name))
        cpu = {k: statistics.median(c for c, _ in v) for k, v in runs.items()}
        wall = {k: statistics.median(w for _, w in v) for k, v in runs.items()}
        cells = " | ".join(f"{cpu[k]:.2f} / {wall[k]:.2f}" for k in runs)
        print(f"| {name} | {cells} | {cpu['ours'] / cpu['hf']:.2f}x | {wall['ours'] / wall['hf']:.2f}x "
              f"| {cpu['ours'] / cpu['hf1']:.2f}x | {wall['ours'] / wall['hf1']:.2f}x "
              f"| {before:.1f} to {os.getloadavg()[0]:.1f} |", flush=True)
    print()


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--repeats", type=int, default=5)
    options.add_argument("--skip-textbook", action="store_true", help="the textbook loop takes minutes")
    options.add_argument("--goals-only", action="store_true",
                         help="only the held-out 1 MB rows (issue 15's goals)")
    options.add_argument("--textbook-chinese", action="store_true",
                         help="goal 2 on the Chinese 1 MB too (the textbook loop takes ~7 minutes)")
    options.add_argument("--core-training", action="store_true",
                         help="only the Core goal's training table (issue 22)")
    options.add_argument("--hf-child", metavar="TEXT", help=argparse.SUPPRESS)
    args = options.parse_args()
    if args.hf_child:  # the one-thread HF run of hf_one_thread, in its own process
        text = HELD_OUT[args.hf_child]()
        assert text is not None
        cpu, wall = _one_run(lambda: hugging_face(text, 4000))
        print(cpu, wall)
        return
    if args.core_training:
        print(f"Python {platform.python_version()}, nice {os.nice(0)}; load average "
              f"{os.getloadavg()[0]:.1f} at the start; median of {args.repeats} runs")
        print()
        core_training_rows(args.repeats)
        return
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
