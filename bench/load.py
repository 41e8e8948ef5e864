"""Many readers at once against a real server, over Streamlit's own websocket protocol.

    python -m bench.load                          # one process; pages × N = 8, 32, 128; 10 s per point
    python -m bench.load --processes 2            # the same through deploy/launch.py (nginx, 2 processes)
    python -m bench.load --sessions 2 --seconds 3 --pages attention   # a smoke run (the tests run this)
    python -m bench.load --widget                 # each reader moves its page's slider (a fragment's rerun)

Each simulated reader is what a browser tab is to the server: it fetches the page (for the XSRF cookie, and nginx's
process cookie), opens ``/_stcore/stream`` with the ``streamlit`` subprotocol, and asks for a rerun of one page
(``BackMsg.rerun_script``), waits until the server says the script finished, thinks ``--think`` seconds, and asks
again — with the same widget values, so every rerun after the first finds the page's inputs in the caches
(cached inputs: the cost measured is the page's own rerun, not the model's forward). The
latency of a rerun is from the request to ``script_finished``. Only loopback addresses are accepted.

A point's window opens ``SETTLE_S`` (2 s) after every reader has drawn its page (that first run of a session is
set-up, not counted; the readers rerun meanwhile, not counted either, while the server clears what 128 first runs
left behind) and lasts ``--seconds``; each reader starts at a random moment within its first think time, so
readers are not in step (in step, N readers' reruns arrive together and queue behind each other at any load).

With ``--new-text``, each rerun after the first types a text never seen before into the page's text box (GPT's
``gpt_text``, MoE's ``moe_text``; the widget's id is read from the page the server sent), so nothing of the page's
input is in a cache: a "new-text rerun", the model's forward and every figure computed afresh.

With ``--widget``, each rerun after the first moves the page's slider (``WIDGETS``) between two values, as a
browser sends it: a slider inside a fragment reruns that fragment alone. The page ``empty`` (the shell around a page
that draws nothing, served when the server has ``TE_BENCH_EMPTY_PAGE=1``, which this benchmark sets) reruns whole:
the yardstick the pages' reruns are measured against. Opened as ``empty?bench_kind=KIND&bench_n=N`` it draws N
elements of one kind (a metric, a caption, a download button, a cached Plotly figure ...), so the same run measures
what one element of each kind adds to a rerun (``ELEMENTS_ARGS``, the last part of ``python -m bench.run --load``).

Reported per page and N: reruns per second (all sessions together), p50/p95/p99 latency, errors (a rerun that did
not finish successfully or drew an exception, a dropped connection, a timeout), and the server processes' resident
memory at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import os
import statistics
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import EMPTY, WIDGETS, machine, now, process_rss_mb

PAGES = (EMPTY, "", "attention", "gpt", "moe", "mamba")  # "" is home: the app shell with the lightest page
SESSIONS = (8, 32, 128)
NEW_TEXT = {"gpt": "gpt_text", "moe": "moe_text"}  # the text box --new-text types into, by page
# What a reader's link opens, by page: where a page shows one part at a time, the part its slider changes most (the
# forward pass's MLP step: the layer redraws it, and it is the step with the most elements)
QUERY = {"forward-pass": "forward_pass_step=mlp"}
WORDS = (
    "the king queen lord lady night day love death fair foul sword crown heart blood sweet gentle noble friend "
    "storm sea moon star grave honour fortune tongue eye hand word time world heaven earth fire"
).split()
TIMEOUT_S = 60.0  # one rerun that takes longer counts as an error
SETTLE_S = 2.0  # after every reader's first draw, reruns not counted before a point's window opens (Window)
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


@dataclass
class Point:
    """One page at one number of sessions."""

    latencies_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    moved: str = ""  # with --widget: the slider the readers moved, and whether it reran only its fragment
    cpu_s: float | None = None  # CPU time the server processes used while the window was open (None: not read)
    messages: list[int] = field(default_factory=list)  # per counted rerun: the page elements the server sent
    kilobytes: list[float] = field(default_factory=list)  # ... and the bytes of every message it sent, in kB


def address(page: str) -> tuple[str, str]:
    """The url path a reader of ``page`` opens and its link's query string: "empty?bench_kind=metric&bench_n=40" is
    the empty page with that query (``ELEMENTS_ARGS``); a page's ``QUERY`` comes first, then the query named with it
    ("forward-pass?forward_pass_model=smollm2-135m" opens the same step as "forward-pass", with the real model)."""
    path, _, query = page.partition("?")
    return path, "&".join(q for q in (QUERY.get(path, ""), query) if q)


def cookies(base: str) -> dict[str, str]:
    """The cookies a browser gets with the page: Streamlit's XSRF cookie, and nginx's process cookie if any."""
    with urllib.request.urlopen(base + "/", timeout=30) as r:
        jar = {}
        for header in r.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            jar[name.strip()] = rest.split(";")[0]
        return jar


def rerun_message(
    page: str,
    cached: set[str],
    text: tuple[str, str] | None = None,
    slider: tuple[str, float | str] | None = None,
    fragment: str = "",
    query: str = "",
) -> bytes:
    """A rerun of ``page``, naming the messages this reader already holds (as a browser does, so the server sends a
    reference instead of an unchanged element): with no widget changed, with ``text`` = (widget id, value) typed
    into a text box, or with ``slider`` = (widget id, value) moved (a select slider's value is the text of its
    option); ``fragment``, the id of the fragment the moved widget is in, asks for a rerun of that fragment alone;
    ``query`` is the link's query string."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg()
    msg.rerun_script.query_string = query
    msg.rerun_script.page_name = page
    msg.rerun_script.widget_states.SetInParent()
    if text is not None:
        state = msg.rerun_script.widget_states.widgets.add()
        state.id, state.string_value = text
    if slider is not None:
        state = msg.rerun_script.widget_states.widgets.add()
        state.id = slider[0]
        if isinstance(slider[1], str):  # a select slider sends the option's text
            state.string_array_value.data.append(slider[1])
        else:
            state.double_array_value.data.append(slider[1])
    msg.rerun_script.fragment_id = fragment
    msg.rerun_script.cached_message_hashes.extend(sorted(cached))
    return msg.SerializeToString()


def fresh_text(rng, n: int, reader: int) -> str:
    """Ten words, this reader's number and its count of texts: a text no earlier rerun of any reader has typed."""
    return " ".join(rng.choice(WORDS) for _ in range(10)) + f" {reader} {n}"


@dataclass
class Window:
    """The measured window of one point, shared by its readers. Every reader draws its page once (a session's first
    run, however long, is set-up, not a rerun: 128 first runs of a model page take longer than a point lasts); then
    they rerun for ``settle`` seconds, not counted, while the server clears what the first runs left (their garbage,
    the page's first collection); then the window opens and stays open ``seconds``."""

    sessions: int
    seconds: float
    settle: float = 0.0
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    arrived: int = 0
    opened: float = 0.0

    def arrive(self) -> None:
        self.arrived += 1
        if self.arrived == self.sessions:
            self.opened = time.monotonic() + self.settle
            self.ready.set()

    @property
    def until(self) -> float:
        return self.opened + self.seconds


@contextlib.asynccontextmanager
async def stream(base: str):
    """A websocket to the server's ``/_stcore/stream``, opened as a browser tab opens it: with the cookies the page
    sets (XSRF, and nginx's process cookie) and the ``streamlit`` subprotocol."""
    import websockets

    jar = await asyncio.to_thread(cookies, base)
    token = jar.get("_streamlit_xsrf", "")
    async with websockets.connect(
        base.replace("http://", "ws://", 1) + "/_stcore/stream",
        subprotocols=["streamlit", token] if token else ["streamlit"],
        additional_headers={"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())},
        max_size=None,
        compression=None,
    ) as ws:
        yield ws


async def reader(base: str, page: str, window: Window, think: float, point: Point, mode: str = "cached") -> None:
    """One simulated tab: draw ``page`` once, wait for the window to open and a random part of ``think`` (readers
    are not in step, as people are not), then rerun it until the window closes, recording each rerun's latency and
    thinking ``think`` seconds after each. With ``mode`` "new_text", every rerun types a fresh text into the page's
    text box; with "widget", every rerun moves the page's slider (``WIDGETS``) to its other value, rerunning only
    the fragment the slider is in, if it is in one; "cached" reruns with nothing changed."""
    import random

    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    done = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
    arrived = False
    try:
        async with stream(base) as ws:
            cached: set[str] = set()
            rng, found, n = random.Random(id(point) ^ id(ws)), None, 0
            path, query = address(page)
            key = {"new_text": NEW_TEXT, "widget": {p: w[0] for p, w in WIDGETS.items()}}.get(mode, {}).get(path)
            kinds = ("text_area", "text_input") if mode == "new_text" else ("slider",)
            while n == 0 or time.monotonic() < window.until:
                start, began = time.perf_counter(), time.monotonic()
                text = slider = None
                fragment = ""
                if n and found is not None:
                    if mode == "new_text":
                        text = (found[0], fresh_text(rng, n, id(ws)))
                    else:
                        value = WIDGETS[path][1][n % 2]
                        slider, fragment = (found[0], found[2][int(value)] if found[2] else value), found[1]
                await ws.send(rerun_message(path, cached, text, slider, fragment, query))
                status, deltas, size = None, 0, 0
                while status is None:
                    raw = await asyncio.wait_for(ws.recv(), TIMEOUT_S)
                    if isinstance(raw, str):
                        continue
                    msg = ForwardMsg.FromString(raw)
                    size += len(raw)
                    deltas += msg.WhichOneof("type") == "delta"
                    if msg.hash and msg.WhichOneof("type") == "delta":
                        cached.add(msg.hash)
                    if msg.WhichOneof("type") == "delta" and msg.delta.new_element.WhichOneof("type") == "exception":
                        exc = msg.delta.new_element.exception
                        # the run finished, the page did not
                        point.errors.append(f"an exception drawn on {page}: {exc.type}: {exc.message}"[:300])
                    if key and msg.WhichOneof("type") == "delta":
                        element = msg.delta.new_element
                        kind = element.WhichOneof("type")
                        if kind in kinds and getattr(element, kind).id.endswith(key):
                            widget = getattr(element, kind)
                            # a select slider's options, as the text it sends back (none for other widgets)
                            options = (
                                tuple(widget.options)
                                if kind == "slider" and widget.type == widget.SELECT_SLIDER
                                else ()
                            )
                            found = (widget.id, msg.delta.fragment_id, options)
                            if mode == "widget":
                                point.moved = key + (" (fragment)" if found[1] else " (whole page)")
                    # a run that ended early for a rerun (a callback's st.rerun of several fragments, as GPT's
                    # sampling controls') is followed by that rerun: the rerun's own end is what this one waits for
                    if (
                        msg.WhichOneof("type") == "script_finished"
                        and msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
                    ):
                        status = msg.script_finished
                if key and found is None:
                    point.errors.append(f"no widget {key} on {page}")
                    return
                if status not in done:
                    point.errors.append(f"script finished with status {status}")
                if n == 0:  # the page's first draw: set-up
                    window.arrive()
                    arrived = True
                    await asyncio.wait_for(window.ready.wait(), TIMEOUT_S * 5)
                    await asyncio.sleep(rng.uniform(0, think))
                else:
                    if status in done and began >= window.opened:  # a rerun that began in the window
                        point.latencies_ms.append((time.perf_counter() - start) * 1e3)
                        point.messages.append(deltas)
                        point.kilobytes.append(size / 1e3)
                    await asyncio.sleep(think)
                n += 1
    except Exception as exc:  # a dropped connection or a timeout is an error of this point, not of the benchmark
        point.errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        if not arrived:  # the others need not wait for a reader that failed before its first draw
            window.arrive()


async def server_cpu(window: Window, pids: list[int], point: Point) -> None:
    """The CPU time the server processes use while ``window`` is open, into ``point.cpu_s``."""
    await window.ready.wait()
    await asyncio.sleep(max(0.0, window.opened - time.monotonic()))
    before = cpu_seconds(pids)
    await asyncio.sleep(max(0.0, window.until - time.monotonic()))
    point.cpu_s = cpu_seconds(pids) - before


async def measure(
    base: str,
    page: str,
    sessions: int,
    seconds: float,
    think: float,
    mode: str = "cached",
    pids: list[int] | None = None,
) -> tuple[Point, float]:
    """``sessions`` readers of ``page``; returns their reruns and how long the window was open (until the last
    reader finished its last rerun). With ``pids``, also the CPU time those server processes used in the window."""
    point = Point()
    window = Window(sessions, seconds, SETTLE_S)
    watch = [server_cpu(window, pids, point)] if pids else []
    await asyncio.gather(*(reader(base, page, window, think, point, mode) for _ in range(sessions)), *watch)
    return point, (time.monotonic() - window.opened) if window.opened else 0.0


def _in_own_loop(coro):
    """Run ``coro`` to the end in a fresh event loop on a worker thread: the caller's thread may already run one
    (Playwright's sync API does, in the e2e tests)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def summary(point: Point, wall_s: float) -> dict:
    lat = point.latencies_ms
    return {
        "reruns": len(lat),
        "reruns_per_s": round(len(lat) / wall_s, 1) if wall_s > 0 else 0.0,
        "moved": point.moved,
        "p50_ms": round(statistics.median(lat), 1) if lat else None,
        "p95_ms": round(percentile(lat, 95), 1) if lat else None,
        "p99_ms": round(percentile(lat, 99), 1) if lat else None,
        # the server's CPU time per rerun of the window (at saturation, what one rerun costs the server; below it,
        # idle work between reruns counts too)
        "cpu_ms_per_rerun": round(point.cpu_s * 1e3 / len(lat), 1) if lat and point.cpu_s is not None else None,
        # what one rerun sends: page elements (a fragment's rerun sends only its own), and all its messages' size
        "messages_per_rerun": statistics.median_low(point.messages) if point.messages else None,
        "kb_per_rerun": round(statistics.median(point.kilobytes), 1) if point.kilobytes else None,
        "errors": len(point.errors),
        "first_error": point.errors[0] if point.errors else None,
    }


def rss_mb(pids: list[int]) -> float:
    return round(sum(process_rss_mb(p) for p in pids), 1)


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time the processes have used so far (Linux ``/proc``; 0 where it cannot be read)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def until_quiet(pids: list[int], busy: float = 0.05, longest: float = 60.0) -> float:
    """Wait until the server processes use less than ``busy`` of a core over half a second (they are done with the
    previous point: 128 sessions closing, their reruns and garbage), at most ``longest`` seconds; returns the wait.
    A point that began while the last one's 128 sessions were still being torn down measured that, not its page."""
    start = time.monotonic()
    while time.monotonic() - start < longest:
        before = cpu_seconds(pids)
        time.sleep(0.5)
        if cpu_seconds(pids) - before < busy * 0.5:
            break
    return time.monotonic() - start


def run(
    pages=PAGES,
    sessions=SESSIONS,
    seconds: float = 10.0,
    think: float = 0.5,
    processes: int = 0,
    mode: str = "cached",
) -> dict:
    """Serve the pages and measure every (page, readers) point (``_run``), with the caller's environment put back
    afterwards (the servers inherit what the run sets)."""
    with restored_environment("TE_WARM_UP", "TE_BENCH_EMPTY_PAGE"):
        return _run(pages, sessions, seconds, think, processes, mode)


def _run(pages, sessions, seconds: float, think: float, processes: int, mode: str) -> dict:
    """Start a server (one Streamlit process, or ``processes`` behind nginx), warm each page once, then measure each
    page at each number of sessions."""
    from app.shared.services import SWITCH_INTERVAL_S

    results: dict = {
        "machine": machine(),
        "when": now(),
        "seconds_per_point": seconds,
        "think_s": think,
        "processes": processes or 1,
        "mode": mode,
        "via": "nginx" if processes else "direct",
        "nodelay": os.environ.get("TE_NODELAY", "1") != "0",
        "switch_interval_ms": float(os.environ.get("TE_SWITCH_INTERVAL_MS", SWITCH_INTERVAL_S * 1e3)),
        "pages": {},
    }
    # Each page is warmed by the benchmark itself (one rerun per process before measuring); the app's background
    # warm-up of every model would otherwise still be loading during the first points. TE_BENCH_EMPTY_PAGE: the shell
    # around an empty page, the yardstick of a page's rerun. (The servers inherit both; main() puts them back.)
    os.environ["TE_WARM_UP"] = "0"
    os.environ["TE_BENCH_EMPTY_PAGE"] = "1"
    if processes:
        from deploy import launch

        cluster = launch.start(processes, launch.free_port())
        base, pids, stop = cluster.url, [p.pid for p in cluster.procs[:-1]], cluster.stop
    else:
        from bench.common import free_port, start_server

        port = free_port()
        proc = start_server(port)
        base, pids = f"http://127.0.0.1:{port}", [proc.pid]

        def stop():
            proc.terminate()
            proc.wait(timeout=30)

    if urllib.parse.urlparse(base).hostname not in LOOPBACK:
        raise ValueError(f"bench.load runs on loopback only, not {base}")
    try:
        for page in pages:
            # warm: each process runs the page, and with --widget computes what each of the slider's values shows
            warm = "widget" if mode == "widget" else "cached"
            _in_own_loop(measure(base, page, max(1, processes), 3.0 if warm == "widget" else 0.1, 0.0, warm))
            for n in sessions:
                until_quiet(pids)
                point, wall = _in_own_loop(measure(base, page, n, seconds, think, mode, pids))
                results["pages"].setdefault(page or "home", {})[str(n)] = summary(point, wall)
                print(page or "home", n, results["pages"][page or "home"][str(n)], flush=True)
        results["server_rss_mb"] = rss_mb(pids)
    finally:
        stop()
    return results


def table(results: dict) -> str:
    lines = [
        f"Measured on: {results['machine']} — {results['when']}; {results['processes']} Streamlit process(es), "
        f"{results['via']}; {results['seconds_per_point']:g} s per point, each session rerunning its page then "
        f"waiting {results['think_s']:g} s"
        + ("; a new text typed for every rerun" if results.get("mode") == "new_text" or results.get("new_text") else "")
        + (
            "; each rerun after the first moves the page's slider (a page without one reruns whole)"
            if results.get("mode") == "widget"
            else ""
        )
        + f"; server RSS at the end {results.get('server_rss_mb')} MB; "
        f"TCP_NODELAY {'on' if results.get('nodelay', False) else 'off'}, switch interval "
        f"{results.get('switch_interval_ms', 5.0):g} ms.",
        "",
        "| page | moved | sessions | reruns/s | p50 ms | p95 ms | p99 ms | errors | p50 ÷ empty page's "
        "| server CPU ms per rerun | ÷ empty page's | elements sent per rerun | kB per rerun |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    empty = results["pages"].get(EMPTY, {})

    def against(s: dict, n: str, key: str) -> str:
        yardstick = (empty.get(n) or {}).get(key)
        return f"{s[key] / yardstick:.2f}" if yardstick and s.get(key) else "—"

    for page, points in results["pages"].items():
        for n, s in points.items():
            moved = s.get("moved") or "—"
            cpu = s.get("cpu_ms_per_rerun")
            cells = (
                *(page, moved, n, s["reruns_per_s"], s["p50_ms"], s["p95_ms"], s["p99_ms"], s["errors"]),
                *(against(s, n, "p50_ms"), "—" if cpu is None else cpu, against(s, n, "cpu_ms_per_rerun")),
                *("—" if s.get(k) is None else s[k] for k in ("messages_per_rerun", "kb_per_rerun")),
            )
            lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    per = per_element(results)
    if per:
        lines += [
            "",
            "One element more, server CPU per rerun (the page's minus the empty page's, divided by the elements it "
            "added): " + "; ".join(f"{kind} {ms:.3f} ms ({n} readers)" for (kind, n), ms in per.items()) + ".",
        ]
    return "\n".join(lines) + "\n"


def per_element(results: dict) -> dict[tuple[str, str], float]:
    """(kind, readers) -> the server CPU ms per rerun one element of that kind adds, from the empty page and the
    empty page drawing ``bench_n`` of them (``ELEMENTS_ARGS``) measured in the same run."""
    empty = results["pages"].get(EMPTY, {})
    out = {}
    for page, points in results["pages"].items():
        path, query = address(page)
        q = urllib.parse.parse_qs(query)
        if path != EMPTY or "bench_kind" not in q or not q.get("bench_n", [""])[0].isdigit():
            continue
        added = int(q["bench_n"][0])
        for n, s in points.items():
            base = (empty.get(n) or {}).get("cpu_ms_per_rerun")
            if added and base is not None and s.get("cpu_ms_per_rerun") is not None:
                out[q["bench_kind"][0], n] = (s["cpu_ms_per_rerun"] - base) / added
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", nargs="*", default=list(PAGES), help="url paths ('' or home for the home page)")
    ap.add_argument("--sessions", type=int, nargs="*", default=list(SESSIONS))
    ap.add_argument("--seconds", type=float, default=10.0, help="per point")
    ap.add_argument("--think", type=float, default=0.5, help="seconds each session waits between reruns")
    ap.add_argument("--processes", type=int, default=0, help="serve through deploy/launch.py with this many")
    ap.add_argument("--out", type=Path, default=None, help="write the JSON and the table here (.json, .md)")
    ap.add_argument("--nodelay", type=int, choices=(0, 1), default=1, help="0: keep Nagle on (Streamlit as it is)")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--new-text", action="store_true", help="type a fresh text each rerun (pages: gpt, moe)")
    how.add_argument("--widget", action="store_true", help="move each page's slider every rerun (WIDGETS)")
    ap.add_argument("--switch-interval-ms", type=float, default=None, help="the server's (default: the app's 1 ms)")
    args = ap.parse_args(argv)
    with restored_environment("TE_NODELAY", "TE_SWITCH_INTERVAL_MS"):
        return _main(ap, args)


@contextlib.contextmanager
def restored_environment(*names: str):
    """Put back these environment variables as they were: the benchmark sets them for the servers it starts, and
    it also runs inside the test process, whose later servers must not inherit them (a server without its warm-up
    and with the benchmark's empty page)."""
    before = {name: os.environ.get(name) for name in names}
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _main(ap: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    os.environ["TE_NODELAY"] = str(args.nodelay)  # read by deploy.serve in the server processes
    if args.switch_interval_ms is not None:
        os.environ["TE_SWITCH_INTERVAL_MS"] = str(args.switch_interval_ms)  # read by the app's entry point
    pages = ["" if p in ("", "home") else p for p in args.pages]
    if args.new_text and set(pages) - NEW_TEXT.keys():
        ap.error(f"--new-text needs pages with a text box: {', '.join(NEW_TEXT)}")
    mode = "new_text" if args.new_text else "widget" if args.widget else "cached"
    results = run(pages, args.sessions, args.seconds, args.think, args.processes, mode)
    text = table(results)
    if args.out is not None:
        args.out.with_suffix(".json").write_text(json.dumps(results, indent=2) + "\n")
        args.out.with_suffix(".md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
