"""The Unigram page's bounds: every input it takes has one, and going over says so.

Chosen so that training stays a few seconds on one CPU (the 60 KB English corpus to 4,000
pieces takes about two) and the lattice view stays well under 0.2 s of server time for its
longest text: see benchmarks/bench_unigram_view.py.
"""

MIN_VOCAB = 50  # pieces asked of a Unigram training on this page, <unk> included
MAX_VOCAB = 4_000  # (the command line goes to 50,000)
SHRINK_SHARES = (0.1, 0.2, 0.25, 0.3, 0.4, 0.5)  # share of the vocabulary pruned per round
MAX_CORPUS_CHARS = 60_000  # characters of a built-in corpus trained on (the English one is cut)
MAX_LATTICE_CHARS = 200  # characters of text drawn as a lattice with its dp table
LABELLED_ARCS_CHARS = 24  # up to this many characters every arc is labelled; past it, only the path
NBEST = 5  # segmentations in the n-best list
ALPHAS = (0.1, 0.2, 0.5, 1.0, 2.0)  # sampling sharpness: p(segmentation) ** alpha
MAX_SEED = 1_000_000  # the sampling seed (kept in the link)
SHOWN_REMOVALS = 20  # removed pieces drawn per round in the chart (the table has all)
MAX_COMPARE_CHARS = 100  # the user's own word in the four-way comparison
