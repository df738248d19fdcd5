"""The shipped .streamlit/config.toml is read by Streamlit as meant (issue 15: a class at once).

A misspelt option or one in the wrong table is ignored by Streamlit with at most a log line, so
each setting that a lecture hall depends on is read back through Streamlit's own config loader,
in a process of its own with a HOME of its own (no user config can hide a mistake).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

READ_BACK = """
import json
from streamlit import config
config.get_config_options(force_reparse=True)
names = ["server.fileWatcherType", "runner.postScriptGC", "server.headless",
         "browser.gatherUsageStats", "browser.serverAddress", "server.maxUploadSize"]
print(json.dumps({n: config.get_option(n) for n in names}))
"""


def read_config(tmp_path: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    env["HOME"] = str(tmp_path)
    done = subprocess.run([sys.executable, "-c", READ_BACK], cwd=REPO, env=env,
                          capture_output=True, text=True, check=True, timeout=60)  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_class_of_sessions_costs_no_file_watchers_and_no_forced_collections(tmp_path):
    options = read_config(tmp_path)
    # Each session would watch ~70 modules and re-resolve their paths after every run.
    assert options["server.fileWatcherType"] == "none"
    # A full gc.collect(2) after every run of every session, holding the interpreter lock.
    assert options["runner.postScriptGC"] is False


def test_the_privacy_and_upload_settings_still_hold(tmp_path):
    options = read_config(tmp_path)
    assert options["server.headless"] is True
    assert options["browser.gatherUsageStats"] is False
    assert options["browser.serverAddress"] == "localhost"
    # The ceiling is the largest upload bound (issue 23 item 12: it was 5 MB while a
    # tokenizer.json may have 20,000,000 bytes, and DeepSeek-V4's own 6.4 MB was refused).
    largest = max(upload_bounds().values())
    ceiling = options["server.maxUploadSize"] * 2**20  # Streamlit's MB
    assert ceiling >= largest > ceiling - 2**20, (options["server.maxUploadSize"], largest)


def upload_bounds() -> dict[str, int]:
    """Every uploader's own bound in bytes, by its name in ui/*/limits.py."""
    import importlib

    bounds = {}
    for path in sorted((REPO / "ui").glob("*/limits.py")):
        module = importlib.import_module(f"ui.{path.parent.name}.limits")
        for name, value in vars(module).items():
            if name.startswith("MAX_") and name.endswith("_BYTES") and (
                    "UPLOAD" in name or name in ("MAX_TOKENIZER_JSON_BYTES", "MAX_CORPUS_BYTES",
                                                 "MAX_LESSON_FILE_BYTES")):
                bounds[f"{path.parent.name}.{name}"] = value
    return bounds


def test_the_upload_bounds_are_all_found():
    names = upload_bounds()
    assert {"common.MAX_TOKENIZER_JSON_BYTES", "common.MAX_LESSON_FILE_BYTES",
            "playground.MAX_UPLOAD_BYTES"} <= set(names)
