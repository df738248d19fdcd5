"""The lines beside ours: the real tokenizers' points and the HF lines, which take seconds to make
the first time (loading three vocabularies; training HF models at six sizes).

What is made already (by this server, or kept on disk by `python -m tokenizer_core warm` or an
earlier visit) comes at once; the rest is "still coming": the page draws our line first, says
what is coming, draws everything else, and makes the slow parts last (`other_lines(wait=True)`).
Each finished model is kept on disk, so a rerun that stops this half way loses at most one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from tokenizer_core.measure.compression import CompressionCurve, HeldOutSplit
from tokenizer_core.measure.quality import SENTENCEPIECE_FAMILIES, HFFamily, HFPoint
from tokenizer_core.measure.stored import ReferencePoint
from ui.common.safe_text import literal
from ui.compression import compute as compute
from ui.compression.corpora import CorpusChoice
from ui.compression.frames import FAMILY_NAMES, REFERENCE_LABELS, hf_rows, reference_rows

Usable = Sequence[tuple[CorpusChoice, HeldOutSplit, CompressionCurve]]
REFERENCES = f"the points of {', '.join(list(REFERENCE_LABELS.values())[:-1])} and " + (
    f"{list(REFERENCE_LABELS.values())[-1]}")


@dataclass
class Lines:
    rows: list[dict] = field(default_factory=list)  # chart rows (frames.py)
    hf: dict[str, dict[str, list[HFPoint]]] = field(default_factory=dict)  # corpus -> family
    references: dict[str, list[ReferencePoint]] = field(default_factory=dict)  # corpus ->
    coming: dict[str, list[str]] = field(default_factory=dict)  # corpus label -> what
    refused: list[str] = field(default_factory=list)  # Markdown notes


def other_lines(usable: Usable, families: Sequence[HFFamily], sizes: tuple[int, ...],
                held_out_pct: int, wait: bool) -> Lines:
    """The reference points and HF lines of every corpus. With wait=False only those that come at
    once; the others are listed in `coming`. With wait=True all of them (slow on a first visit)."""
    lines = Lines()
    for corpus, parts, curve in usable:
        spaced, label = curve.space_separated, corpus.label
        if wait or compute.references_ready(corpus.digest, held_out_pct, corpus.text):
            points = compute.reference_points(corpus.digest, held_out_pct, label, corpus.text)
            lines.references[corpus.key] = points
            lines.rows += reference_rows(label, corpus.key, points, spaced)
        else:
            lines.coming.setdefault(label, []).append(REFERENCES)
        trained_here = list(families)
        hf = [f for f in families if f not in SENTENCEPIECE_FAMILIES]
        refusal = compute.hf_refused(corpus.digest, held_out_pct, corpus.text) if hf else None
        if refusal:  # HF's trainers slow down badly on a long word: no HF lines for this corpus
            lines.refused.append(f"No Hugging Face lines for {literal(label)}: {refusal}.")
            trained_here = [f for f in families if f in SENTENCEPIECE_FAMILIES]  # C++: not slowed
        for family in trained_here:
            if wait or compute.hf_ready(corpus.digest, held_out_pct, family, sizes, corpus.text):
                points = compute.hf_family(corpus.digest, held_out_pct, family, sizes, label,
                                           corpus.text)
                lines.hf.setdefault(corpus.key, {})[family] = points
                lines.rows += hf_rows(label, corpus.key, family, points, spaced)
            else:
                lines.coming.setdefault(label, []).append(FAMILY_NAMES[family])
    return lines


def coming_note(coming: dict[str, list[str]]) -> str:
    """What is still being made, in one Markdown paragraph: corpora waiting for the same things
    share a clause (corpus labels may be user text)."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for label, what in coming.items():
        groups.setdefault(tuple(what), []).append(literal(label))
    clauses = [f"{_things(list(what))} on {_join(labels)}" for what, labels in groups.items()]
    return (
        f"**Still coming:** {'; '.join(clauses)}. Each is made once and kept on disk for every "
        "visitor; they appear on the chart when ready, and the controls work meanwhile."
    )


def _things(what: list[str]) -> str:
    """'the GPT-2, ... points and the HF WordPiece and HF Unigram lines'."""
    families = [w for w in what if w != REFERENCES]
    parts = [REFERENCES] if REFERENCES in what else []
    if families:
        parts.append(f"the {_join(families)} line{'s' if len(families) > 1 else ''}")
    return " and ".join(parts)


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
