"""How a vocabulary is learned: the corpus, the fast BPE, WordPiece and Unigram trainers, the textbook loops.

May import models and the shared top level; models, reference never import it.
"""
