"""The core's refusals carry their sentence and values apart (so the interface can say them in
its language), and read as the English sentence everywhere else."""

from __future__ import annotations

import io
import json

import pytest

from tokenizer_core.messages import Refusal
from ui.common.data_strings import extract_json


def test_a_refusal_reads_as_its_english_sentence_with_numbers_grouped():
    error = Refusal("{name} is {size} bytes, over its bound of {limit}", name="a.txt",
                    size=25_000_000, limit=20_000_000)
    assert str(error) == "a.txt is 25,000,000 bytes, over its bound of 20,000,000"
    assert error.template == "{name} is {size} bytes, over its bound of {limit}"
    assert error.values == {"name": "a.txt", "size": 25_000_000, "limit": 20_000_000}


def test_a_refusal_is_a_value_error_for_every_caller_that_catches_those():
    with pytest.raises(ValueError, match="bound of 3"):
        raise Refusal("over the bound of {limit}", limit=3)


def test_a_refusal_keeps_user_text_and_booleans_as_they_are():
    # user text with braces is a value, never parsed as a template
    assert str(Refusal("no token {text}", text="{x}", flag=True)) == "no token {x}"


def test_the_data_extractor_reads_only_the_fields_a_person_reads():
    data = {"id": "low", "title": "low, lower", "steps": [
        {"hint": "Count the pairs.", "text": "low low", "why": ""},
        {"hint": "Merge \"e s\" first."}]}
    raw = json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8")
    found = list(extract_json(io.BytesIO(raw), None, None, {"fields": "title hint why"}))
    assert [message for _, _, message, _ in found] == [
        "low, lower", "Count the pairs.", 'Merge "e s" first.']
    lines = raw.decode().splitlines()
    assert all(message.split()[0] in lines[line - 1] for line, _, message, _ in found)
