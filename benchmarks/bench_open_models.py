"""Time today's open models' tokenizers beside tiktoken's GPT-2, measured in the same run.

    python benchmarks/bench_open_models.py [--repeats 5]

For GPT-2 (tiktoken, the peer) and each open model (Llama 3, Qwen 2.5, Mistral Nemo,
DeepSeek-V4; tokenizer_core/reference/open_models.py):
  - load: building the tokenizer from its file, as the app does once per server
    (registry.load_tokenizer: find the file in its package, check size and sha256, parse the
    ranks or the tokenizer.json); the file is in the OS cache after the first run, so this is
    the parse, not the disk;
  - encode: the 466 KB English corpus (samples.english_reference_corpus, Python's docs) counted
    as the Languages page counts (language_costs.token_counts: tiktoken's encode_ordinary ids;
    DeepSeek-V4's HF wrapper has no ids-only path, so it builds Token records there too) and
    into Token records with exact offsets (what the Playground draws);
    the tokenizer already loaded.
Runs are interleaved (each repeat times every tokenizer in turn), medians of --repeats, wall and
CPU seconds; ratios are each model's CPU time over GPT-2's from the same run. Prints Markdown.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tokenizer_core.interface import Tokenizer  # noqa: E402
from tokenizer_core.measure.language_costs import token_counts  # noqa: E402
from tokenizer_core.reference.open_models import OPEN_MODELS  # noqa: E402
from tokenizer_core.registry import load_tokenizer  # noqa: E402
from tokenizer_core.samples import english_reference_corpus  # noqa: E402

PEER = "gpt2"
LABELS = {PEER: "GPT-2 (tiktoken)", **{n: m.label for n, m in OPEN_MODELS.items()}}


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; CPU time is this process's own, so a shared machine
    stretches the wall time but much less the CPU time."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def measure_round(name: str, corpus: str) -> dict[str, tuple[float, float]]:
    """One cold load and one encode of each kind, for one tokenizer."""
    load = timed(lambda: load_tokenizer(name))
    tokenizer: Tokenizer = load_tokenizer(name)
    return {
        "load": load,
        "count": timed(lambda: token_counts(tokenizer, [corpus])),
        "records": timed(lambda: tokenizer.encode(corpus, disallowed_special=())),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    corpus = english_reference_corpus()
    size = len(corpus.encode("utf-8"))
    rounds: dict[str, list[dict[str, tuple[float, float]]]] = {n: [] for n in LABELS}
    for _ in range(args.repeats):  # interleaved, so a busy spell on the machine hits all alike
        for name in LABELS:
            rounds[name].append(measure_round(name, corpus))
    found = {
        name: {k: tuple(statistics.median(r[k][i] for r in runs) for i in (0, 1))
               for k in ("load", "count", "records")}
        for name, runs in rounds.items()
    }  # fmt: skip
    tokens = {name: token_counts(load_tokenizer(name), [corpus])[0] for name in LABELS}
    peer = found[PEER]
    print(f"English corpus: {size:,} bytes, {len(corpus):,} characters; medians of "
          f"{args.repeats} interleaved runs, wall / CPU seconds; ratio = CPU time / GPT-2's\n")
    print("| tokenizer | tokens | load (s) | ratio | count (s) | MB/s (CPU) | ratio "
          "| Token records (s) | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in found.items():
        cells = [LABELS[name], f"{tokens[name]:,}"]
        for key in ("load", "count", "records"):
            wall, cpu = r[key]
            cells.append(f"{wall:.2f} / {cpu:.2f}")
            if key == "count":
                cells.append(f"{size / cpu / 1e6:.1f}")
            cells.append(f"{cpu / peer[key][1]:.1f}×")
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
