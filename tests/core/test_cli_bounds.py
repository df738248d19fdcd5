"""The command line at and past its bounds: memory that holds, and one `error:` line, never a
traceback (issue 23, item 6).

Memory is measured, not time: each run's peak resident size comes from
resource.getrusage(RUSAGE_CHILDREN) in a small wrapper process whose only child is the command,
so nothing else the test process ran is counted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tokenizer_core import bounds, samples

from .test_cli import ROOT, run

# Runs the command with stdin and stdout on files (a 100 MB answer never sits in a pipe or in
# this process) and prints its exit code and peak memory.
PEAK = """
import json, resource, subprocess, sys
with open(sys.argv[1], "rb") as stdin, open(sys.argv[2], "wb") as stdout:
    done = subprocess.run([sys.executable, "-m", "tokenizer_core", *sys.argv[3:]],
                          stdin=stdin, stdout=stdout)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps({"returncode": done.returncode, "peak": peak}))
"""
MB = 1 << 20


def run_measured(tmp_path: Path, stdin: Path, *args: str) -> tuple[int, int, str, Path]:
    """(exit code, peak bytes, stderr, stdout file) of one command."""
    out = tmp_path / "stdout.json"
    done = subprocess.run([sys.executable, "-c", PEAK, str(stdin), str(out), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=True)
    report = json.loads(done.stdout)
    return report["returncode"], report["peak"], done.stderr, out


def text_of_bytes(size: int) -> str:
    """English prose and code, Chinese and emoji (the built-in corpora) repeated to exactly
    `size` UTF-8 bytes: many tokens a byte where the scripts change."""
    mix = "\n".join([samples.english_reference_corpus()[:200_000],
                     *(samples.corpus_text(name) for name in ("chinese", "code", "emoji"))])
    data = (mix * (size // len(mix.encode("utf-8")) + 1)).encode("utf-8")[:size]
    text = data.decode("utf-8", errors="ignore")  # the last character, if cut, is left out
    return text + " " * (size - len(text.encode("utf-8")))


def one_error_line(stderr: str | bytes) -> str:
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    assert "Traceback" not in text, text
    lines = text.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), text
    return lines[0]


# --- deep JSON ----------------------------------------------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("command", [
    ["train", "--merges", "3", "--counts", "{file}"],
    ["train", "--algorithm", "unigram", "--vocab-size", "10", "--counts", "{file}"],
    ["encode", "--tokenizer", "model", "--model", "{file}", "-"],
    ["vocab", "--tokenizer", "model", "--model", "{file}"],
    ["export", "--model", "{file}", "--output", "{out}"],
])
def test_deeply_nested_json_is_one_error_line(tmp_path, command):
    path = tmp_path / "deep.json"
    path.write_text('{"a": ' + DEEP + "}", encoding="utf-8")
    args = [a.format(file=path, out=tmp_path / "tokenizer.json") for a in command]
    result = run(*args, stdin=b"low lower")
    assert result.returncode == 1 and result.stdout == b""
    assert "nested too deeply" in one_error_line(result.stderr)


# --- out of memory ------------------------------------------------------------------------------

# The command imported first, then its address space capped a little above what it holds now,
# so the cap falls inside the encoding, not inside an import.
CAPPED = """
import resource, sys
from tokenizer_core import cli
with open("/proc/self/status") as status:
    size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (size + 40 * 2**20, resource.RLIM_INFINITY))
sys.exit(cli.main(sys.argv[1:]))
"""


def test_running_out_of_memory_is_one_error_line(tmp_path):
    path = tmp_path / "text.txt"
    path.write_text(text_of_bytes(1_000_000), encoding="utf-8")
    result = subprocess.run([sys.executable, "-c", CAPPED, "encode", "--tokenizer", "core:gpt2",
                             str(path)], cwd=ROOT, capture_output=True, timeout=300)
    assert result.returncode == 1
    assert "ran out of memory in encode" in one_error_line(result.stderr)


# --- encode at its bound --------------------------------------------------------------------------


def test_text_over_the_encode_bound_is_refused_before_encoding(tmp_path):
    path = tmp_path / "text.txt"
    path.write_bytes(b"a" * (bounds.MAX_ENCODE_BYTES + 1))
    for command in (["encode", "--tokenizer", "gpt2"],
                    ["windows", "--tokenizer", "gpt2", "--max-length", "8"],
                    ["pretokenize", "--pattern", "gpt2"]):
        result = run(*command, str(path))
        assert result.returncode == 1
        assert f"larger than the bound of {bounds.MAX_ENCODE_BYTES:,} bytes" in one_error_line(
            result.stderr)


@pytest.mark.slow
def test_encode_at_its_bound_holds_in_memory_and_gives_tiktokens_ids(tmp_path):
    from tests.shared import tiktoken_encoding

    text = text_of_bytes(bounds.MAX_ENCODE_BYTES)
    path = tmp_path / "text.txt"
    path.write_text(text, encoding="utf-8")
    returncode, peak, stderr, out = run_measured(tmp_path, path, "encode", "--tokenizer", "gpt2")
    assert returncode == 0, stderr
    # written as one list of dicts and one json.dumps string this text took 750 MB; streamed,
    # the tokens themselves are most of its 250 MB
    assert peak < 512 * MB, f"peak {peak / MB:.0f} MB"
    tokens = json.loads(out.read_bytes())["tokens"]
    assert [t["id"] for t in tokens] == tiktoken_encoding("gpt2").encode(text)


# --- windows at their bound -----------------------------------------------------------------------


def test_windows_that_would_write_billions_of_ids_are_refused_in_one_line(tmp_path):
    path = tmp_path / "text.txt"
    path.write_text(text_of_bytes(1_000_000), encoding="utf-8")
    returncode, peak, stderr, out = run_measured(
        tmp_path, path, "windows", "--tokenizer", "gpt2", "--max-length", "8192", "--stride", "8191")
    assert returncode == 1 and out.read_bytes() == b""
    line = one_error_line(stderr)
    assert "token ids in all" in line and f"bound is {bounds.MAX_WINDOW_IDS:,}" in line
    assert peak < 1024 * MB, f"peak {peak / MB:.0f} MB"


def fed_ids(n: int, max_length: int, stride: int) -> int:
    from tokenizer_core.measure.sequences_windows import sliding_ranges

    return sum(stop - start for start, stop in sliding_ranges(n, max_length, stride))


@pytest.mark.parametrize("boundaries", ["none", "paragraph"])
def test_windows_at_the_ids_bound_stream_in_bounded_memory(tmp_path, boundaries):
    from tests.shared import tiktoken_encoding

    text = text_of_bytes(100_000)
    ids = tiktoken_encoding("gpt2").encode(text)
    # windows of 8,192 tokens, each the fewest tokens further on that keeps all of them within
    # the bound: one token less would be refused
    max_length = 8192
    step = next(s for s in range(1, max_length)
                if fed_ids(len(ids), max_length, max_length - s) <= bounds.MAX_WINDOW_IDS)
    path = tmp_path / "text.txt"
    path.write_text(text, encoding="utf-8")
    window_args = ("windows", "--tokenizer", "gpt2", "--max-length", str(max_length),
                   "--boundaries", boundaries)
    returncode, peak, stderr, out = run_measured(
        tmp_path, path, *window_args, "--stride", str(max_length - step))
    assert returncode == 0, stderr
    assert peak < 1024 * MB, f"peak {peak / MB:.0f} MB"
    windows = json.loads(out.read_bytes())["windows"]
    assert sum(len(w["ids"]) for w in windows) <= bounds.MAX_WINDOW_IDS
    if boundaries == "none":
        # window k = ids[k*step : k*step + N], up to the one that reaches the last token
        starts = range(0, len(ids) - max_length + step, step)
        assert [w["ids"] for w in windows] == [ids[a : a + max_length] for a in starts]
        over = run(*window_args, "--stride", str(max_length - step + 1), str(path))
        assert over.returncode == 1 and "token ids in all" in one_error_line(over.stderr)


def test_the_count_of_sliding_ids_is_what_the_windows_hold():
    from tokenizer_core.cli import sliding_ids_fed
    from tokenizer_core.measure.sequences_windows import sliding_ranges

    for n in (0, 1, 7, 8, 9, 100, 1001):
        for max_length, stride in ((1, 0), (8, 0), (8, 7), (8, 3), (2000, 1999)):
            ranges = sliding_ranges(n, max_length, stride)
            assert sliding_ids_fed(n, max_length, stride) == (
                len(ranges), sum(b - a for a, b in ranges)), (n, max_length, stride)


# --- the JSON written in pieces is the JSON -------------------------------------------------------


@pytest.mark.parametrize("rows", [[], [1], [{"text": "é 你", "id": 3}] * 5,
                                  [list(range(60_000))] * 40])
def test_streamed_json_is_json_dumps_of_the_whole(rows):
    from tokenizer_core.json_output import JsonStream, json_chunks

    head = {"tokenizer": "gpt2", "note": "ünïcode"}
    streamed = "".join(json_chunks(JsonStream(head, "tokens", iter(rows))))
    assert streamed == json.dumps({**head, "tokens": rows}, ensure_ascii=False)
