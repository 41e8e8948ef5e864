"""A class on one machine: students over Streamlit's websocket protocol through ``deploy/launch.py``, each moving its
page's slider every ~2 s; optionally one process killed mid-class, or one reader hammering beside the class.

    python -m bench.classroom --students 64 --seconds 120                 # the class (2 processes behind nginx)
    python -m bench.classroom --students 64 --seconds 120 --kill-at 60    # process 0 killed (SIGKILL) 60 s in
    python -m bench.classroom --students 64 --seconds 120 --hammer        # the class alone, then beside a hammer
    python -m bench.classroom --students 4 --seconds 5 --cold             # a smoke run (the tests run smaller ones)
    python -m bench.classroom --students 64 --seconds 30 --arrive 14      # a class opening the link at once
    python -m bench.classroom --students 64 --seconds 30 --arrive 14 --unwarmed-pages  # ... on processes that
                                                                          # ran no page before answering

Each student is what a browser tab is to the server (as in ``bench.load``): it fetches the page (Streamlit's XSRF
cookie, and nginx's process cookie, given in turn), opens ``/_stcore/stream``, draws one of ``PAGES`` (students are
dealt the pages in turn) and then moves the page's slider (``bench.common.WIDGETS``) between its two values every
``MOVE_S`` seconds (± a quarter, so students are not in step), as the browser sends it, once at least however late
its page was drawn. A move's round trip runs
from sending it to the server's ``script_finished``. Students arrive within ``ARRIVE_S`` seconds of the start. Each
keeps its URL's query string as the browser does: a moved slider that is bound to the URL writes its value there.

When a student's websocket closes, it does what Streamlit's client does: it says it is reconnecting, asks
``/_stcore/health`` (with its cookies) until an answer comes, opens a new websocket and reruns its page with the URL
it held. nginx sends it to a live process and rewrites its cookie (``deploy/launch.py``). Counted: the students
whose websocket dropped, those back on their page (and on which process), how long it took, and those whose slider
came back at the value in their URL (restored). A dropped websocket is an error only for a student whose process
was not killed; any rerun that fails, draws an exception, or takes longer than ``TIMEOUT_S`` is one too, and so is a
reconnection that does not bring the page back within ``RECONNECT_S``.

``--kill-at T`` kills process 0 with SIGKILL T seconds after the start; the launcher starts it again. ``--hammer``
runs the class three times on the same servers: once not counted (``WARM_LESSON_S``: the first visits fill the
pages' caches, which a class's first minute otherwise pays for), then alone, then beside one more reader who moves
its slider every ``HAMMER_S`` seconds (it arrives first, sharing a process with half the class), and sets the
class's p95 in the third run against the second. Only loopback addresses are served. The machine's load is measured
beside: the share of its cores busy during the run (``/proc/stat``), the server processes' share, and the load
average.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import statistics
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import WIDGETS, machine, now
from bench.load import LOOPBACK, cpu_seconds, percentile, rerun_message, restored_environment, until_quiet
from deploy import launch

PAGES = ("attention", "gpt", "moe", "mamba", "bert", "t5", "llama", "mistral", "mla")
MOVE_S = 2.0  # a student moves its slider about this often
HAMMER_S = 0.05  # the hammering reader's pause between moves
ARRIVE_S = 5.0  # students open their pages within this many seconds of the start
TIMEOUT_S = 30.0  # a move that takes longer is an error
OPEN_TIMEOUT_S = 120.0  # ... and a page's first draw (on a process that loads models on first visit, it loads one)
RECONNECT_S = 60.0  # a student whose page is not back this long after its websocket dropped is an error
PING_S = 0.5  # between two health checks while reconnecting
WARM_LESSON_S = 60.0  # with --hammer, the class's lesson before the two measured ones, not counted


@dataclass
class Student:
    """One tab: its page, where it is served (nginx's cookie), its moves and what went wrong."""

    n: int
    page: str
    every: float = MOVE_S
    arrive: float = ARRIVE_S  # it opens its page at a random moment within this many seconds of the start
    jar: dict[str, str] = field(default_factory=dict)
    query: str = ""  # the URL's query string, as the server last set it
    first: str = ""  # the process it was first served by (the cookie's name)
    opened_ms: float | None = None
    moves_ms: list[float] = field(default_factory=list)
    moves_at: list[float] = field(default_factory=list)  # when each move began (time.monotonic)
    drawn_at: float | None = None  # when its page was first drawn
    errors: list[str] = field(default_factory=list)
    dropped: int = 0  # websockets that closed under it
    reconnect_s: list[float] = field(default_factory=list)  # from the drop to its page drawn again
    restored: int = 0  # reconnections whose slider came back at the value it showed (from the URL)
    restorable: int = 0  # reconnections whose slider is bound to the URL
    moved_to: str = ""  # the process a reconnection landed on

    @property
    def process(self) -> str:
        return self.jar.get(launch.COOKIE, "")


def with_param(query: str, key: str, value: float) -> str:
    """The query string with ``key`` set to ``value``, written as the browser writes a slider's number."""
    params = dict(urllib.parse.parse_qsl(query, keep_blank_values=True))
    params[key] = f"{value:g}"
    return urllib.parse.urlencode(params)


def get(url: str, jar: dict[str, str]) -> dict[str, str]:
    """GET ``url`` with the cookies of ``jar``; the cookies it sets, added to a copy."""
    req = urllib.request.Request(url, headers={"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())})
    with urllib.request.urlopen(req, timeout=5) as r:
        out = dict(jar)
        for header in r.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            out[name.strip()] = rest.split(";")[0]
        return out


async def connect(base: str, jar: dict[str, str]):
    """A websocket to ``/_stcore/stream`` with the cookies of ``jar`` and the ``streamlit`` subprotocol, as a tab
    opens it; the cookie nginx sets on the upgrade (the process that answered) goes into ``jar``."""
    import websockets

    token = jar.get("_streamlit_xsrf", "")
    ws = await websockets.connect(
        base.replace("http://", "ws://", 1) + "/_stcore/stream",
        subprotocols=["streamlit", token] if token else ["streamlit"],
        additional_headers={"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())},
        max_size=None,
        compression=None,
        open_timeout=10,
    )
    for header in ws.response.headers.get_all("Set-Cookie"):
        name, _, rest = header.partition("=")
        if name.strip() == launch.COOKIE:
            jar[launch.COOKIE] = rest.split(";")[0]
    return ws


@dataclass
class Drawn:
    """What one rerun sent back."""

    finished: bool = False
    exception: bool = False
    slider: tuple[str, str, float, str] | None = None  # (widget id, fragment id, value it shows, its URL parameter)


async def rerun(
    ws, s: Student, slider: tuple[str, float] | None = None, fragment: str = "", timeout: float = TIMEOUT_S
) -> Drawn:
    """Ask for a rerun of the student's page (moving ``slider`` if given) and read until the run finished."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    key = WIDGETS[s.page][0]
    done = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
    await ws.send(rerun_message(s.page, set(), slider=slider, fragment=fragment, query=s.query))
    out = Drawn()
    while True:
        raw = await asyncio.wait_for(ws.recv(), timeout)
        if isinstance(raw, str):
            continue
        msg = ForwardMsg.FromString(raw)
        kind = msg.WhichOneof("type")
        if kind == "page_info_changed":
            s.query = msg.page_info_changed.query_string
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            if element.WhichOneof("type") == "exception":
                out.exception = True
            elif element.WhichOneof("type") == "slider" and element.slider.id.endswith(key):
                slider = element.slider
                shown = slider.value[0] if slider.set_value and slider.value else slider.default[0]
                out.slider = (slider.id, msg.delta.fragment_id, shown, slider.query_param_key)
        elif kind == "script_finished" and msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            out.finished = msg.script_finished in done
            return out


async def student(base: str, s: Student, start: float, until: float, killed: set[str]) -> None:
    """Open the page at a random moment within ``s.arrive`` seconds, then move its slider every ``s.every`` (± a
    quarter) until ``until``; reconnect as Streamlit's client does whenever the websocket drops."""
    import websockets

    rng = random.Random(s.n)
    await asyncio.sleep(max(0.0, start + (0 if s.every < MOVE_S else rng.uniform(0, s.arrive)) - time.monotonic()))
    values = WIDGETS[s.page][1]
    drops = (websockets.WebSocketException, OSError, asyncio.IncompleteReadError)
    ws = found = shown = None  # the websocket, the slider drawn (id, fragment, value), the value it shows
    moves = 0

    def drop(exc: Exception) -> None:
        s.dropped += 1
        if s.process not in killed:
            s.errors.append(f"{s.page}: the websocket dropped on a live process ({type(exc).__name__})")

    try:
        s.jar = await asyncio.to_thread(get, base + "/", {})
        s.first = s.process
        try:
            began = time.perf_counter()
            ws = await connect(base, s.jar)
            drawn = await rerun(ws, s, timeout=OPEN_TIMEOUT_S)
            s.opened_ms, s.drawn_at = (time.perf_counter() - began) * 1e3, time.monotonic()
            if not drawn.finished or drawn.exception or drawn.slider is None:
                s.errors.append(f"{s.page}: first draw " + ("drew an exception" if drawn.exception else "failed"))
                return
            found = drawn.slider
        except drops as exc:
            drop(exc)
            ws, found = await reconnect(base, s, ws, None)
            if ws is None:
                return
        shown = found[2]
        tried = 0
        while tried == 0 or time.monotonic() < until:  # every student moves once at least, however late it drew
            pause = s.every * rng.uniform(0.75, 1.25) if s.every >= MOVE_S else s.every
            left = until - time.monotonic()
            if tried and pause >= left:
                break
            await asyncio.sleep(max(0.0, min(pause, left)))
            tried += 1
            value = values[(moves + 1) % 2]
            try:
                began, at = time.perf_counter(), time.monotonic()
                drawn = await rerun(ws, s, (found[0], value), found[1])
            except drops as exc:
                drop(exc)
                ws, found = await reconnect(base, s, ws, shown)
                if ws is None:
                    return
                continue
            if drawn.finished and not drawn.exception:
                s.moves_ms.append((time.perf_counter() - began) * 1e3)
                s.moves_at.append(at)
                moves, shown = moves + 1, value
                if found[3]:  # a slider bound to the URL: the browser writes its value there
                    s.query = with_param(s.query, found[3], value)
            else:
                s.errors.append(f"{s.page}: a move " + ("drew an exception" if drawn.exception else "failed"))
    except Exception as exc:  # a timeout or a refused connection is an error of this student, not of the bench
        s.errors.append(f"{s.page}: {type(exc).__name__}: {exc}")
    finally:
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()


async def reconnect(base: str, s: Student, old, shown: float | None):
    """Streamlit's client after its websocket closed: "reconnecting" until ``/_stcore/health`` answers (nginx sends
    the student's cookie on to a live process and rewrites it), then a new websocket and a rerun of the page with the
    URL it held. Returns the new websocket and the slider it drew, or (None, None) with an error recorded; counts the
    page as restored when its slider, bound to the URL, shows the URL's value (``shown``, the value it showed before
    the drop, where the URL holds none: a student who had not moved yet)."""
    dropped = time.monotonic()
    with contextlib.suppress(Exception):  # closing a dead connection may raise anything of its transport
        await old.close()
    while time.monotonic() - dropped < RECONNECT_S:
        try:
            s.jar = await asyncio.to_thread(get, base + "/_stcore/health", s.jar)
            ws = await connect(base, s.jar)
            drawn = await rerun(ws, s, timeout=OPEN_TIMEOUT_S)
        except Exception:  # still down: ask again, as the client does
            await asyncio.sleep(PING_S)
            continue
        if not drawn.finished or drawn.exception or drawn.slider is None:
            s.errors.append(f"{s.page}: the page did not come back after reconnecting")
            await ws.close()
            return None, None
        s.reconnect_s.append(time.monotonic() - dropped)
        s.moved_to = s.process
        value, bound = drawn.slider[2], drawn.slider[3]
        if bound:  # a slider the URL holds: it must show the URL's value (its default where the URL has none)
            s.restorable += 1
            held = dict(urllib.parse.parse_qsl(s.query)).get(bound)
            wanted = float(held) if held is not None else shown
            if wanted is None or abs(value - wanted) <= 1e-9 * max(1.0, abs(wanted)):
                s.restored += 1
        return ws, drawn.slider
    s.errors.append(f"{s.page}: not back on a live process within {RECONNECT_S:g} s")
    return None, None


@dataclass
class Machine:
    """How busy the machine was over a run: its cores' busy share (``/proc/stat``), the server processes' share of
    its cores, and the load average at the end."""

    cores: int = os.cpu_count() or 1
    busy: float = 0.0
    servers: float = 0.0
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)


def cpu_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of every core so far (Linux ``/proc/stat``; zeros where it cannot be read)."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


async def lesson(
    base: str, students: list[Student], seconds: float, pids, kill: tuple[float, int] | None = None
) -> Machine:
    """Every student for ``seconds``; with ``kill`` = (seconds in, pid), that process is killed (SIGKILL) then.
    ``pids()`` names the server processes now (a restarted one has a new pid): their CPU time is read every
    second."""
    start = time.monotonic()
    until = start + seconds
    killed: set[str] = set()
    busy0, total0 = cpu_ticks()
    wall0 = time.monotonic()
    used: dict[int, tuple[float, float]] = {}  # pid -> (first reading, last reading)
    running = [True]

    async def sample() -> None:
        while running[0]:
            for pid in pids():
                seconds_now = cpu_seconds([pid])  # 0 once the process is gone: its last reading stays
                first, last = used.get(pid, (seconds_now, seconds_now))
                used[pid] = (first, max(last, seconds_now))
            await asyncio.sleep(1.0)

    async def killer() -> None:
        await asyncio.sleep(max(0.0, start + kill[0] - time.monotonic()))
        killed.add(launch.upstream_name(0))
        os.kill(kill[1], signal.SIGKILL)

    sampler = asyncio.ensure_future(sample())
    await asyncio.gather(*(student(base, s, start, until, killed) for s in students), *([killer()] if kill else []))
    running[0] = False
    await sampler
    busy1, total1 = cpu_ticks()
    wall = time.monotonic() - wall0
    out = Machine(load=tuple(round(v, 2) for v in os.getloadavg()))
    out.busy = (busy1 - busy0) / (total1 - total0) if total1 > total0 else 0.0
    spent = sum(last - first for first, last in used.values())
    out.servers = spent / (wall * out.cores) if wall > 0 else 0.0
    return out


def summary(students: list[Student], busy: Machine, hammer: Student | None = None) -> dict:
    """One run: the students' moves (p50/p95/p99), first draws, errors, where they were served, and reconnections."""
    moves = [m for s in students for m in s.moves_ms]
    # once every student has drawn its page: the moves of a class at work, without the first draws beside them
    drawn = [s.drawn_at for s in students if s.drawn_at is not None]
    settled = max(drawn) if drawn else float("inf")
    steady = [m for s in students for m, at in zip(s.moves_ms, s.moves_at) if at >= settled]
    by_process: dict[str, list[float]] = {}
    for s in students:
        by_process.setdefault(s.first, []).extend(m for m, at in zip(s.moves_ms, s.moves_at) if at >= settled)
    opened = [s.opened_ms for s in students if s.opened_ms is not None]
    errors = [e for s in students for e in s.errors]
    per: dict[str, dict[str, int]] = {}
    for s in students:
        if s.first:
            per.setdefault(s.first, {"first": 0, "end": 0})["first"] += 1
        if s.process:
            per.setdefault(s.process, {"first": 0, "end": 0})["end"] += 1
    back = [t for s in students for t in s.reconnect_s]
    out = {
        "students": len(students),
        "moves": len(moves),
        "p50_ms": round(statistics.median(moves), 1) if moves else None,
        "p95_ms": round(percentile(moves, 95), 1) if moves else None,
        "p99_ms": round(percentile(moves, 99), 1) if moves else None,
        "steady_moves": len(steady),
        "steady_p50_ms": round(statistics.median(steady), 1) if steady else None,
        "steady_p95_ms": round(percentile(steady, 95), 1) if steady else None,
        "steady_p95_ms_by_process": {k: round(percentile(v, 95), 1) for k, v in sorted(by_process.items()) if v},
        "open_p50_ms": round(statistics.median(opened), 1) if opened else None,
        "open_p95_ms": round(percentile(opened, 95), 1) if opened else None,
        "errors": len(errors),
        "first_errors": errors[:5],
        "per_process": dict(sorted(per.items())),
        "dropped": sum(s.dropped for s in students),
        "reconnected": len(back),
        "restored": sum(s.restored for s in students),
        "restorable": sum(s.restorable for s in students),
        "landed_on": sorted({s.moved_to for s in students if s.moved_to}),
        "reconnect_p50_s": round(statistics.median(back), 2) if back else None,
        "reconnect_max_s": round(max(back), 2) if back else None,
        "machine_busy": round(busy.busy, 3),
        "servers_busy": round(busy.servers, 3),
        "load_average": list(busy.load),
    }
    if hammer is not None:
        out["hammer"] = {
            "page": hammer.page,
            "process": hammer.first,
            "moves": len(hammer.moves_ms),
            "p50_ms": round(statistics.median(hammer.moves_ms), 1) if hammer.moves_ms else None,
            "errors": len(hammer.errors),
        }
        near = [m for s in students if s.first == hammer.first for m in s.moves_ms]
        out["p95_ms_beside_hammer"] = round(percentile(near, 95), 1) if near else None
    return out


def run(
    students: int = 64,
    seconds: float = 120.0,
    processes: int = 2,
    kill_at: float | None = None,
    hammer: bool = False,
    warm: bool = True,
    pages: tuple[str, ...] = PAGES,
    arrive: float = ARRIVE_S,
    warm_pages: bool = True,
    training: bool = False,
) -> dict:
    """Start the app behind nginx (``deploy.launch``), run the class (twice with ``hammer``: alone, then beside the
    hammering reader; twice with ``training``: alone, then beside one student's live training), and return the
    results; the caller's environment is put back afterwards."""
    with restored_environment("TE_WARM_UP", "TE_WARM_PAGES"):
        if not warm:  # each process then loads a model on its first visit instead of before it answers
            os.environ["TE_WARM_UP"] = "0"
        if not warm_pages:  # each page's first visitor in each process computes what the page shows at its defaults
            os.environ["TE_WARM_PAGES"] = "0"
        return _run(
            students, seconds, processes, kill_at, hammer, warm, pages, arrive, warm and warm_pages, training
        )  # fmt: skip


def live_training():
    """One student's live training as the GPT page starts it: the page's worker target in a spawned process with one
    torch thread (``app.shared.training_jobs``), the dynamics model from scratch, its messages read and dropped.
    Returns the process (terminate it when done)."""
    import multiprocessing as mp

    from app.shared.training_jobs import SNAPSHOT_EVERY, live_target
    from models import dynamics, zoo

    card = zoo.read_card("gpt-induction")
    settings = {k: card["settings"].get(k, v) for k, v in dynamics.SETTINGS.items()}
    ctx = mp.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    folder = str(zoo.checkpoint_dir("gpt-induction"))
    process = ctx.Process(target=live_target, args=(folder, settings, 0, SNAPSHOT_EVERY, send), daemon=True)
    process.start()
    send.close()

    def drain() -> None:
        try:
            while True:
                receive.recv()
        except (EOFError, OSError):
            pass

    threading.Thread(target=drain, daemon=True).start()
    return process


def _run(
    students, seconds, processes, kill_at, hammer, warm, pages, arrive=ARRIVE_S, warm_pages=True, training=False
) -> dict:
    results: dict = {
        "machine": machine(),
        "when": now(),
        "students": students,
        "seconds": seconds,
        "processes": processes,
        "move_s": MOVE_S,
        "kill_at": kill_at,
        "hammer_s": HAMMER_S if hammer else None,
        "warm": warm,
        "arrive_s": arrive,
        "warm_pages": warm_pages,
        "pages": list(pages),
        "runs": {},
    }
    started = time.monotonic()
    cluster = launch.start(processes, launch.free_port())
    results["start_s"] = round(time.monotonic() - started, 1)
    if urllib.parse.urlparse(cluster.url).hostname not in LOOPBACK:
        cluster.stop()
        raise ValueError(f"bench.classroom runs on loopback only, not {cluster.url}")

    def pids() -> list[int]:
        return [c.proc.pid for c in cluster.children[:-1]]

    def klass() -> list[Student]:
        return [Student(i, pages[i % len(pages)], arrive=arrive) for i in range(students)]

    try:
        kill = (kill_at, pids()[0]) if kill_at is not None else None
        if hammer:  # a class's first visits fill every cache: a lesson not counted, so that both runs find them full
            asyncio.run(lesson(cluster.url, klass(), min(WARM_LESSON_S, seconds), pids))
            until_quiet(pids())
        alone = klass()
        busy = asyncio.run(lesson(cluster.url, alone, seconds, pids, kill))
        results["runs"]["fault" if kill else "class"] = summary(alone, busy)
        print(json.dumps(results["runs"]), flush=True)
        if hammer:
            until_quiet(pids())
            beside, reader = klass(), Student(-1, pages[0], every=HAMMER_S)
            busy = asyncio.run(lesson(cluster.url, [reader, *beside], seconds, pids))
            results["runs"]["hammer"] = summary(beside, busy, reader)
            print(json.dumps(results["runs"]["hammer"]), flush=True)
        if training:
            until_quiet(pids())
            trainer = live_training()
            try:
                beside = klass()
                busy = asyncio.run(lesson(cluster.url, beside, seconds, pids))
            finally:
                trainer.terminate()
                trainer.join(10)
            results["runs"]["training"] = summary(beside, busy)
            print(json.dumps(results["runs"]["training"]), flush=True)
        results["restarts"] = [c.restarts for c in cluster.children]
    finally:
        cluster.stop()
    return results


def table(results: dict) -> str:
    head = (
        f"Measured on: {results['machine']} — {results['when']}; {results['students']} students through nginx to "
        f"{results['processes']} Streamlit processes (`deploy.launch`, ready in {results['start_s']} s"
        + (", every model loaded first" if results["warm"] else ", models loaded on first visit")
        + (" and every page run once" if results.get("warm_pages") else "")
        + f"), opening their pages within {results.get('arrive_s', ARRIVE_S):g} s, each moving its page's slider "
        f"every {results['move_s']:g} s (± a quarter) for {results['seconds']:g} s, "
        f"pages dealt in turn: {', '.join(results['pages'])}."
    )
    if results.get("kill_at") is not None:
        head += f" Process 0 killed (SIGKILL) {results['kill_at']:g} s in; restarts per child: {results['restarts']}."
    if results.get("hammer_s"):
        head += (
            f" After a lesson not counted ({WARM_LESSON_S:g} s), the class alone, then beside one reader moving every "
            f"{results['hammer_s'] * 1e3:g} ms (the hammer), on the same servers."
        )
    lines = [
        head,
        "",
        "| run | students | moves | p50 ms | p95 ms | p99 ms | after every first draw: moves, p50 / p95 ms "
        "| first draw p50 / p95 ms | errors | students per "
        "process (first → end) | dropped | reconnected | restored (of bound) | reconnect p50 / max s | machine busy "
        "| servers | load average |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results["runs"].items():
        per = ", ".join(f"{k} {v['first']} → {v['end']}" for k, v in r["per_process"].items())
        back = "—" if r["reconnect_p50_s"] is None else f"{r['reconnect_p50_s']} / {r['reconnect_max_s']}"
        cells = (
            *(name, r["students"], r["moves"], r["p50_ms"], r["p95_ms"], r["p99_ms"]),
            f"{r.get('steady_moves', '—')}, {r.get('steady_p50_ms')} / {r.get('steady_p95_ms')}",
            f"{r['open_p50_ms']} / {r['open_p95_ms']}",
            *(r["errors"], per, r["dropped"], r["reconnected"], f"{r['restored']} of {r['restorable']}", back),
            f"{r['machine_busy']:.0%}",
            f"{r['servers_busy']:.0%}",
            " / ".join(str(v) for v in r["load_average"]),
        )
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    runs = results["runs"]
    if "hammer" in runs and "class" in runs:
        h, alone = runs["hammer"], runs["class"]
        where = h["hammer"]["process"]

        def ratio(a, b) -> str:
            return f"{a / b:.2f}" if a and b else "—"

        near = (alone.get("steady_p95_ms_by_process") or {}).get(where)
        near_beside = (h.get("steady_p95_ms_by_process") or {}).get(where)
        lines += [
            "",
            f"The hammer ({h['hammer']['page']}, on {where}): {h['hammer']['moves']} moves, p50 "
            f"{h['hammer']['p50_ms']} ms, {h['hammer']['errors']} errors. The class's p95 beside it ÷ alone, after "
            f"every first draw: {ratio(h.get('steady_p95_ms'), alone.get('steady_p95_ms'))} (all moves: "
            f"{ratio(h['p95_ms'], alone['p95_ms'])}); the students on the hammer's process: p95 {near_beside} ms "
            f"beside it, {near} ms alone ({ratio(near_beside, near)}).",
        ]
    if "training" in runs and "class" in runs:
        tr, alone = runs["training"], runs["class"]
        lines += [
            "",
            f"Beside one student's live training (a spawned process, one torch thread): the class's p95 "
            f"{tr['p95_ms']} ms, alone {alone['p95_ms']} ms (after every first draw: {tr.get('steady_p95_ms')} / "
            f"{alone.get('steady_p95_ms')} ms).",
        ]
    errors = [e for r in runs.values() for e in r["first_errors"]]
    if errors:
        lines += ["", "First errors: " + "; ".join(errors[:5]) + "."]
    busy = "; ".join(
        f"{name}: cores {r['machine_busy']:.0%} busy, the servers {r['servers_busy']:.0%}" for name, r in runs.items()
    )
    lines += [
        "",
        f"How busy the machine was ({os.cpu_count()} cores, shared): {busy}. Whatever the servers did not use went to "
        "the load generator, nginx and other work on the machine.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.classroom", description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--processes", type=int, default=2, help="Streamlit processes behind nginx")
    ap.add_argument("--kill-at", type=float, default=None, help="kill process 0 (SIGKILL) this many seconds in")
    ap.add_argument("--hammer", action="store_true", help="the class alone, then beside a reader moving every 50 ms")
    ap.add_argument("--cold", action="store_true", help="models loaded on first visit, not before a process answers")
    ap.add_argument("--pages", nargs="*", default=list(PAGES), help="the pages dealt to the students")
    ap.add_argument("--arrive", type=float, default=ARRIVE_S, help="students open their pages within this many s")
    ap.add_argument(
        "--unwarmed-pages", action="store_true", help="processes answer before running each page (TE_WARM_PAGES=0)"
    )
    ap.add_argument(
        "--training", action="store_true", help="the class alone, then beside one student's live training (GPT page)"
    )
    ap.add_argument("--out", type=Path, default=None, help="write the JSON and the table here (.json, .md)")
    args = ap.parse_args(argv)
    if args.students < 1 or args.processes < 1 or args.seconds <= 0:
        ap.error("--students, --processes and --seconds must be positive")
    if args.kill_at is not None and (args.processes < 2 or not 0 < args.kill_at < args.seconds):
        ap.error("--kill-at needs --processes 2 or more and a time within --seconds")
    if unknown := set(args.pages) - WIDGETS.keys():
        ap.error(f"pages without a slider to move: {', '.join(sorted(unknown))}")
    results = run(
        args.students, args.seconds, args.processes, args.kill_at, args.hammer, not args.cold, tuple(args.pages),
        args.arrive, not args.unwarmed_pages, args.training,
    )  # fmt: skip
    text = table(results)
    if args.out is not None:
        args.out.with_suffix(".json").write_text(json.dumps(results, indent=2) + "\n")
        args.out.with_suffix(".md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
