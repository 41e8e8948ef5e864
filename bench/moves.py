"""A few pages' moves in Chromium, in one run: ``python -m bench.moves rope attention rope-d --repeats 12``.

The browser table of ``python -m bench.run --only browser`` visits every page twice (post-rerun gc off and on) and
takes a quarter of an hour on a quiet machine; this one times only the moves named, once, on a server it starts from
this checkout (gc off, as deployed), so a change to one page can be read against another page in the same run (the
machines are shared: compare within a run, never across runs). A move is a page's own (named by its url path) or
one of ``bench.interactions.MOVES`` (a page's second control; a page with the real model picked, as in
``llama-smollm2-135m``): untimed once, then ``--repeats`` times on the browser's own clock
(``bench.common.MOVE_CLOCK``: the press to the main area's last change). Prints drawn p50 and p95 per move.
"""

from __future__ import annotations

import argparse
import statistics

from bench.common import CHROMIUM_ARGS, find_chromium, free_port, goto, start_server, time_moves
from bench.interactions import ROUTES


def measure(names: list[str], repeats: int) -> dict[str, list[float]]:
    """Drawn ms of ``repeats`` moves of each of ``names`` (``bench.interactions.ROUTES``: a page's own move under
    its url path, or a further move with its page and query), in one browser, on one fresh server."""
    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("Debian's chromium is not installed (apt-get install chromium)")
    port = free_port()
    proc = start_server(port, ["--runner.postScriptGC", "false"])
    out: dict[str, list[float]] = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            goto(page, f"http://127.0.0.1:{port}/")
            for name in names:
                path, move = ROUTES[name]
                goto(page, f"http://127.0.0.1:{port}/{path}")
                out[name] = time_moves(page, move, repeats)[1]
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("moves", nargs="+", choices=sorted(ROUTES), metavar="MOVE")
    ap.add_argument("--repeats", type=int, default=12)
    args = ap.parse_args()
    for name, drawn in measure(args.moves, args.repeats).items():
        s = sorted(drawn)
        p95 = s[min(len(s) - 1, int(0.95 * len(s)))] if s else float("nan")
        print(f"{name}: drawn p50 {statistics.median(s) if s else float('nan'):.0f} ms, p95 {p95:.0f} ms (n={len(s)})")


if __name__ == "__main__":
    main()
