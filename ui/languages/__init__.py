"""What the Languages page draws: byte ruler, Chinese premium, emoji costs, grow a vocabulary.

Imported by pages/languages.py only; may import ui.common and tokenizer_core.
"""
