"""Every input has a bound. These are the numbers; callers (the app, the command line) check them
and say which bound was hit and what to do, instead of hanging.

Leaves out: the checks' wording, which belongs to each caller.
"""

# Command line and app: training.
MAX_TRAIN_CHARS = 5_000_000  # characters of training text (about 5 MB of English)
MAX_MERGES = 50_000  # merges one training run may ask for
MAX_COUNT_TABLE_ENTRIES = 200_000  # distinct words in a {word: count} table

# Command line: encoding.
MAX_ENCODE_CHARS = 20_000_000  # characters the command line encodes in one run

# Model files.
MAX_MODEL_FILE_BYTES = 50_000_000
