"""Server time per step change on the Merge steps page, and what the first view of a corpus costs.

    python benchmarks/bench_merge_steps.py [--repeats 15]

A step change is what the server does when the player settles on a step (a click, a pause): one
rerun of the page with the training cached. Playing runs in the browser and costs no server time
at all. Measured with Streamlit's AppTest on the real app, the way the page tests drive it:
  step change   median (and max) of `repeats` reruns, each to a different step, after warm-up;
                the whole rerun: widgets, the cached trace, the overview chart, the merges table
  first view    the first run on a corpus: training with candidates and history, telling every
                step, building the trace sent to the browser (cold caches)
  trace         size of the JSON the player receives once per corpus
Corpora: the five classroom presets at their own levels, two samples at the byte level, and a
2,000-word corpus (the first 2,000 words of Python's own documentation, `pydoc_data.topics`)
at the word and byte levels. Target: a step change under 0.1 s (DESIGN.md, Budgets).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import streamlit as st  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from tokenizer_core.samples import english_reference_corpus, presets

REPO = Path(__file__).resolve().parent.parent
PAGE = "pages/merge_steps.py"
TARGET_S = 0.1


def two_thousand_words() -> str:
    words = english_reference_corpus().split()[:2_000]
    return "\n".join(" ".join(words[i : i + 12]) for i in range(0, len(words), 12))


def cases() -> list[tuple[str, dict[str, object]]]:
    rows: list[tuple[str, dict[str, object]]] = []
    for preset in presets():
        rows.append((preset.title, {"ms_source": f"preset:{preset.id}", "ms_level": preset.level,
                                    "ms_merges": preset.merges}))
    for name in ("english", "chinese"):
        rows.append((f"sample: {name}", {"ms_source": f"sample:{name}", "ms_level": "byte",
                                         "ms_merges": 60}))
    text = two_thousand_words()
    for level, merges in (("word", 100), ("word", 500), ("byte", 500)):
        rows.append(("2,000 words", {"ms_source": "own", "ms_text": text, "ms_level": level,
                                     "ms_merges": merges}))
    return rows


def fresh_app() -> AppTest:
    st.cache_data.clear()
    st.cache_resource.clear()
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=300)
    app.switch_page(PAGE)
    return app


def measure(state: dict[str, object], repeats: int) -> dict[str, object]:
    app = fresh_app()
    for key, value in state.items():
        app.session_state[key] = value
    start = time.perf_counter()
    app.run()
    first_view = time.perf_counter() - start
    if app.exception:
        raise RuntimeError([e.value for e in app.exception])
    (player,) = app.get("bidi_component")
    data = json.loads(player.proto.json)
    steps = len(json.loads(data["trace"])["steps"])
    times = []
    for i in range(repeats + 2):
        app.session_state["ms_step"] = (i * 7 + 1) % (steps + 1)
        start = time.perf_counter()
        app.run()
        if i >= 2:  # the first two reruns warm up what the first view did not touch
            times.append(time.perf_counter() - start)
    return {
        "level": state["ms_level"], "merges": state["ms_merges"], "steps": steps,
        "trace_kb": len(player.proto.json.encode("utf-8")) / 1024, "first_view": first_view,
        "median": statistics.median(times), "max": max(times),
    }


def main() -> None:
    from streamlit.logger import set_log_level

    # AppTest runs the app without a server, and Streamlit warns about that on every run.
    set_log_level("error")
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    print(f"Merge steps page, Python {platform.python_version()}, {platform.machine()}, "
          f"{args.repeats} step changes per corpus (AppTest reruns of the real app)\n")
    print("| corpus | level | merges | steps | trace sent (KB) | first view (s) | step change, median (s) | max (s) | under 0.1 s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|:---:|")
    for name, state in cases():
        r = measure(state, args.repeats)
        ok = "yes" if r["median"] < TARGET_S else "NO"
        print(f"| {name} | {r['level']} | {r['merges']} | {r['steps']} | {r['trace_kb']:.0f} | "
              f"{r['first_view']:.2f} | {r['median']:.3f} | {r['max']:.3f} | {ok} |")


if __name__ == "__main__":
    main()
