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

from babel.lists import format_list

from tokenizer_core.measure.compression import CompressionCurve, HeldOutSplit
from tokenizer_core.measure.quality import (
    SENTENCEPIECE_FAMILIES,
    HFFamily,
    HFPoint,
    unigram_alphabet,
)
from tokenizer_core.measure.stored import ReferencePoint
from tokenizer_core.workers import Busy
from ui.common.i18n import (
    SOURCE_LANGUAGE,
    _,
    current_language,
    current_locale,
    explain,
    ngettext,
    number,
)
from ui.common.safe_text import literal
from ui.compression import compute as compute
from ui.compression.corpora import CorpusChoice
from ui.compression.frames import (
    FAMILY_NAMES,
    REFERENCE_LABELS,
    family_name,
    hf_rows,
    reference_rows,
)

Usable = Sequence[tuple[CorpusChoice, HeldOutSplit, CompressionCurve]]
# What `Lines.coming` holds for the real tokenizers' points (English; said by _things()).
REFERENCES = f"the points of {', '.join(list(REFERENCE_LABELS.values())[:-1])} and " + (
    f"{list(REFERENCE_LABELS.values())[-1]}")


def is_found(what: str) -> bool:
    """Whether a `Lines.coming` entry names a tokenizer of the models folder or the Hugging Face
    cache (local:NAME, hf:ORG/NAME) rather than a line (FAMILY_NAMES: "HF BPE ...")."""
    return what.startswith(("local:", "hf:"))


@dataclass
class Lines:
    rows: list[dict] = field(default_factory=list)  # chart rows (frames.py)
    hf: dict[str, dict[str, list[HFPoint]]] = field(default_factory=dict)  # corpus -> family
    references: dict[str, list[ReferencePoint]] = field(default_factory=dict)  # corpus ->
    coming: dict[str, list[str]] = field(default_factory=dict)  # corpus label -> what
    refused: list[str] = field(default_factory=list)  # Markdown notes
    # (corpus key, family) -> (sizes its trainer refused, a Markdown note saying why)
    missing: dict[tuple[str, str], tuple[list[int], str]] = field(default_factory=dict)


def other_lines(usable: Usable, families: Sequence[HFFamily], sizes: tuple[int, ...],
                held_out_pct: int, wait: bool) -> Lines:
    """The reference points and HF lines of every corpus. With wait=False only those that come at
    once; the others are listed in `coming`. With wait=True all of them (slow on a first visit)."""
    lines = Lines()
    for corpus, parts, curve in usable:
        spaced, label = curve.space_separated, corpus.label
        if wait or compute.references_ready(corpus.digest, held_out_pct, corpus.text):
            points = compute.reference_points(corpus.digest, held_out_pct, label,
                                              current_language(), corpus.text)
            lines.references[corpus.key] = points
            lines.rows += reference_rows(label, corpus.key, points, spaced)
        else:
            lines.coming.setdefault(label, []).append(REFERENCES)
        found, failed, coming = compute.found_points(corpus.digest, held_out_pct, label,
                                                     current_language(), corpus.text, wait)
        if found:  # the models folder's and the cache's tokenizers: points like the real ones
            lines.references.setdefault(corpus.key, []).extend(found)
            lines.rows += reference_rows(label, corpus.key, found, spaced)
        if coming:
            lines.coming.setdefault(label, []).extend(coming)
        lines.refused += [_("No point for {name} on {label}: {reason}", name=literal(name),
                            label=literal(label), reason=literal(reason))
                          for name, reason in failed]
        trained_here = list(families)
        hf = [f for f in families if f not in SENTENCEPIECE_FAMILIES]
        refusal = compute.hf_refused(corpus.digest, held_out_pct, corpus.text) if hf else None
        if refusal:  # HF's trainers slow down badly on a long word: no HF lines for this corpus
            lines.refused.append(_("No Hugging Face lines for {label}: {reason}.",
                                   label=literal(label), reason=explain(refusal)))
            trained_here = [f for f in families if f in SENTENCEPIECE_FAMILIES]  # C++: not slowed
        for family in trained_here:
            if wait or compute.hf_ready(corpus.digest, held_out_pct, family, sizes, corpus.text):
                try:
                    points = compute.hf_family(corpus.digest, held_out_pct, family, sizes,
                                               label, current_language(), corpus.text)
                except Busy as busy:  # the workers' queue is full: say so, draw the rest
                    lines.refused.append(_("No {name} line on {label}: {reason}",
                                           name=family_name(family), label=literal(label),
                                           reason=explain(busy)))
                    continue
                lines.hf.setdefault(corpus.key, {})[family] = points
                lines.rows += hf_rows(label, corpus.key, family, points, spaced)
                refused = [s for s in sizes if s not in {p.requested for p in points}]
                if refused:  # a trainer that refuses a size leaves no point: say why
                    lines.missing[corpus.key, family] = (
                        refused, missing_note(label, family, refused, parts.train))
            else:
                lines.coming.setdefault(label, []).append(FAMILY_NAMES[family])
    return lines


def coming_note(coming: dict[str, list[str]]) -> str:
    """What is still being made, in one Markdown paragraph: corpora waiting for the same things
    share a clause (corpus labels may be user text)."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for label, what in coming.items():
        groups.setdefault(tuple(what), []).append(literal(label))
    clauses = [_("{things} on {labels}", things=_things(list(what)), labels=_join(labels))
               for what, labels in groups.items()]
    return _(
        "**Still coming:** {clauses}. Each is made once and kept on disk for every visitor; they "
        "appear on the chart when ready, and the controls work meanwhile.",
        clauses=_("; ").join(clauses))


def _things(what: list[str]) -> str:
    """'the GPT-2, ... points and the HF WordPiece and HF Unigram lines'."""
    found = [literal(w) for w in what if is_found(w)]  # the folder's and the cache's: names
    families = [_(w) for w in what if w != REFERENCES and not is_found(w)]  # message ids
    points = list(REFERENCE_LABELS.values()) if REFERENCES in what else []
    parts = [_("the points of {names}", names=_join(points + found))] if points or found else []
    if families:
        parts.append(ngettext("the {names} line", "the {names} lines", len(families),
                              names=_join(families)))
    return _join(parts)


def _join(items: list[str], style: str = "standard") -> str:
    """'a, b and c' (or 'a, b or c') in English as this page always wrote it; in another
    language by the locale's own list pattern (CLDR, through Babel): '甲、乙和丙'."""
    if current_language() != SOURCE_LANGUAGE:
        return format_list(items, style=style, locale=current_locale())  # type: ignore[arg-type]
    word = " or " if style == "or" else " and "
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + word + items[-1]


def missing_note(label: str, family: HFFamily, sizes: list[int], train_text: str) -> str:
    """Why `family` has no model of `sizes` on the corpus `label` (Markdown; a user's file name
    goes through literal)."""
    name, corpus = family_name(family), literal(label)
    wanted = _sizes(sizes)
    if family == "unigram":
        alphabet = unigram_alphabet(train_text)
        return _("{name} cannot train a {sizes}-piece vocabulary on {label}: its training part "
                 "has {alphabet} distinct characters (the space mark ▁ and the line break among "
                 "them), and a Unigram vocabulary must hold every one, so its smallest model has "
                 "{alphabet} pieces.", name=name, sizes=wanted, label=corpus,
                 alphabet=number(alphabet))
    if family in SENTENCEPIECE_FAMILIES:
        return _("{name} cannot train a {sizes}-piece vocabulary on {label}: a SentencePiece "
                 "vocabulary must hold every character it keeps from the training part, plus its "
                 "256 byte pieces and its special pieces, and that is more.", name=name,
                 sizes=wanted, label=corpus)
    return _("{name} refused to train a {sizes}-piece vocabulary on {label}.", name=name,
             sizes=wanted, label=corpus)


def _sizes(sizes: list[int]) -> str:
    """'500' or '500- or 1,000' or '500-, 1,000- or 2,000' (before '-piece'); in another
    language the locale's 'or' list ('500或1,000')."""
    shown = [number(s) for s in sizes]
    if current_language() != SOURCE_LANGUAGE:
        return _join(shown, "or")
    if len(shown) == 1:
        return shown[0]
    return "-, ".join(shown[:-1]) + "- or " + shown[-1]
