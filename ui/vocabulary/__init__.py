"""What the Vocabulary page draws: a tokenizer's vocabulary table, its charts and a comparison."""
