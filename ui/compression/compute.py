"""The Compression page's work, cached by plain values so that a widget that only changes the view
(the measure shown, the vocab size compared, a sentence) never trains again.

Keys are (corpus digest, held-out percent, max merges / family / sizes / tokenizer spec); the text
itself rides along as an underscore argument, which st.cache_data does not hash. Below this memory
cache, every result is kept on disk (tokenizer_core/measure/stored.py), so a restart, another
replica or `python -m tokenizer_core warm` saves the training; `ready` tells which results come
at once, so the page can say what is still coming.

Trainings (our curve, every HF and SentencePiece model) run in the worker pool (#22,
ui/common/workers.py): seconds to minutes of pure Python that would otherwise hold the server's
one interpreter lock while every other session waits, and memory the server would keep. A store
miss sends the text to a worker; the store's JSON comes back and is kept on disk as it came
(`_kept`). A rerun or a closed tab kills the job's worker.

The functions that draw a progress bar take the session's language as part of their key
(`lang`): Streamlit replays a cached call's elements, and one session's words must never show in
another's; below them the on-disk store is shared by every language, so nothing trains twice.

subtle: a progress bar is created *inside* the cached function that trains, so that Streamlit's
replay of a cached call finds every element it recorded (an element created outside would not
be there to replay into). The bar is emptied at the end, so a replay leaves nothing visible.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable, TypeVar

import streamlit as st

from tokenizer_core import Tokenizer, jobs, store
from tokenizer_core.measure import stored
from tokenizer_core.measure.compression import CompressionCurve, HeldOutSplit, split_held_out
from tokenizer_core.measure.quality import HFFamily, HFPoint, Quality, hf_refusal
from tokenizer_core.messages import Refusal
from tokenizer_core.workers import Busy, Job
from ui.common import catalog, workers
from ui.common.cancel import throttled
from ui.common.i18n import _, explain, number
from ui.common.safe_text import literal
from ui.compression.frames import family_name
from ui.compression.limits import CURVE_CACHE_ENTRIES, QUALITY_CACHE_ENTRIES

T = TypeVar("T")
Progress = Callable[[int, int], None]


def split(text: str, held_out_pct: int) -> HeldOutSplit:
    return split_held_out(text, held_out_pct / 100)


def _bar(label: str):
    """A progress bar and a throttled train_bpe-style callback that moves it.

    subtle: the bar's text is Markdown and `label` may name the user's file, so callers pass it
    through literal() (a name like ![x](http://...) would otherwise be fetched as an image)."""
    bar = st.progress(0.0, text=label)

    def update(done: int, total: int, what: str = "") -> None:
        if total:
            bar.progress(min(1.0, done / total), text=f"{label} {what}".rstrip())

    return bar, update


def _kept(recipe: str, job: Job | Callable[[], Job], load: Callable[[str], T],
          progress: Progress | None, note: Callable[[str], None]) -> T:
    """What `recipe` names: from the on-disk store, else made by `job` in a worker (its value is
    the store's JSON) and kept in the store as that same text. `job` may be a function that
    makes the job, asked only on a miss (when its arguments cost a read of their own)."""
    made: list[str] = []

    def build() -> T:
        made.append(workers.run(job if isinstance(job, Job) else job(), progress=progress,
                                note=note))
        return load(made[0])

    return store.cached(recipe, build, lambda _value: made[0], load)


@st.cache_data(max_entries=CURVE_CACHE_ENTRIES, show_spinner=False)
def our_curve(
    digest: str, held_out_pct: int, max_merges: int, label: str, lang: str, _text: str
) -> CompressionCurve:
    """Byte-level BPE trained once up to max_merges; tokens on both parts for every k. From the
    on-disk store when it holds this curve (stored.py), else trained in a worker and stored.
    Busy (a Refusal) when the pool's queue is full."""
    title = _("Training byte-level BPE on {label}:", label=literal(label))
    bar, update = _bar(title)
    # the worker reports its merges a few times a second; each report moves the bar, which is
    # also where Streamlit stops this run when a newer one replaced it (and kills the worker)
    progress = throttled(lambda done, total: update(
        done, total, _("merge {done} of {total}", done=number(done), total=number(total))))
    job = Job("tokenizer_core.jobs:curve_json", (_text, held_out_pct, max_merges), progress=True)
    try:
        return _kept(stored.curve_recipe(_text, held_out_pct, max_merges), job,
                     stored.curve_from_json, progress,
                     lambda text: bar.progress(0.0, text=f"{title} {text}"))
    finally:
        bar.empty()


@st.cache_resource
def _fetched() -> set[tuple]:
    """Keys of the slow results this server process has already made or read (any session)."""
    return set()


def ready(key: tuple, recipes: Callable[[], list[str]]) -> bool:
    """Whether a slow result comes at once: fetched by this process already, or on disk.
    `recipes` is asked only when this process has not fetched it (each recipe hashes the whole
    corpus: on every rerun of every session that was a tenth of the page's run)."""
    return key in _fetched() or all(store.contains(recipe) for recipe in recipes())


def fetched(key: tuple) -> None:
    _fetched().add(key)


def references_ready(digest: str, held_out_pct: int, text: str) -> bool:
    return ready(("ref", digest, held_out_pct), lambda: [stored.references_recipe(text, held_out_pct)])


@st.cache_data(max_entries=CURVE_CACHE_ENTRIES, show_spinner=False)
def reference_points(
    digest: str, held_out_pct: int, label: str, lang: str, _text: str
) -> list[stored.ReferencePoint]:
    """(name, vocab size, held-out counts, share hidden in [UNK]) for every
    stored.REFERENCE_TOKENIZERS: from the on-disk store, else counted in a worker (nine
    tokenizers encoding the held-out part: about a second of the server's lock per corpus and
    held-out share, and the vocabularies the worker loads stay out of the server) and stored.
    With the pool's queue full they are counted here, as before the pool: a point is short work."""
    title = _("Counting the real tokenizers' tokens on {label} (loading {count} vocabularies)…",
              label=literal(label), count=number(len(stored.REFERENCE_TOKENIZERS)))
    bar = st.progress(0.0, text=title)
    job = Job("tokenizer_core.jobs:references_json", (_text, held_out_pct))
    try:
        points = _kept(stored.references_recipe(_text, held_out_pct), job,
                       stored.references_from_json, None,
                       lambda text: bar.progress(0.0, text=f"{title} {text}"))
    except Busy:
        points = stored.reference_points(_text, held_out_pct, catalog.load_quietly)
    finally:
        bar.empty()
    fetched(("ref", digest, held_out_pct))
    return points


def found_ready(digest: str, held_out_pct: int, name: str, sha256: str, text: str) -> bool:
    return ready(("found", digest, held_out_pct, name, sha256),
                 lambda: [stored.found_recipe(text, held_out_pct, name, sha256)])


def found_points(digest: str, held_out_pct: int, label: str, lang: str, text: str,
                 wait: bool) -> tuple[list[stored.ReferencePoint], list[tuple[str, str]], list[str]]:
    """The points of the models folder's and the Hugging Face cache's tokenizers this session
    offers (catalog.found_names), each counted by its own worker process (catalog.get): (points,
    (name, why) of those that could not count the held-out part, names still coming). With
    wait=False only those that come at once; the others are still coming."""
    points, failed, coming = [], [], []
    for name in catalog.found_names():
        sha256 = catalog.version(name)
        if not (wait or found_ready(digest, held_out_pct, name, sha256, text)):
            coming.append(name)
            continue
        outcome = _found_point(digest, held_out_pct, name, sha256, label, lang, text)
        if isinstance(outcome, ValueError):
            failed.append((name, explain(outcome)))
        else:
            points.append(outcome)
    return points, failed, coming


@st.cache_data(max_entries=4 * CURVE_CACHE_ENTRIES, show_spinner=False)
def _found_point(digest: str, held_out_pct: int, name: str, sha256: str, label: str, lang: str,
                 _text: str) -> stored.ReferencePoint | ValueError:
    """One found tokenizer's point (stored.found_point), or why it has none: kept, like a file
    that does not load (found_models.py), so no rerun waits out the worker's time limit again."""
    bar = st.progress(0.0, text=_("Counting the tokens of {name} on {label}…",
                                  name=literal(name), label=literal(label)))
    try:
        point = stored.found_point(_text, held_out_pct, name, sha256, catalog.get)
    except ValueError as error:  # a Refusal from its worker: too slow, or it stopped
        return error
    finally:
        bar.empty()
    fetched(("found", digest, held_out_pct, name, sha256))
    return point


@st.cache_data(max_entries=CURVE_CACHE_ENTRIES, show_spinner=False)
def hf_refused(digest: str, held_out_pct: int, _text: str) -> Refusal | None:
    """Why the HF lines are not trained on this corpus (quality.hf_refusal), or None: a
    Refusal, which the page says in the session's language (explain)."""
    return hf_refusal(split(_text, held_out_pct).train)


def hf_ready(digest: str, held_out_pct: int, family: HFFamily, sizes: tuple[int, ...],
             text: str) -> bool:
    return ready(("hf", digest, held_out_pct, family, sizes),
                 lambda: [stored.hf_recipe(family, text, held_out_pct, size) for size in sizes])


@st.cache_data(max_entries=4 * CURVE_CACHE_ENTRIES, show_spinner=False)
def hf_family(
    digest: str, held_out_pct: int, family: HFFamily, sizes: tuple[int, ...], label: str,
    lang: str, _text: str
) -> list[HFPoint]:
    """One HF family trained on the same training part at each size, each model in a worker;
    each comes from the on-disk store when it holds it. A rerun stops this (and kills the worker
    training a model), and the models already made stay in the store. Busy (a Refusal) when the
    pool's queue is full. The points keep their numbers only (HFPoint.numbers): this cache holds
    a line per corpus, family, held-out share and language, and with each model's text it held
    up to a megabyte a point; a quality row reads the model back from the store (StoredHFModel)."""
    bar, update = _bar(_("Training {name} on {label}:", name=family_name(family),
                         label=literal(label)))
    points = []
    try:
        for done, size in enumerate(sizes):
            step = _("{vocab} vocab (model {n} of {total})", vocab=number(size),
                     n=number(done + 1), total=number(len(sizes)))
            update(done, len(sizes), step)
            job = Job("tokenizer_core.jobs:hf_point_json", (family, _text, held_out_pct, size))
            point = _kept(stored.hf_recipe(family, _text, held_out_pct, size), job,
                          stored.hf_point_from_json, None,
                          lambda text, done=done, step=step: update(done, len(sizes),
                                                                    f"{step} {text}"))
            if point is not None:
                points.append(point.numbers())
    finally:
        bar.empty()
    fetched(("hf", digest, held_out_pct, family, sizes))
    return points


@dataclass(frozen=True)
class StoredHFModel:
    """One HF (or SentencePiece) line's model, named by plain values: called, it reads the whole
    point (the model's text) from the on-disk store and builds the tokenizer, which only a
    quality row not measured yet needs. Not in the store (a store turned off, or pruned), it is
    trained again in a worker, as hf_family trained it."""

    family: HFFamily
    size: int
    held_out_pct: int
    text: str = field(repr=False)

    def point(self) -> HFPoint:
        job = Job("tokenizer_core.jobs:hf_point_json",
                  (self.family, self.text, self.held_out_pct, self.size))
        point = _kept(stored.hf_recipe(self.family, self.text, self.held_out_pct, self.size), job,
                      stored.hf_point_from_json, None, lambda _text: None)
        if point is None:
            raise ValueError(f"{self.family} has no model of {self.size:,} on this text")
        return point

    def __call__(self) -> Tokenizer:
        return self.point().tokenizer()


def quality(digest: str, held_out_pct: int, spec: str, make: Callable[[], Tokenizer],
            text: str) -> Quality:
    """_quality under a spinner in the session's language (shown only when it takes a while)."""
    with st.spinner(_("Measuring on the held-out text…")):
        return _quality(digest, held_out_pct, spec, make, text)


@st.cache_data(max_entries=QUALITY_CACHE_ENTRIES, show_spinner=False)
def _quality(
    digest: str, held_out_pct: int, spec: str, _make: Callable[[], Tokenizer], _text: str
) -> Quality:
    """Every quality number of one tokenizer (named by `spec`, built by `_make`) on the held-out
    part, from the on-disk store when it holds them. The tokenizer is built only on a miss, in a
    worker when it can be (about half a second of pure Python per row on a large corpus: a
    table of twelve rows per corpus held the server's lock as long as the training did)."""
    make = _portable(spec, _make)
    if make is None:  # a models-folder or uploaded file: it runs in its own process already
        return stored.quality_row(_text, held_out_pct, spec, _make)

    def job() -> Job:  # on a store miss only: an HF model's text is read from the store then
        return Job("tokenizer_core.jobs:quality_json", (_text, held_out_pct, spec, make()))

    try:
        return _kept(stored.quality_recipe(_text, held_out_pct, spec), job,
                     jobs.quality_from_json, None, lambda _text: None)
    except Busy:  # a full queue: a row is short work, measured here rather than refused
        return stored.quality_row(_text, held_out_pct, spec, _make)


def _portable(spec: str, make: Callable[[], Tokenizer]
              ) -> Callable[[], Callable[[], Tokenizer]] | None:
    """A function giving `make` as a worker can call it, or None when a worker cannot: ours (the
    curve's merges) pickles as it is; an HF line's model as its text, read from the store when
    the function is asked (StoredHFModel); a built-in reference goes by name and the worker
    loads it once (jobs.reference); None for anything else (catalog.get's found and uploaded
    files)."""
    kind, _, name = spec.partition(":")
    if isinstance(make, StoredHFModel):
        return lambda: make.point().tokenizer
    if kind in ("ours", "hf"):
        return lambda: make
    if kind == "ref" and name in stored.REFERENCE_TOKENIZERS:
        return lambda: functools.partial(jobs.reference, name)
    return None


def our_vocab(curve: CompressionCurve, vocab_size: int) -> int:
    """The vocab size ours has when asked for `vocab_size`: smaller when training stopped early."""
    return stored.our_vocab(curve, vocab_size)
