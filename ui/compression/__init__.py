"""What the Compression page draws: corpora, the vocab-size curve, quality table, fixed sentences.

Imported by pages/compression.py only; may import ui.common and tokenizer_core.
"""
