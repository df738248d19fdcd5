"""Time the Languages page's work and print its premium table for the built-in pairs (Markdown).

    python benchmarks/bench_languages.py [--repeats 5] [--skip-bounds]

For each tokenizer the page offers: the premium of Chinese over English on
data/parallel/en_zh.tsv (every sentence tokenized on its own, as the page does), and the time
to compute it with the tokenizer already loaded (median of --repeats runs; our own encoders'
per-chunk caches are cleared before each run, so the times are cold for them). Also the byte
ruler's HTML (the drawing bound, four tokenizers) and the grow-a-vocabulary curve on the
built-in texts. Our tokenizers are trained exactly as the app trains them (ui/common/catalog.py,
ui/languages/data.py).

Then the page at its bounds, through Streamlit's AppTest (the whole page script: parsing the
upload, counting, the premiums, charts and tables), with the five tokenizers the page offers
(MAX_PAGE_TOKENIZERS) loaded and the kept token counts cleared before each run:
  - 20,000 short pairs (MAX_PARALLEL_PAIRS): each pair glues the first, middle and last third of
    three built-in pairs (a seeded sample of the 50**3 combinations), so every sentence is new
    and our encoders' chunk caches do not flatter them; 0.96 MB, 1.36 MB of UTF-8;
  - long sentences: built-in pairs joined into English sentences of up to 1,000 characters
    (MAX_FIELD_CHARS) with their Chinese, as many as the file's 1,000,000 characters allow
    (800 pairs; 20,000 pairs of long sentences cannot be: the file bound is 50 characters a pair);
  - grow a vocabulary on 200,000 Chinese characters (MAX_GROW_CHARS) pasted as your own text,
    70% trained, 30% held out: clauses of data/corpora/chinese.txt, each glued from two halves.
Each is timed on its first run (counting, with the progress status) and on a rerun (counts kept).
The peer: the same counts made the way the page made them before (len(encode(...)), a Token
record per token), timed once, and the figure JSON the page sends for the per-pair chart.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402

from timing import median_seconds  # noqa: E402  (benchmarks/timing.py, beside this file)

from tokenizer_core import bpe_model, corpus_from_text, train_bpe
from tokenizer_core.measure.byte_ruler import render_ruler
from tokenizer_core.measure.language_costs import premium, token_counts, utf8_bytes
from tokenizer_core.measure.vocab_growth import grow_curve
from tokenizer_core.registry import BILINGUAL_MERGES, OUR_MERGES, load_tokenizer
from tokenizer_core.samples import (  # noqa: E402
    MAX_FIELD_CHARS,
    MAX_PARALLEL_CHARS,
    MAX_PARALLEL_PAIRS,
    corpus_text,
    english_reference_corpus,
    parallel_pairs,
    parse_parallel,
    sample_text,
)
from ui.languages import parallel  # noqa: E402
from ui.languages.data import NAMES, SHORT, TRAINED_ON  # noqa: E402
from ui.languages.limits import (  # noqa: E402
    MAX_GROW_CHARS,
    MAX_PARALLEL_UPLOAD_BYTES,
    MAX_RULER_CHARS,
)

REPO = Path(__file__).resolve().parent.parent
SEED = 15


def _thirds(items: list[str]) -> tuple[list[str], list[str], list[str]]:
    a, b = len(items) // 3, 2 * len(items) // 3
    return items[:a], items[a:b], items[b:]


def short_pairs_file(n: int = MAX_PARALLEL_PAIRS) -> str:
    """n pairs, each the first, middle and last third of three built-in pairs (words for
    English, characters for Chinese): every sentence new, as long as the built-in ones."""
    pairs = parallel_pairs()
    en = [_thirds(p.en.split(" ")) for p in pairs]
    zh = [_thirds(list(p.zh)) for p in pairs]
    k = len(pairs)
    lines = ["en\tzh"]
    for code in random.Random(SEED).sample(range(k**3), n):
        a, b, c = code % k, code // k % k, code // k // k
        lines.append(" ".join(en[a][0] + en[b][1] + en[c][2]) + "\t"
                     + "".join(zh[a][0] + zh[b][1] + zh[c][2]))
    return "\n".join(lines) + "\n"


def long_pairs_file() -> str:
    """Pairs of long sentences: built-in pairs joined while the English stays within
    MAX_FIELD_CHARS, as many as the file's character and upload byte bounds allow."""
    pairs, rng = parallel_pairs(), random.Random(SEED)
    lines, chars, size = ["en\tzh"], 6, 6
    while True:
        en: list[str] = []
        zh: list[str] = []
        while True:
            pair = pairs[rng.randrange(len(pairs))]
            if len(" ".join([*en, pair.en])) > MAX_FIELD_CHARS:
                break
            en.append(pair.en)
            zh.append(pair.zh)
        line = " ".join(en) + "\t" + "".join(zh)
        if (chars + len(line) + 1 > MAX_PARALLEL_CHARS
                or size + len(line.encode()) + 1 > MAX_PARALLEL_UPLOAD_BYTES):
            return "\n".join(lines) + "\n"
        lines.append(line)
        chars, size = chars + len(line) + 1, size + len(line.encode()) + 1


def chinese_text(n: int = MAX_GROW_CHARS) -> str:
    """n characters of Chinese: clauses of the long built-in corpus, each glued from the first
    half of one and the second half of another, so the text is not one corpus repeated."""
    clauses = [c for c in re.findall(r"[^，。！？；：\n]+[，。！？；：]?", corpus_text("chinese"))
               if len(c) > 3]
    rng, out, size = random.Random(SEED), [], 0
    while size < n:
        a, b = rng.choice(clauses), rng.choice(clauses)
        out.append(a[: len(a) // 2] + b[len(b) // 2:] + ("\n" if rng.random() < 0.05 else ""))
        size += len(out[-1])
    return "".join(out)[:n]


def tokenizers() -> dict[str, tuple[object, float]]:
    """name -> (tokenizer, seconds to load or train it)."""
    found = {}
    for name in ("gpt2", "cl100k_base", "o200k_base"):
        start = time.perf_counter()
        found[name] = (load_tokenizer(name), time.perf_counter() - start)
    start = time.perf_counter()
    english = train_bpe(corpus_from_text(english_reference_corpus(), "byte"), OUR_MERGES,
                        special_tokens=("<|endoftext|>",))
    found["ours:bpe"] = (bpe_model(english, name="ours"), time.perf_counter() - start)
    start = time.perf_counter()
    both = sample_text("english") + "\n" + sample_text("chinese")
    bilingual = train_bpe(corpus_from_text(both, "byte"), BILINGUAL_MERGES)
    found["lg:bpe-en-zh"] = (bpe_model(bilingual, name="ours EN+ZH"), time.perf_counter() - start)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--skip-bounds", action="store_true",
                        help="leave out the page at its bounds (a few minutes)")
    args = parser.parse_args()
    from streamlit.logger import set_log_level

    set_log_level("error")  # AppTest runs the app without a server; Streamlit warns every run
    pairs = parallel_pairs()
    print(f"Premium of Chinese over English, data/parallel/en_zh.tsv ({len(pairs)} pairs)\n")
    print("| tokenizer | vocab | EN tokens | ZH tokens | EN tok/char | ZH tok/char "
          "| ratio of totals | median per pair | ZH costlier | load s | premium ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    base = premium(pairs, utf8_bytes)
    rows = [("UTF-8 bytes", 256, base, 0.0, 0.0)]
    loaded = tokenizers()
    for name, (tokenizer, load_s) in loaded.items():
        def count(s: str, t=tokenizer) -> int:
            return len(t.encode(s, disallowed_special=()))

        clear = getattr(tokenizer, "_cache", {}).clear
        seconds = median_seconds(lambda: premium(pairs, count), args.repeats, clear)
        rows.append((SHORT[name], tokenizer.vocab_size, premium(pairs, count), load_s, seconds))
    for label, vocab, p, load_s, seconds in rows:
        print(f"| {label} | {vocab:,} | {p.en.tokens:,} | {p.zh.tokens:,} | "
              f"{p.en.tokens_per_char:.3f} | {p.zh.tokens_per_char:.3f} | {p.total_ratio:.3f} | "
              f"{p.median_ratio:.3f} | {p.pairs_costlier_in_zh} of {len(p.pairs)} | "
              f"{load_s:.2f} | {seconds * 1000:.1f} |")
    print(f"\nEN {base.en.characters:,} characters, {base.en.bytes_per_char:.2f} bytes/char; "
          f"ZH {base.zh.characters:,} characters, {base.zh.bytes_per_char:.2f} bytes/char.")
    print(f"ours (English): {TRAINED_ON['ours:bpe']}.\nours (EN+ZH): {TRAINED_ON['lg:bpe-en-zh']}.")

    text = "你好，世界！Hello 👍🏽 " * 20
    four = [loaded[n][0] for n in ("gpt2", "cl100k_base", "o200k_base", "ours:bpe")]
    rows_in = [(t.name, t.encode(text, disallowed_special=())) for t in four]
    ruler_s = median_seconds(lambda: render_ruler(text, rows_in, max_chars=MAX_RULER_CHARS),
                             args.repeats)
    held = "\n".join(p.zh for p in pairs)
    chinese = sample_text("chinese")
    grow_s = median_seconds(lambda: grow_curve(chinese, held), args.repeats)
    print(f"\nbyte ruler HTML, {MAX_RULER_CHARS} characters x 4 tokenizers: "
          f"{ruler_s * 1000:.1f} ms")
    print(f"grow-a-vocabulary curve (Chinese sample -> pairs): {grow_s * 1000:.1f} ms")
    if not args.skip_bounds:
        bounds(loaded, args.repeats)


def _apptest(tab: str):
    """The Languages page with all five tokenizers chosen, on `tab`, already run once."""
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=600)
    app.run()
    app.switch_page("pages/languages.py")
    app.run()
    app.multiselect(key="lg_tokenizers").set_value(list(NAMES))
    app.session_state["lg_tab"] = tab
    app.run()
    return app


def _timed_runs(prepare, repeats: int) -> tuple[list[float], list[float], object]:
    """Medians of the first run after prepare(app) (counts cleared) and of a rerun, each as
    (wall seconds, CPU seconds of this process): the CPU time is the page's own work even when
    other programs share the machine's two CPUs and stretch the wall clock."""
    import streamlit as st

    from ui.languages import data

    first: list[tuple[float, float]] = []
    rerun: list[tuple[float, float]] = []
    app = None
    for _ in range(repeats):
        st.cache_data.clear()
        data._kept_counts.clear()  # the kept counts; loaded tokenizers stay, as on a live server
        parallel._pair_results.clear()
        app = prepare()
        for times in (first, rerun):
            wall, cpu = time.perf_counter(), time.process_time()
            app.run()
            times.append((time.perf_counter() - wall, time.process_time() - cpu))
            assert not app.exception and not app.error, (app.exception, app.error)
    return ([statistics.median(t[i] for t in first) for i in (0, 1)],
            [statistics.median(t[i] for t in rerun) for i in (0, 1)], app)


def _token_records(loaded, texts: list[str]) -> float:
    """The peer: the same counts made as the page made them before, a Token record per token."""
    start = time.perf_counter()
    for name in NAMES:
        tokenizer = loaded[name][0]
        getattr(tokenizer, "clear_cache", lambda: None)()
        [len(tokenizer.encode(t, disallowed_special=())) for t in texts]
    return time.perf_counter() - start


def _counting(loaded, texts: list[str], repeats: int) -> float:
    def run() -> None:
        for name in NAMES:
            token_counts(loaded[name][0], texts)

    def cold() -> None:
        for name in NAMES:
            getattr(loaded[name][0], "clear_cache", lambda: None)()

    return median_seconds(run, repeats, cold)


def bounds(loaded, repeats: int) -> None:
    """The page at its bounds (see the module docstring)."""
    short, long = short_pairs_file(), long_pairs_file()
    chinese = chinese_text()
    print(f"\nThe page at its bounds, {len(NAMES)} tokenizers, medians of {repeats} runs "
          "(AppTest: the whole page script); seconds\n")
    print("| input | first run (counting, with status): wall / CPU | rerun (counts kept): wall / "
          "CPU | of which counting | counting as before (Token records, once) | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, content in ((f"{MAX_PARALLEL_PAIRS:,} short pairs", short),
                           ("long sentences", long)):
        pairs = parse_parallel(content)
        texts = [s for p in pairs for s in (p.en, p.zh)]

        def upload(content: str = content):
            app = _apptest("English vs Chinese")
            app.file_uploader(key="lg_parallel_upload").set_value(
                ("bound.tsv", content.encode(), "text/plain"))
            return app

        first, rerun, app = _timed_runs(upload, repeats)
        spec = next(c.proto.spec for c in app.get("plotly_chart") if "Every pair" in c.proto.spec)
        counting, before = _counting(loaded, texts, repeats), _token_records(loaded, texts)
        print(f"| {label}: {len(pairs):,} pairs, {len(content):,} characters, "
              f"{len(content.encode()):,} bytes; per-pair chart {len(spec) / 1e6:.2f} MB | "
              f"{first[0]:.2f} / {first[1]:.2f} | {rerun[0]:.2f} / {rerun[1]:.2f} | "
              f"{counting:.2f} | {before:.1f} | {before / counting:.0f}x |", flush=True)

    def grow():
        app = _apptest("Grow a vocabulary")
        app.segmented_control(key="lg_grow_setup").set_value("own_split").run()
        app.text_area(key="lg_grow_text").set_value(chinese)
        return app

    first, rerun, _ = _timed_runs(grow, repeats)
    held = [chinese[len(chinese) * 70 // 100:]]
    counting, before = _counting(loaded, held, repeats), _token_records(loaded, held)
    print(f"| grow a vocabulary: {len(chinese):,} Chinese characters (30% held out) | "
          f"{first[0]:.2f} / {first[1]:.2f} | {rerun[0]:.2f} / {rerun[1]:.2f} | "
          f"{counting:.2f} | {before:.1f} | {before / counting:.0f}x |")
    print(f"\nload average while measuring (this machine has {os.cpu_count()} CPUs): "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
