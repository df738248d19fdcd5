"""What the Sequences page draws: model inputs as a grid, windows over the text, batching waste."""
