"""Our Unigram trainer against SentencePiece's (C++), same corpus, same size, same run.

    python benchmarks/bench_unigram.py [--repeats 3] [--vocab 8000 --vocab 4000]

Corpus: Python's own documentation (`pydoc_data.topics`, ~465 KB of English, on every machine).
  ours            corpus_from_text(level word) + train_unigram(vocab) end to end
  sentencepiece   SentencePieceTrainer, model_type unigram, same text, same vocab size, one
                  thread, in memory (reference/sentencepiece_models.py: identity normalization,
                  byte fallback, so 256 of its pieces are bytes and 5 are meta pieces)
  lattice view    lattice + Viterbi + 5-best for every word of a 200-character text (our model)
SentencePiece cannot reach 8,000 on this corpus (it stops at 4,568 with hard_vocab_limit off and
refuses 8,000 with it on: its seed splits words at script changes, so `__init__` is three
sentences to it), so the default also runs 4,000, where both reach the size asked for.
Then, trained on the first 90% and measured on the last 10% (held out): vocabulary overlap,
the share of held-out words both cut the same way, and characters per token of each.
Times are medians of --repeats runs (wall clock); the ratio compares numbers from this run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from timing import median_seconds  # noqa: E402  (benchmarks/timing.py, beside this file)

from tokenizer_core.models.unigram import UnigramModel  # noqa: E402
from tokenizer_core.pretokenize import word_pieces  # noqa: E402
from tokenizer_core.reference.sentencepiece_models import train_sentencepiece  # noqa: E402
from tokenizer_core.samples import english_reference_corpus  # noqa: E402
from tokenizer_core.trainers.corpus import corpus_from_text  # noqa: E402
from tokenizer_core.trainers.unigram import train_unigram  # noqa: E402


def ours(text: str, vocab: int) -> UnigramModel:
    return train_unigram(corpus_from_text(text, "word"), vocab).model()


def lattice_view(model: UnigramModel, text: str) -> None:
    for word in word_pieces(text):
        seq = model.sequence(word.text)
        model.lattice(seq)
        model.viterbi(seq)
        model.nbest(seq, 5)


def compare(text: str, vocab: int) -> list[tuple[str, str]]:
    cut = int(len(text) * 0.9)
    cut = text.rfind("\n", 0, cut) + 1
    train, held = text[:cut], text[cut:]
    model = ours(train, vocab)
    sp = train_sentencepiece(train, vocab, "unigram")
    our_pieces = {p for p, _ in model.pieces[1:]}
    sp_pieces = {p for p, _ in sp.pieces() if not p.startswith("<")}
    words = [w.text for w in word_pieces(held)]
    same = 0
    for word in words:
        mine = [t.piece for t in model.encode(word)]
        theirs = sp.processor.encode(word, out_type=str)
        same += mine == theirs
    our_tokens = sum(len(model.encode(w)) for w in words)
    sp_tokens = sum(len(sp.encode(w)) for w in words)
    chars = sum(len(w) for w in words)
    return [
        ("pieces in both vocabularies", f"{len(our_pieces & sp_pieces):,} of {len(our_pieces):,} "
         f"ours / {len(sp_pieces):,} theirs (no meta or byte pieces)"),
        ("held-out words cut the same way", f"{same / len(words):.1%} of {len(words):,}"),
        ("held-out characters per token (each word encoded alone)",
         f"ours {chars / our_tokens:.2f}, sentencepiece {chars / sp_tokens:.2f}"),
        ("vocabulary sizes reached", f"ours {model.vocab_size:,}, sentencepiece {sp.vocab_size:,}"),
    ]


def interleaved(runs: list[Callable[[], object]], repeats: int) -> list[tuple[float, float]]:
    """Median (wall, CPU) seconds of each run, the runs taking turns so that a busy machine
    slows them alike. CPU time (time.process_time) counts this process only: both sides are
    one thread here, so on a shared machine that ratio is the steadier one."""
    walls: list[list[float]] = [[] for _ in runs]
    cpus: list[list[float]] = [[] for _ in runs]
    for _ in range(repeats):
        for k, run_once in enumerate(runs):
            wall, cpu = time.perf_counter(), time.process_time()
            run_once()
            walls[k].append(time.perf_counter() - wall)
            cpus[k].append(time.process_time() - cpu)
    return [(statistics.median(w), statistics.median(c)) for w, c in zip(walls, cpus)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--vocab", type=int, action="append")
    args = parser.parse_args()
    for vocab in args.vocab or [8000, 4000]:
        run(english_reference_corpus(), vocab, args.repeats)


def run(text: str, vocab: int, repeats: int) -> None:
    print(f"\n## corpus: pydoc_data.topics, {len(text.encode()):,} bytes; vocab {vocab:,}; "
          f"median of {repeats}\n")
    (t_ours, c_ours), (t_sp, c_sp) = interleaved(
        [lambda: ours(text, vocab), lambda: train_sentencepiece(text, vocab, "unigram")], repeats
    )
    sp_size = train_sentencepiece(text, vocab, "unigram").vocab_size
    model = ours(text, vocab)
    view_text = " ".join(text[:400].split())[:200]
    t_view = median_seconds(lambda: lattice_view(model, view_text), max(repeats, 5))
    print("| what | seconds (wall) | CPU seconds | ratio wall / CPU |")
    print("|---|---:|---:|---:|")
    print(f"| ours: train_unigram to {vocab:,} pieces, end to end | {t_ours:.2f} | {c_ours:.2f} | "
          f"{t_ours / t_sp:.1f}x / {c_ours / c_sp:.1f}x sentencepiece |")
    print(f"| sentencepiece (C++), unigram, one thread (reached {sp_size:,} pieces) | {t_sp:.2f} "
          f"| {c_sp:.2f} | 1.0x |")
    print(f"| lattice + Viterbi + 5-best, 200-character text | {t_view:.4f} | | goal 0.2 s |")
    print("\nOur Unigram vs SentencePiece's, trained on 90%, measured on the held-out 10%:\n")
    print("| measure | value |")
    print("|---|---|")
    for name, value in compare(text, vocab):
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
