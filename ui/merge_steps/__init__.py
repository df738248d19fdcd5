"""What the Merge steps page draws: corpus source, the browser player, replays, BPE vs WordPiece.

Imported by pages/merge_steps.py only; may import ui.common and tokenizer_core.
"""
