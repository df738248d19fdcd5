"""`pip install .` (issue 21): the wheel pyproject.toml describes holds the core, its data and a
`tokex` command that answers as `python -m tokenizer_core` does, run from outside the checkout.

Built offline: no build isolation (setuptools from requirements-dev.txt), no index, no
dependencies installed (the test's own environment has them)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# What the package is built from: the rest of the checkout (app, pages, ui, tests) stays out.
SOURCES = ("pyproject.toml", "requirements.txt", "README.md", "tokenizer_core", "data")
TEXT = "Tokens, 分词器 and emoji 🙂: one pass.\n"
ARGS = ["count", "--tokenizer", "gpt2", "--tokenizer", "o200k_base", "--tokenizer",
        "lg:bpe-en-zh", "-"]  # lg:bpe-en-zh trains on the built-in samples: data/ must be there


def run(command: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    # the run's own store (tests/conftest.py): what one of the two trains, the other reads
    return subprocess.run(command, cwd=cwd, input=TEXT.encode(), capture_output=True,
                          timeout=300, env={**os.environ, **env})


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The package built as a wheel from a copy of its sources and installed into a folder."""
    root = tmp_path_factory.mktemp("install")
    source = root / "source"
    source.mkdir()
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    built = run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                 "-w", str(root / "wheel"), str(source)], root)
    assert built.returncode == 0, built.stderr.decode()[-3000:]
    (wheel,) = (root / "wheel").glob("*.whl")
    done = run([*pip, "install", "--no-deps", "--no-index", "--target", str(root / "site"),
                str(wheel)], root)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    return root


def test_the_wheel_holds_the_core_and_every_data_file(installed):
    package = installed / "site" / "tokenizer_core"
    assert (package / "cli.py").is_file() and (package / "trainers" / "bpe.py").is_file()
    ours = {p.relative_to(REPO / "data") for p in (REPO / "data").rglob("*") if p.is_file()}
    theirs = {p.relative_to(package / "data") for p in (package / "data").rglob("*")
              if p.is_file()}
    assert ours and theirs == ours
    assert not (installed / "site" / "ui").exists() and not (installed / "site" / "data").exists()


def test_tokex_answers_as_python_m_tokenizer_core(installed):
    elsewhere = installed / "elsewhere"  # not the checkout: nothing is found by accident
    elsewhere.mkdir()
    tokex = run([str(installed / "site" / "bin" / "tokex"), *ARGS], elsewhere,
                PYTHONPATH=str(installed / "site"))
    assert tokex.returncode == 0, tokex.stderr.decode()
    module = run([sys.executable, "-m", "tokenizer_core", *ARGS], REPO)
    assert module.returncode == 0, module.stderr.decode()
    answer = json.loads(tokex.stdout)
    assert answer == json.loads(module.stdout)
    assert answer["characters"] == len(TEXT) and answer["bytes"] == len(TEXT.encode())
    where = run([sys.executable, "-c", "import tokenizer_core; print(tokenizer_core.__file__)"],
                elsewhere, PYTHONPATH=str(installed / "site"))
    assert Path(where.stdout.decode().strip()).is_relative_to(installed / "site")


def test_tokex_says_one_error_line_for_bad_input(installed):
    bad = run([str(installed / "site" / "bin" / "tokex"), "count", "--tokenizer", "no-such",
               "-"], installed, PYTHONPATH=str(installed / "site"))
    assert bad.returncode == 1 and bad.stdout == b""
    lines = bad.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
