"""The classroom corpora the lessons use, shared by the core tests."""

LOW_NEWEST = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
TEN_SENTENCES = "\n".join(
    [
        "the cat sat on the mat",
        "the dog sat on the log",
        "the cat and the dog",
        "i love my cat",
        "i love my dog",
        "the cat is cute",
        "the dog is happy",
        "the mat is soft",
        "the log is hard",
        "cats and dogs are friends",
    ]
)
THE_TABLE = {"the": 10, "there": 3, "that": 5, "thin": 2, "cat": 7, "car": 4}
LOW_LOWER = "low lower lowest lowering"
HUG_PUG = {"hug": 1, "pug": 1, "pun": 1, "bun": 1}
LESSON_MERGES = [
    ("e", "s"), ("es", "t"), ("est", "</w>"), ("l", "o"),
    ("lo", "w"), ("n", "e"), ("ne", "w"), ("new", "est</w>"),
]
