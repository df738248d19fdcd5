"""Bounds of what several pages share: token panels, uploaded tokenizers, panels side by side.

docs/bounds.md lists them; a test checks the two agree.
"""

MAX_RENDER_TOKENS = 2_000  # tokens drawn per panel; beyond, a note says how many are hidden
# Rows an HTML table holds (ui/common/table_view.py): presentation mode shows the first ones and
# says so; a light page's longer table stays Streamlit's data frame.
HTML_MAX_ROWS = 1_000
MAX_TOKENIZER_JSON_BYTES = 20_000_000  # an uploaded HF tokenizer.json
# Seconds an uploaded tokenizer.json may take to load, or to encode or decode one text, in its
# worker process (tokenizer_core/reference/isolated.py) before the worker is killed.
MAX_TOKENIZER_JSON_SECONDS = 10
MAX_UPLOADED_TOKENIZERS = 4  # tokenizer.json files one session keeps (the oldest goes first)
# Tokenizers offered from the models folder and the Hugging Face cache together (a worker
# process each, shared by every session; ui/common/found_models.py).
MAX_FOUND_MODELS = 32
MAX_PANELS = 6  # tokenizers compared at once
MAX_LINK_DIGITS = 9  # digits of a number in a link (every number a link carries is below 10**9)
MAX_LINK_CHOICE_CHARS = 200  # characters of a choice or a name list in a link (text: its own bound)
# A lesson file (ui/common/lesson_file.py): one screen, or a teacher's path of several.
MAX_LESSON_FILE_BYTES = 2_000_000  # a lesson file upload
MAX_LESSON_STEPS = 50  # screens in one lesson file (a teacher's path)
MAX_LESSON_PARAMS = 40  # parameters of one screen
MAX_LESSON_VALUE_CHARS = 100_000  # one parameter's value (a page's text: the Playground's bound)
