"""Time the Sequences page's two heavy jobs and print a Markdown table (medians, ratios).

    python benchmarks/bench_sequences.py [--repeats 5]

(a) Windows: a 1,000,000-character text (Python's documentation, english_reference_corpus,
    repeated and cut to exactly 1,000,000 characters) cut into windows of 512 tokens with a
    stride of 64 through tiktoken's GPT-2, end to end as the command line does it:
      - as a subprocess: `python -m tokenizer_core windows --tokenizer gpt2 --max-length 512
        --stride 64 FILE` (interpreter start, imports, reading, encoding, cutting, JSON out);
      - in-process: tokenizer_core.cli.main with the same arguments, its JSON written to memory.
    The peer, timed in the same run: tiktoken's bare `encode_ordinary` of the same text.
(b) Batching: the Batching tab's server work over 10,000 lines (the first 10,000 non-empty
    lines of the same 1,000,000 characters, the page's corpus bound): tokens per line (one
    `encode_ordinary` a line, as ui/sequences/batching.py does), the naive and bucketed plans,
    the line chart's in-order paddings, the heatmap's grid (9 batch sizes x 8 bucket widths at
    the defaults, which also feeds the line chart's bucketed line) and both plotly figures as
    JSON. The peer: tiktoken encoding the lines alone, one `encode_ordinary` a line (tiktoken's
    own `encode_ordinary_batch`, timed too, is slower here: its thread pool on 2 loaded CPUs).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timing import median_seconds  # noqa: E402  (benchmarks/timing.py, beside this file)

from tokenizer_core import cli  # noqa: E402
from tokenizer_core.measure.sequences_batches import (  # noqa: E402
    bucketed_batches,
    naive_batches,
    naive_padding,
    padding_grid,
)
from tokenizer_core.registry import load_tokenizer  # noqa: E402
from tokenizer_core.samples import english_reference_corpus  # noqa: E402
from ui.sequences.batching import BATCH_SIZES, BUCKET_WIDTHS  # noqa: E402
from ui.sequences.charts import waste_chart, waste_heatmap  # noqa: E402

TEXT_CHARS = 1_000_000
LINES = 10_000
MAX_LENGTH, STRIDE = 512, 64
SIZE, WIDTH = 32, 8  # the Batching tab's defaults


def megabyte_text() -> str:
    docs = english_reference_corpus()
    return (docs * (TEXT_CHARS // len(docs) + 1))[:TEXT_CHARS]


def windows_argv(path: str) -> list[str]:
    return ["windows", "--tokenizer", "gpt2", "--max-length", str(MAX_LENGTH),
            "--stride", str(STRIDE), path]


def in_process(path: str) -> bytes:
    """cli.main exactly as `python -m tokenizer_core` runs it, stdout caught in memory."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with contextlib.redirect_stdout(out):
        assert cli.main(windows_argv(path)) == 0
    out.flush()
    return out.buffer.getvalue()


def subprocess_run(path: str) -> bytes:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "tokenizer_core", *windows_argv(path)],
                          capture_output=True, check=True, cwd=ROOT, env=env)
    return done.stdout


def batching_work(encoding, lines: list[str]) -> None:
    """What batching_section computes and draws, without Streamlit's widgets."""
    lengths = [len(encoding.encode_ordinary(line)) for line in lines]
    naive = naive_batches(lengths, SIZE)
    bucketed_batches(lengths, SIZE, WIDTH)
    sizes, widths = sorted({*BATCH_SIZES, SIZE}), sorted({*BUCKET_WIDTHS, WIDTH})
    pads = padding_grid(lengths, sizes, widths)
    rows = []
    for s in BATCH_SIZES:
        in_order = naive_padding(lengths, s)
        rows.append(("in order", s, in_order / (in_order + naive.real)))
        rows.append((f"bucketed (width {WIDTH})", s, pads[s, WIDTH] / (pads[s, WIDTH] + naive.real)))
    waste_chart(rows).to_json()
    waste_heatmap(pads, naive.real, sizes, widths, (SIZE, WIDTH)).to_json()


def cpu_seconds(run, repeats: int) -> float:
    """Median CPU seconds (user + system) of run(), its child processes included: on a machine
    shared with other jobs, wall-clock time stretches and CPU time mostly does not."""
    def used() -> float:
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    times = []
    for _ in range(repeats):
        start = used()
        run()
        times.append(used() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats

    text = megabyte_text()
    encoding = load_tokenizer("gpt2").encoding  # tiktoken's own Encoding: the peer
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "megabyte.txt")
        Path(path).write_text(text, encoding="utf-8")
        import json

        result = json.loads(in_process(path))
        n_tokens = len(encoding.encode_ordinary(text))
        n_windows = len(result["windows"])
        assert result["windows"][-1]["ids"][-1] == encoding.encode_ordinary(text)[-1]
        assert json.loads(subprocess_run(path)) == result
        bare = median_seconds(lambda: encoding.encode_ordinary(text), repeats)
        inside = median_seconds(lambda: in_process(path), repeats)
        outside = median_seconds(lambda: subprocess_run(path), repeats)
        cpu_bare = cpu_seconds(lambda: encoding.encode_ordinary(text), repeats)
        cpu_inside = cpu_seconds(lambda: in_process(path), repeats)
        cpu_outside = cpu_seconds(lambda: subprocess_run(path), repeats)

    lines = [line for line in text.split("\n") if line.strip()][:LINES]
    assert len(lines) == LINES
    batch_bare = median_seconds(lambda: [encoding.encode_ordinary(line) for line in lines], repeats)
    pooled = median_seconds(lambda: encoding.encode_ordinary_batch(lines), repeats)
    batching = median_seconds(lambda: batching_work(encoding, lines), repeats)
    cpu_batch_bare = cpu_seconds(lambda: [encoding.encode_ordinary(line) for line in lines], repeats)
    cpu_batching = cpu_seconds(lambda: batching_work(encoding, lines), repeats)

    print(f"Sequences, medians of {repeats} runs (seconds); load {os.getloadavg()[0]:.2f} "
          f"(1-minute average at the end; CPU includes child processes)\n")
    print("| job | ours: wall / CPU s | tiktoken alone: wall / CPU s | ours / tiktoken (CPU) |")
    print("|---|---:|---:|---:|")
    jobs = [
        (f"1,000,000 characters ({n_tokens:,} tokens) -> {n_windows:,} windows of 512, stride 64: "
         "`windows` as a subprocess", outside, cpu_outside, bare, cpu_bare),
        ("the same, `cli.main` in-process", inside, cpu_inside, bare, cpu_bare),
        (f"Batching tab over {LINES:,} lines: token counts, plans, both charts", batching,
         cpu_batching, batch_bare, cpu_batch_bare),
    ]
    for job, wall, cpu, peer_wall, peer_cpu in jobs:
        print(f"| {job} | {wall:.3f} / {cpu:.3f} | {peer_wall:.3f} / {peer_cpu:.3f} | "
              f"{wall / peer_wall:.1f}x ({cpu / peer_cpu:.1f}x) |")
    print(f"\n(tiktoken's encode_ordinary_batch of the same lines: {pooled:.3f} s)")


if __name__ == "__main__":
    main()
