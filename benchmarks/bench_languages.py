"""Time the Languages page's work and print its premium table for the built-in pairs (Markdown).

    python benchmarks/bench_languages.py [--repeats 5]

For each tokenizer the page offers: the premium of Chinese over English on
data/parallel/en_zh.tsv (every sentence tokenized on its own, as the page does), and the time
to compute it with the tokenizer already loaded (median of --repeats runs; our own encoders'
per-chunk caches are cleared before each run, so the times are cold for them). Also the byte
ruler's HTML (the drawing bound, four tokenizers) and the grow-a-vocabulary curve on the
built-in texts. Our tokenizers are trained exactly as the app trains them (ui/common/catalog.py,
ui/languages/data.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import median_seconds  # noqa: E402  (benchmarks/timing.py, beside this file)

from tokenizer_core import bpe_model, corpus_from_text, train_bpe
from tokenizer_core.measure.byte_ruler import render_ruler
from tokenizer_core.measure.language_costs import premium, utf8_bytes
from tokenizer_core.measure.vocab_growth import grow_curve
from tokenizer_core.registry import BILINGUAL_MERGES, OUR_MERGES, load_tokenizer
from tokenizer_core.samples import english_reference_corpus, parallel_pairs, sample_text
from ui.languages.data import SHORT, TRAINED_ON
from ui.languages.limits import MAX_RULER_CHARS


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
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
