"""`train --algorithm sentencepiece-unigram|sentencepiece-bpe` trains with the real sentencepiece
library, and `encode --tokenizer model` reads every model file `train` writes (issue 23, item 13).

The oracle is the library itself: the model file's model_proto, loaded by
sentencepiece.SentencePieceProcessor, encodes the same text to the same ids; and the library
trained directly, with the parameters reference/sentencepiece_models.py documents, learns the
same pieces.
"""

from __future__ import annotations

import base64
import io
import json

import pytest
import sentencepiece as spm

from tokenizer_core import samples

from .test_cli import ok_json, run

CORPUS = "\n".join([samples.sample_text("english"), samples.sample_text("chinese"),
                    samples.sample_text("emoji")])
TEXT = "Tokenizers cut text into pieces: 你好，世界 🙂\n  two  spaces and a tab\tend"
SENTENCEPIECE = ["sentencepiece-unigram", "sentencepiece-bpe"]


def train_to(tmp_path, algorithm: str, vocab_size: int = 1200) -> tuple[dict, object]:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    output = tmp_path / "model.json"
    model = ok_json("train", "--algorithm", algorithm, "--vocab-size", str(vocab_size),
                    "--output", str(output), str(corpus))
    assert json.loads(output.read_text(encoding="utf-8")) == model
    return model, output


def library_training(model_type: str, vocab_size: int) -> spm.SentencePieceProcessor:
    from tokenizer_core.reference.sentencepiece_models import EXACT_PARAMETERS, LESSON_PARAMETERS

    writer = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter([line for line in CORPUS.split("\n") if line]),
        model_writer=writer, model_type=model_type, vocab_size=vocab_size,
        hard_vocab_limit=False, minloglevel=2, num_threads=1,
        **LESSON_PARAMETERS, **EXACT_PARAMETERS,
    )
    return spm.SentencePieceProcessor(model_proto=writer.getvalue())


@pytest.mark.parametrize("algorithm", SENTENCEPIECE)
def test_sentencepiece_train_then_encode_gives_the_librarys_own_ids(tmp_path, algorithm):
    model, output = train_to(tmp_path, algorithm)
    assert model["algorithm"] == algorithm
    processor = spm.SentencePieceProcessor(model_proto=base64.b64decode(model["model_proto"]))
    # the printed pieces are the model's, by id, with the library's scores
    assert model["vocab_size"] == processor.get_piece_size() == len(model["pieces"])
    assert model["pieces"] == [[processor.id_to_piece(i), processor.get_score(i)]
                               for i in range(processor.get_piece_size())]
    # and they are what the library learns when it trains on the same lines itself
    direct = library_training(algorithm.removeprefix("sentencepiece-"), 1200)
    assert model["pieces"] == [[direct.id_to_piece(i), direct.get_score(i)]
                               for i in range(direct.get_piece_size())]
    encoded = ok_json("encode", "--tokenizer", "model", "--model", str(output), stdin=TEXT.encode())
    tokens = encoded["tokens"]
    assert [t["id"] for t in tokens] == processor.encode(TEXT) == direct.encode(TEXT)
    assert b"".join(bytes.fromhex(t["hex"]) for t in tokens) == TEXT.encode()
    assert processor.decode([t["id"] for t in tokens]) == TEXT


def test_sentencepiece_unigram_scores_are_log_probabilities_and_bpe_scores_merge_order(tmp_path):
    unigram, _ = train_to(tmp_path, "sentencepiece-unigram")
    learned = [score for piece, score in unigram["pieces"][261:]]  # after specials, \n, bytes
    assert all(score < 0 for score in learned)
    bpe, _ = train_to(tmp_path, "sentencepiece-bpe")
    learned = [score for piece, score in bpe["pieces"][261:]]
    assert learned == sorted(learned, reverse=True)  # merged earlier, scored higher


@pytest.mark.parametrize("train_args", [
    ["--algorithm", "bpe", "--level", "word", "--merges", "40"],
    ["--algorithm", "bpe", "--level", "sentence", "--merges", "40"],
    ["--algorithm", "bpe", "--level", "byte", "--merges", "40"],
    ["--algorithm", "wordpiece", "--merges", "40"],
    ["--algorithm", "unigram", "--vocab-size", "700"],
    ["--algorithm", "unigram", "--level", "sentence", "--vocab-size", "700"],
    ["--algorithm", "sentencepiece-unigram", "--vocab-size", "1200"],
    ["--algorithm", "sentencepiece-bpe", "--vocab-size", "1200"],
])
def test_encode_reads_every_model_file_train_writes(tmp_path, train_args):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(CORPUS, encoding="utf-8")
    output = tmp_path / "model.json"
    ok_json("train", *train_args, "--output", str(output), str(corpus))
    text = "the tokens of a text"
    tokens = ok_json("encode", "--tokenizer", "model", "--model", str(output),
                     stdin=text.encode())["tokens"]
    assert tokens and tokens[0]["start"] == 0 and tokens[-1]["end"] == len(text)
    assert all(text.encode().find(bytes.fromhex(t["hex"])) >= 0 for t in tokens)


@pytest.mark.parametrize("args, message", [
    (["--vocab-size", "1200", "--merges", "5"], "--merges is not for sentencepiece-bpe"),
    (["--vocab-size", "1200", "--level", "byte"], "--level is not for sentencepiece-bpe"),
    (["--vocab-size", "1200", "--counts"], "--counts is not for sentencepiece-bpe"),
    ([], "needs --vocab-size N"),
    (["--vocab-size", "0"], "outside 1 to 50,000"),
    (["--vocab-size", "20"], "Vocabulary size is smaller than required_chars"),
])
def test_sentencepiece_bad_arguments_are_one_error_line(args, message):
    result = run("train", "--algorithm", "sentencepiece-bpe", *args, "-", stdin=CORPUS.encode())
    assert result.returncode == 1 and result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines


def edited_pieces(model: dict) -> dict:
    return {**model, "pieces": [["<pad>", 0.0], *model["pieces"][2:]]}


@pytest.mark.parametrize("edit, message", [
    (edited_pieces, "pieces are not its model_proto's own"),
    (lambda m: {**m, "model_proto": "not base64!"}, "not a SentencePiece model in base64"),
    (lambda m: {**m, "model_proto": base64.b64encode(b"garbage").decode()},
     "not a SentencePiece model in base64"),
    (lambda m: {**m, "algorithm": "sentencepiece-bpe"}, "its model_proto is a unigram model"),
    (lambda m: {k: v for k, v in m.items() if k != "model_proto"}, "no 'model_proto'"),
])
def test_an_edited_sentencepiece_model_file_is_refused(tmp_path, edit, message):
    model, output = train_to(tmp_path, "sentencepiece-unigram")
    output.write_text(json.dumps(edit(model)), encoding="utf-8")
    result = run("encode", "--tokenizer", "model", "--model", str(output), stdin=b"hello")
    assert result.returncode == 1 and b"Traceback" not in result.stderr
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and message in lines[0], lines
