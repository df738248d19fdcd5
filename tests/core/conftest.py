"""Fixtures the core tests share."""

import pytest

from tests.shared import core


@pytest.fixture(scope="session")
def gpt2():
    """Our byte-level encoder over GPT-2's real ranks (core:gpt2), loaded once."""
    return core("gpt2")
