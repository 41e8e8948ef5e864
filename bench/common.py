"""What bench/run.py and bench/load.py both use: a real server on a free port, the browser's waiting rule, the pages
each benchmark visits, the machine a result was measured on, and where the load benchmark's tables go.

bench/ imports nothing from tests/; the end-to-end tests take their server and their waiting rule from here, so a
benchmark and a test start and wait for the app the same way.

Waiting rule (from Streamlit's own e2e tests): after an action, wait until the app reports it is idle
(``data-test-script-state="notRunning"``), never a fixed sleep.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import time
from pathlib import Path

from deploy.launch import free_port as free_port  # re-exported: the launcher's, for a server's port
from deploy.launch import healthy, streamlit_command  # the launcher's: one way to start the app

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"


# ---------------------------------------------------------------------------------------------------------- server


def start_server(
    port: int,
    extra: list[str] | None = None,
    env: dict[str, str] | None = None,
    root: Path = ROOT,
    timeout: float = 60,
) -> subprocess.Popen:
    """Start the app on 127.0.0.1:``port`` and return once /_stcore/health answers within ``timeout`` seconds (or
    raise with the server's output); ``extra`` are more ``streamlit run`` options, ``env`` adds to this process's
    environment, ``root`` is the checkout it runs (this one by default; ``bench.moves --against`` starts another).
    The server's output goes to artifacts/server-<port>.log."""
    # A clean checkout has no artifacts/, and the first caller to start a server may not be an e2e test.
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"server-{port}.log", "w")  # noqa: SIM115 (closed with the process)
    proc = subprocess.Popen(
        streamlit_command(port, extra),
        cwd=root,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, **(env or {})},
    )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}; see {log.name}")
        if healthy(f"http://127.0.0.1:{port}"):
            return proc
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"streamlit did not become healthy within {timeout:g} s")


def machine() -> str:
    """The CPU, its cores, torch's and Python's versions: the line every table says it was measured on."""
    import torch

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, torch {torch.__version__}, {platform.python_version()}"


def process_rss_mb(pid: int) -> float:
    """A process's resident memory in MB (Linux ``/proc``; NaN where it cannot be read)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def now() -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


# --------------------------------------------------------------------------------------------------------- browser

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
MAIN_ELEMENT = '[data-testid="stMain"] [data-testid="stElementContainer"]'
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def find_chromium() -> str | None:
    """Debian's Chromium, or None where it is not installed."""
    path = shutil.which("chromium") or "/usr/bin/chromium"
    return path if os.path.exists(path) else None


def wait_idle(page, timeout: float = 60_000) -> None:
    """Wait for the rerun that an action started to finish."""
    page.wait_for_timeout(100)  # let the frontend flip to "running" before we wait for "notRunning"
    page.wait_for_selector(IDLE, timeout=timeout)


# The browser's own clock around one move, so the time a reader waits is read without the fixed wait of
# ``wait_idle``: ``arm_move_clock`` notes the next key press or pointer press (capture phase, before the widget sees
# it) and every later change of the DOM under the page's main area (``stMain``: not the sidebar, not the toolbar's
# "running" icon); ``move_drawn_ms`` is then the time from that press to the last change, once the app is idle again:
# the moment the updated figure was in the page (Plotly draws synchronously into its SVG after the element's render).
MOVE_CLOCK = """() => {
  if (!window.__teClock) {
    const clock = (window.__teClock = { pressed: null, last: null });
    const press = () => { if (clock.pressed === null) clock.pressed = performance.now(); };
    document.addEventListener("keydown", press, true);
    document.addEventListener("pointerdown", press, true);
    // A change counts when the reader can see it: in the main area, and not inside a <canvas> (its children are
    // fallback content the browser never paints: a dataframe's grid keeps an accessible copy of its cells there and
    // updates it about 200 ms after the canvas has redrawn, which it does by resizing itself, a change that counts)
    const seen = (r) => {
      const el = r.target && r.target.nodeType === 1 ? r.target : r.target && r.target.parentElement;
      if (!el || !el.closest('[data-testid="stMain"]')) return false;
      const canvas = el.closest("canvas");
      return !canvas || (canvas === el && r.type === "attributes");
    };
    new MutationObserver((records) => {
      if (clock.pressed !== null && records.some(seen)) clock.last = performance.now();
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  }
  window.__teClock.pressed = null;
  window.__teClock.last = null;
}"""


def arm_move_clock(page) -> None:
    """Start the browser's clock for the next move on ``page`` (see ``MOVE_CLOCK``)."""
    page.evaluate(MOVE_CLOCK)


QUIET_MS = 500  # the main area unchanged this long after the app went idle: the move's drawing is over


def move_drawn_ms(page) -> float | None:
    """Milliseconds from the armed move's press to the last change of the main area; None when either is missing
    (no press seen, or nothing changed). Call it once the app is idle: it first waits until the main area has not
    changed for ``QUIET_MS``, since a figure can finish drawing after the script's run has ended (Plotly draws from
    a promise, after the element arrived). A benchmark's wait, never a test's: it reads a time, it asserts nothing."""
    page.wait_for_function(
        "() => { const c = window.__teClock;"
        f" return !c || performance.now() - (c.last ?? c.pressed ?? 0) > {QUIET_MS}; }}",
        timeout=60_000,
    )
    return page.evaluate(
        "() => { const c = window.__teClock;"
        " return c && c.pressed !== null && c.last !== null ? c.last - c.pressed : null; }"
    )


def time_moves(page, move, repeats: int, budget_s: float | None = None) -> tuple[list[float], list[float]]:
    """A page's move (``move(page, i)``, bench/interactions.py) once untimed, then ``repeats`` times, or until
    ``budget_s`` has passed: (idle, drawn) ms per move. *idle* is the test's view, press → the app idle (with
    ``wait_idle``'s fixed 100 ms); *drawn* the browser's own clock (``MOVE_CLOCK``), where it saw both ends."""
    move(page, 0)
    idle: list[float] = []
    drawn: list[float] = []
    deadline = None if budget_s is None else time.monotonic() + budget_s
    for i in range(1, repeats + 1):
        arm_move_clock(page)
        start = time.perf_counter()
        move(page, i)
        idle.append((time.perf_counter() - start) * 1e3)
        ms = move_drawn_ms(page)
        if ms is not None:
            drawn.append(ms)
        if deadline is not None and time.monotonic() > deadline:
            break
    return idle, drawn


def nudge(page, thumb, i: int, first: str = "ArrowRight") -> None:
    """One step of a slider (a react-aria range input): ``first`` on even ``i``, the other way on odd ``i``, so
    repeated calls always change the value and stay next to the default; returns after the rerun."""
    thumb.focus()
    thumb.press(first if i % 2 == 0 else {"ArrowRight": "ArrowLeft", "ArrowLeft": "ArrowRight"}[first])
    wait_idle(page)


def goto(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(MAIN_ELEMENT, timeout=60_000)
    wait_idle(page)


# ----------------------------------------------------------------------------------------------- the load's pages

EMPTY = "empty"  # the app shell around an empty page, served only to the benchmarks (TE_BENCH_EMPTY_PAGE=1)
# The slider each simulated reader moves with ``bench.load --widget``, by page (url path), and the two values it
# alternates between: the control a learner moves most on that page. A slider inside a fragment reruns only its
# fragment, and the reader asks for exactly that (rerun_script.fragment_id), as a browser does.
WIDGETS = {
    "attention": ("attention_step", (1.0, 2.0)),
    "gpt": ("gpt_temperature", (0.7, 0.8)),
    "moe": ("moe_layer", (1.0, 0.0)),
    "mamba": ("mamba_compare_layer", (1.0, 0.0)),
    # further pages (--pages): the layer or count a reader moves first
    "bert": ("bert_k", (4.0, 5.0)),
    "forward-pass": ("forward_pass_layer", (1.0, 0.0)),
    "rope": ("rope_start", (0.55, 0.5)),  # where in the play extrapolation reads (its position m moves in the browser)
    "vit": ("vit_discard", (0.05, 0.0)),  # rollout's discarded share (its layer moves in the browser)
    "alignment": ("alignment_n", (2.0, 3.0)),
    "t5": ("t5_density", (0.2, 0.15)),
    "transformer-xl": ("txl_segment", (1.0, 2.0)),
    "flash-attention": ("flash_io_n", (3.0, 4.0)),  # section 2's N, a select slider (its step moves in the browser)
    "llama": ("llama_token", (7.0, 8.0)),
    "mistral": ("mistral_position", (100.0, 101.0)),  # the reach's position (the band's window moves in the browser)
    "mla": ("mla_n", (31.0, 32.0)),  # new tokens speculative decoding writes (its token moves in the browser)
    "scaling": ("scaling_budget", (12.0, 11.0)),  # a select slider: the values are indices into its options
    "reasoning": ("reasoning_k", (4.0, 3.0)),
}
# The real pretrained model (bench/real.py), and the pages that offer it: page (url path) -> the query parameter of
# its model picker (``ui.model_picker``'s key, which ``ui.choice`` keeps in the link)
REAL = "smollm2-135m"
GEMMA = "gemma-3-270m"  # fetched on request only: a move on it is timed where it is here
REAL_PAGES = {"gpt": "gpt_model", "forward-pass": "forward_pass_model", "llama": "llama_model"}
# Every model page's slider at 128 readers, against the empty page in the same run; then the pages that offer the
# real model, with it picked (the same slider)
PAGES_ARGS = [
    "--widget",
    "--sessions",
    "128",
    "--pages",
    EMPTY,
    *WIDGETS,
    *(f"{page}?{param}={REAL}" for page, param in REAL_PAGES.items()),
]
# What one element of each kind adds to a rerun: the empty page, then the empty page drawing ELEMENTS_N elements of one
# kind (bench/empty_page.py reads the kind and the count from its link), at 128 readers in one run
ELEMENTS_N = 40
ELEMENT_KINDS = ("metric", "caption", "markdown", "download", "plotly", "container")
ELEMENTS_ARGS = [
    "--sessions",
    "128",
    "--pages",
    EMPTY,
    *(f"{EMPTY}?bench_kind={kind}&bench_n={ELEMENTS_N}" for kind in ELEMENT_KINDS),
]
# ``python -m bench.run --load``: each run of ``python -m bench.load`` with its arguments, and the file its table goes
# to (.json and .md): the defaults, the same with --widget, every model page's slider, what one element adds.
LOAD_SUITE = (
    ([], ROOT / "bench" / "load.json"),
    (["--widget"], ROOT / "bench" / "load-widget.json"),
    (PAGES_ARGS, ROOT / "bench" / "load-pages.json"),
    (ELEMENTS_ARGS, ROOT / "bench" / "load-elements.json"),
)
