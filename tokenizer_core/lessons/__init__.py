"""Step-by-step explanations: a training as lesson steps, narration, encode replays, BPE vs WordPiece.

May import models, trainers, reference and the top level; nothing in the core imports lessons.
"""
