"""`python -m tokenizer_core`: see cli.py."""

import sys

from .cli import main

sys.exit(main())
