"""What the Unigram & SentencePiece page draws: the shrinking vocabulary, the lattice with its
dp table, and BPE vs WordPiece vs Unigram vs SentencePiece side by side.

Imported by pages/unigram.py only; may import ui.common and tokenizer_core.
"""
