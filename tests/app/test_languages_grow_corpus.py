"""Grow a vocabulary trains on the Chinese corpus the app ships (issue 23, item 11), not on the
1,169-character sample."""

from __future__ import annotations

from tokenizer_core.samples import corpus_text, parallel_pairs

from .test_languages import open_tab


def test_grow_trains_on_the_shipped_chinese_corpus(app):
    open_tab(app, "Grow a vocabulary")
    corpus = corpus_text("chinese")
    held = "\n".join(p.zh for p in parallel_pairs())
    assert len(corpus) > 20_000
    captions = [c.value for c in app.caption]
    assert any("data/corpora/chinese.txt (all of it)" in c
               and f"{len(corpus):,} training and {len(held):,} held-out characters" in c
               for c in captions), captions
    # every distinct Chinese character of the corpus can be added: the slider runs to them all
    han = {c for c in corpus if "\u4e00" <= c <= "\u9fff"}
    assert app.slider(key="lg_grow_n").max == len(han)


def test_splitting_the_corpus_holds_out_its_last_part(app):
    open_tab(app, "Grow a vocabulary")
    app.segmented_control(key="lg_grow_setup").set_value("sample_split").run()
    corpus = corpus_text("chinese")
    cut = round(len(corpus) * 70 / 100)
    assert any(f"{cut:,} training and {len(corpus) - cut:,} held-out characters" in c.value
               for c in app.caption)
