"""What the pages draw, one package per page (playground, merge_steps, compression, languages) and
`common` for what several share. Arrows point down: ui imports tokenizer_core, never the reverse."""
