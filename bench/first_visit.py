"""A first visit to a page on a freshly started server, with the background warm-up on (what a reader meets after a
deploy): how long until the page is complete, and the longest silent stretch on the way — a time in which the page
drew no new element and showed no spinner, i.e. a blank area under what was already drawn.

    python -m bench.first_visit                          # the pages that were slowest on a first visit
    python -m bench.first_visit --pages mamba rope --out bench/first-visit

One fresh server per page (so every visit is a first one), Debian's Chromium, the page's state sampled every 100 ms
from the browser (a measurement, not a wait). Writes ``<out>.md`` and ``<out>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from bench.common import CHROMIUM_ARGS, IDLE, find_chromium, free_port, machine, now, start_server

PAGES = ("flash-attention", "mamba", "alignment", "rope", "mla")  # the slowest first visits measured before
SAMPLE_S = 0.1
LIMIT_S = 300.0

STATE = (
    "() => { const main = document.querySelector('[data-testid=\"stMain\"]'); return {"
    " elements: main ? main.querySelectorAll('[data-testid=\"stElementContainer\"]').length : 0,"
    " spinner: !!document.querySelector('[data-testid=\"stSpinner\"]'),"
    f" idle: !!document.querySelector({json.dumps(IDLE)}) }} }}"
)


def visit(browser, page: str) -> dict:
    """One first visit to ``page`` on a server started for it: seconds to complete, the longest silent stretch,
    whether a spinner was seen, and the server's load average at the end."""
    port = free_port()
    proc = start_server(port)  # the warm-up is on: models load in the background from the first page run
    tab = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        start = time.perf_counter()
        tab.goto(f"http://127.0.0.1:{port}/{page}?lang=en")
        last_change, silent, seen_spinner, previous = start, 0.0, False, None
        while True:
            state = tab.evaluate(STATE)
            t = time.perf_counter()
            seen_spinner |= state["spinner"]
            if state["spinner"] or (state["elements"], state["spinner"]) != previous:
                last_change = t
            previous = (state["elements"], state["spinner"])
            silent = max(silent, t - last_change)
            if (state["idle"] and state["elements"] > 0 and t - start > 1.0) or t - start > LIMIT_S:
                break
            tab.wait_for_timeout(SAMPLE_S * 1000)
        return {
            "page": page,
            "complete_s": round(t - start, 1),
            "longest_silent_s": round(silent, 1),
            "spinner_seen": seen_spinner,
            "load_average": round(os.getloadavg()[0], 1),
        }
    finally:
        tab.close()
        proc.terminate()
        proc.wait(timeout=30)


def table(rows: list[dict]) -> str:
    lines = [
        "| page | complete (s) | longest silent stretch (s) | spinner seen | load average at the end |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {r['page']} | {r['complete_s']} | {r['longest_silent_s']} | {'yes' if r['spinner_seen'] else 'no'} "
        f"| {r['load_average']} |"
        for r in rows
    ]
    return "\n".join(lines)


def main() -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", nargs="+", default=list(PAGES))
    ap.add_argument("--out", default="bench/first-visit")
    args = ap.parse_args()
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("Debian's chromium is not installed (apt-get install chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        rows = [visit(browser, page) for page in args.pages]
        browser.close()
    result = {"measured": now(), "machine": machine(), "cores": os.cpu_count(), "rows": rows}
    median_silent = statistics.median(r["longest_silent_s"] for r in rows)
    text = (
        f"# First visits on a fresh server, warm-up on\n\nMeasured {result['measured']} on {result['machine']} with "
        f"`python -m bench.first_visit --pages {' '.join(args.pages)}`. One fresh server per page; the page's state "
        f"sampled every {SAMPLE_S * 1000:.0f} ms. The load average (1 min) says how busy the machine was.\n\n"
        f"{table(rows)}\n\nMedian longest silent stretch: {median_silent} s.\n"
    )
    Path(f"{args.out}.md").write_text(text)
    Path(f"{args.out}.json").write_text(json.dumps(result, indent=1) + "\n")
    print(text)


if __name__ == "__main__":
    main()
