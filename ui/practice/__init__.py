"""What the Practice page draws: the fill-in-the-blank exercises, random masking, and guess the
token count. Everything a student types lives in their own session only."""
