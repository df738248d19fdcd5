"""How text becomes tokens: the merge rule, character- and byte-level BPE, WordPiece, Unigram.

Imports only the shared top level (tokens, interface, pretokenize, levels, trace); never trainers.
"""
