"""What several pages draw alike: the tokenizer catalog, token panels, tables, uploads, safe text.

Imported by the page packages and pages/; imports only tokenizer_core, never a page package.
"""
