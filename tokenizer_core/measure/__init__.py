"""Numbers about tokenizations: metrics, compression curves and quality, language costs, boundaries,
and sequences (model inputs, long-text windows, batches, chat framing: sequences*.py), and
vocabularies (tables, search, comparison, and export to HF's tokenizer.json: vocabulary*.py).

May import models, trainers, reference and the top level; nothing in the core imports measure.
"""
