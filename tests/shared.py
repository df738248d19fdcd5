"""What several test files need, in one place: the injection payloads, and the real tokenizers
loaded once per test session (parsing a rank file takes a tenth of a second; some tests would
otherwise parse one for every hypothesis example)."""

from __future__ import annotations

import functools
from pathlib import Path

from tokenizer_core.models.byte_bpe import ByteLevelBPE
from tokenizer_core.reference.tiktoken_encodings import TiktokenTokenizer
from tokenizer_core.registry import core_tokenizer, load_tokenizer

PAYLOADS_PATH = Path(__file__).parent / "data" / "injection_payloads.txt"
PAYLOADS_TEXT = PAYLOADS_PATH.read_text(encoding="utf-8")
PAYLOAD_LINES = [line for line in PAYLOADS_TEXT.splitlines() if line]


@functools.cache
def core(name: str) -> ByteLevelBPE:
    """Our encoder over a real encoding's ranks (core:gpt2, ...)."""
    return core_tokenizer(name)


@functools.cache
def tiktoken(name: str) -> TiktokenTokenizer:
    """tiktoken over the offline ranks, behind the explorer's interface."""
    return load_tokenizer(name)  # type: ignore[return-value]


def tiktoken_encoding(name: str):
    """tiktoken's own Encoding: the oracle our encoder's ids are checked against."""
    return tiktoken(name).encoding


def count_trainings(monkeypatch) -> dict[str, int]:
    """Count our compression-curve trainings ("ours") and HF model trainings ("hf") from here on:
    the real functions still run, each call is counted (the Compression page's cache tests)."""
    import tokenizer_core.measure.compression as compression
    import tokenizer_core.measure.quality as quality

    counts = {"ours": 0, "hf": 0}
    curve, family = compression.compression_curve, quality.train_family

    def counted_curve(*args, **kwargs):
        counts["ours"] += 1
        return curve(*args, **kwargs)

    def counted_family(*args, **kwargs):
        counts["hf"] += 1
        return family(*args, **kwargs)

    monkeypatch.setattr(compression, "compression_curve", counted_curve)
    monkeypatch.setattr(quality, "train_family", counted_family)
    return counts
