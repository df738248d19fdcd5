"""What the Playground draws beyond the shared panels: its text source, view switches,
numbers table, link state and bounds.

Imported by pages/playground.py only; may import ui.common and tokenizer_core.
"""
