"""Bounds of what several pages share: token panels, uploaded tokenizers, panels side by side.

The README lists them (section "Bounds"); a test checks the two agree.
"""

MAX_RENDER_TOKENS = 2_000  # tokens drawn per panel; beyond, a note says how many are hidden
MAX_TOKENIZER_JSON_BYTES = 20_000_000  # an uploaded HF tokenizer.json
MAX_PANELS = 6  # tokenizers compared at once
