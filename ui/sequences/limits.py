"""The Sequences page's bounds: every input it takes has one, and going over says so."""

MAX_SEQUENCE_CHARS = 5_000  # characters of each box of sequences (one sequence per line)
MAX_BATCH_ROWS = 16  # sequences (lines) drawn as the padded batch
MAX_GRID_COLUMNS = 256  # positions drawn per row of the batch grid; beyond, a note
MAX_INPUT_LENGTH = 4_096  # the max length a model input may be set to
MAX_OWN_SPECIALS = 20  # special tokens of your own, on top of the lesson's families
MAX_WINDOW_CHARS = 100_000  # characters cut into windows
MAX_WINDOW_RENDER_CHARS = 12_000  # characters drawn with window bands; the counts cover all
MAX_WINDOW_LENGTH = 8_192  # tokens per window
# Windows cut, drawn and listed per rerun. The count, not the length, is what costs: 8,192
# tokens a window with a step of one token made 20,000 windows, 41 MB of bands and 2.5 s.
MAX_WINDOWS = 2_000
MAX_BATCH_LINES = 10_000  # corpus lines batched (the first ones)
MAX_BATCH_CORPUS_CHARS = 1_000_000  # characters of a corpus to batch, built-in or uploaded
MAX_BATCH_UPLOAD_BYTES = 4_000_000  # an uploaded .txt corpus, before decoding
MAX_BATCH_SIZE = 256  # rows per batch
MAX_MASK_CELLS = 64  # positions of the attention-mask grid (it grows as the square)
MAX_CHAT_MESSAGE_CHARS = 2_000  # characters of each message of the chat
MAX_BUCKET_WIDTH = 1_000  # tokens of one length bucket
MAX_TOKENS_PER_BATCH = 1_000_000  # the "max tokens per batch" knob
MAX_PRICE = 1_000  # price per million input tokens the page accepts
MAX_URL_TEXT_CHARS = 500  # each text box kept in a link (a lesson file keeps all of it)
