"""Time a Playground interaction on the server, and the app's cold start in a real browser.

    python benchmarks/bench_playground.py [--repeats 5] [--skip-browser]

1. Server work of one interaction, without Streamlit: tokenize 20,000 characters with three
   tokenizers (Token records with offsets), compute the stats table and round trips, mark
   disagreements between the first two, render each panel's HTML (bounded to 2,000 tokens).
2. The same through Streamlit's AppTest (the whole page script: widgets, caches, tables):
   first run with empty caches, then a rerun that only changes the view (cached tokens).
3. Cold start: `streamlit run app.py` on a free port, then Chromium (Debian's) from navigation
   to the first token panel drawn.
Budgets (DESIGN.md): interaction under 0.5 s of server time; cold start under 5 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from timing import median_seconds  # noqa: E402  (benchmarks/timing.py, beside this file)

from tokenizer_core import RenderOptions, load_tokenizer, render_tokens
from tokenizer_core.measure.boundaries import disagreements
from tokenizer_core.measure.metrics import round_trip, text_stats
from tokenizer_core.registry import core_tokenizer
from tokenizer_core.samples import english_reference_corpus, sample_text

CHARS = 20_000
BIG_CHARS = 100_000  # the Playground's bound on characters tokenized


def texts() -> dict[str, str]:
    mixed = "\n".join(sample_text(n) for n in ("english", "chinese", "code", "emoji"))
    return {
        "English (Python docs)": english_reference_corpus()[:CHARS],
        "mixed EN/ZH/code/emoji": (mixed * (CHARS // len(mixed) + 1))[:CHARS],
    }


def interaction(text: str, tokenizers: list) -> None:
    panels = [t.encode(text, disallowed_special=()) for t in tokenizers]
    for tokenizer, tokens in zip(tokenizers, panels):
        text_stats(text, tokens)
        round_trip(tokenizer, text, tokens)
    marks = disagreements(text, panels[0], panels[1])
    for tokens in panels:
        shown = tokens[:2000]
        render_tokens(text[: shown[-1].end], shown, RenderOptions(readout=True), marks)


def server_rows(repeats: int) -> list[str]:
    sets = {
        "gpt2, cl100k_base, o200k_base (tiktoken)": [load_tokenizer(n) for n in ("gpt2", "cl100k_base", "o200k_base")],
        "gpt2 (tiktoken), core:gpt2, core:o200k_base (ours)": [
            load_tokenizer("gpt2"), core_tokenizer("gpt2"), core_tokenizer("o200k_base")],
    }
    rows = []
    for text_name, text in texts().items():
        for set_name, tokenizers in sets.items():
            def cold() -> None:
                for t in tokenizers:
                    getattr(t, "_cache", {}).clear()  # our encoders' chunk cache: start cold
                interaction(text, tokenizers)
            rows.append(f"| {text_name} | {set_name} | {median_seconds(cold, repeats):.3f} |")
    return rows


def apptest_rows(repeats: int) -> list[str]:
    """The whole page script through AppTest: a new text, then a view switch and the
    disagreement toggle on the same text (tokens cached), at 20,000 and at 100,000 characters
    (the bound), with three tiktoken panels and with the default panels (GPT-2, o200k_base and
    our byte-level BPE, pure Python)."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    mixed = texts()["mixed EN/ZH/code/emoji"]
    rows = []
    for chars in (CHARS, BIG_CHARS):
        for tokenizers in ("gpt2,cl100k_base,o200k_base", "gpt2,o200k_base,ours:bpe"):
            first, view, diff = [], [], []
            for repeat in range(repeats):
                st.cache_data.clear()  # tokenizers stay loaded (a resource cache), as on a live server
                app = AppTest.from_file(str(REPO / "app.py"), default_timeout=300)
                app.query_params["tok"] = tokenizers
                app.run()
                # A text this server has not tokenized yet: the token lists are cached by text.
                text = (f"{repeat} " + mixed * (chars // len(mixed) + 1))[:chars]
                app.text_area(key="pg_text").set_value(text)
                first.append(timed_run(app))
                app.segmented_control(key="pg_view").set_value("ids")
                view.append(timed_run(app))
                app.toggle(key="pg_diff").set_value(not app.toggle(key="pg_diff").value)
                diff.append(timed_run(app))
            where = f"{chars:,} characters, {tokenizers}"
            rows += [
                f"| AppTest: new text, {where} | {statistics.median(first):.3f} |",
                f"| AppTest: switch view (tokens cached), {where} | {statistics.median(view):.3f} |",
                f"| AppTest: toggle disagreements, {where} | {statistics.median(diff):.3f} |",
            ]
    return rows


def timed_run(app) -> float:
    start = time.perf_counter()
    app.run()
    seconds = time.perf_counter() - start
    assert not app.exception, app.exception
    return seconds


def cold_start(repeats: int) -> str:
    import socket

    from playwright.sync_api import sync_playwright

    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    times = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=flags)
        for _ in range(repeats):
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
            server = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
                 "--server.address", "127.0.0.1", "--server.headless", "true"],
                cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            try:
                page = browser.new_page()
                deadline = time.time() + 60
                while time.time() < deadline:
                    try:
                        page.goto(f"http://127.0.0.1:{port}/_stcore/health")
                        break
                    except Exception:
                        time.sleep(0.1)
                start = time.perf_counter()
                page.goto(f"http://127.0.0.1:{port}/")
                page.locator(".tokview .tok").first.wait_for(timeout=60_000)
                times.append(time.perf_counter() - start)
                page.close()
            finally:
                server.terminate()
                server.wait()
        browser.close()
    return f"| cold start: navigate to first token panel drawn (fresh server each time) | {statistics.median(times):.2f} |"


def main() -> None:
    from streamlit.logger import set_log_level

    # AppTest runs the app without a server, and Streamlit warns about that on every run.
    set_log_level("error")
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--repeats", type=int, default=5)
    options.add_argument("--skip-browser", action="store_true")
    args = options.parse_args()
    print(f"medians of {args.repeats} runs, {CHARS:,} characters; seconds\n")
    print("| text | tokenizers | server work of one interaction |")
    print("|---|---|---:|")
    for row in server_rows(args.repeats):
        print(row, flush=True)
    print("\n| measured through Streamlit | seconds |")
    print("|---|---:|")
    for row in apptest_rows(args.repeats):
        print(row, flush=True)
    if not args.skip_browser:
        print(cold_start(args.repeats), flush=True)


if __name__ == "__main__":
    main()
