"""The real tokenizers, offline: tiktoken over packaged rank files, HF `tokenizers` loaded or trained.

Imports only the shared top level; lessons, measure and the registry use it, never the reverse.
"""
