"""How a vocabulary is learned: the corpus, the fast BPE and WordPiece trainers, the textbook loops.

May import models and the shared top level; models, reference never import it.
"""
