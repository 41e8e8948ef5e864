"""A few pages' moves in Chromium, in one run: ``python -m bench.moves rope attention rope-d --repeats 12``.

The browser table of ``python -m bench.run --only browser`` visits every page twice (post-rerun gc off and on) and
takes a quarter of an hour on a quiet machine; this one times only the moves named, once, on a server it starts from
this checkout (gc off, as deployed), so a change to one page can be read against another page in the same run (the
machines are shared: compare within a run, never across runs). A move is a page's own (named by its url path) or
one of ``bench.interactions.MOVES`` (a page's second control; a page with the real model picked, as in
``llama-smollm2-135m``): untimed once, then ``--repeats`` times on the browser's own clock
(``bench.common.MOVE_CLOCK``: the press to the main area's last change). Prints drawn p50 and p95 per move.

``--against DIR`` also starts a server from another checkout (the code before a change: ``git worktree add DIR
<commit>``, with this checkout's bench/ copied in where the move names are new) and alternates the moves, one here,
one there, each round in turned order, in two tabs of one browser: the machine's load then falls on both alike,
which two runs one after the other on a shared machine did not (the same unchanged page moved by 1.5× between them).
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from bench.common import (
    CHROMIUM_ARGS,
    arm_move_clock,
    find_chromium,
    free_port,
    goto,
    move_drawn_ms,
    start_server,
    time_moves,
)
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


def measure_against(names: list[str], repeats: int, other: Path):
    """Drawn ms of each of ``names`` here and on a server started from the checkout ``other``, yielded as each is
    done: (name, here, there), the moves alternating between two tabs of one browser, each round in turned order;
    a move that fails (a first visit past its timeout on a busy machine) yields its error and the others go on."""
    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("Debian's chromium is not installed (apt-get install chromium)")
    ports = free_port(), free_port()
    procs = [start_server(ports[0], ["--runner.postScriptGC", "false"])]
    try:
        procs.append(start_server(ports[1], ["--runner.postScriptGC", "false"], root=other))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            tabs = [browser.new_page(viewport={"width": 1400, "height": 1000}) for _ in ports]
            for tab, port in zip(tabs, ports):
                goto(tab, f"http://127.0.0.1:{port}/")
            for name in names:
                path, move = ROUTES[name]
                drawn: tuple[list[float], list[float]] = ([], [])
                try:
                    for tab, port in zip(tabs, ports):
                        goto(tab, f"http://127.0.0.1:{port}/{path}")
                        tab.bring_to_front()
                        move(tab, 0)  # untimed, as time_moves does
                    for i in range(1, repeats + 1):
                        for side in (0, 1) if i % 2 else (1, 0):
                            tabs[side].bring_to_front()
                            arm_move_clock(tabs[side])
                            move(tabs[side], i)
                            ms = move_drawn_ms(tabs[side])
                            if ms is not None:
                                drawn[side].append(ms)
                except Exception as exc:  # noqa: BLE001 (reported, and the other moves still run)
                    yield name, exc, None
                    continue
                yield name, *drawn
            browser.close()
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=30)


def _stats(drawn: list[float]) -> tuple[float, float]:
    s = sorted(drawn)
    if not s:
        return float("nan"), float("nan")
    return statistics.median(s), s[min(len(s) - 1, int(0.95 * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("moves", nargs="+", choices=sorted(ROUTES), metavar="MOVE")
    ap.add_argument("--repeats", type=int, default=12)
    ap.add_argument("--against", type=Path, help="another checkout whose server the moves alternate with")
    args = ap.parse_args()
    if args.against is not None:
        for name, here, there in measure_against(args.moves, args.repeats, args.against.resolve()):
            if there is None:
                print(f"{name}: failed: {here!r}"[:300], flush=True)
                continue
            (p50, p95), (q50, q95) = _stats(here), _stats(there)
            print(
                f"{name}: drawn p50 {p50:.0f} ms here against {q50:.0f} there (×{p50 / q50:.2f}), "
                f"p95 {p95:.0f} against {q95:.0f} (n={len(here)}, {len(there)})",
                flush=True,
            )
        return
    for name, drawn in measure(args.moves, args.repeats).items():
        p50, p95 = _stats(drawn)
        print(f"{name}: drawn p50 {p50:.0f} ms, p95 {p95:.0f} ms (n={len(drawn)})")


if __name__ == "__main__":
    main()
