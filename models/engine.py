"""Run a named model with probes on a backend and a device, and say what ran and how long it took.

Backends: ``torch`` (the reference; the only one that takes interventions) and ``onnx`` (ONNX Runtime on the
``model.onnx`` that ``models.export`` wrote). Device: CUDA when a CUDA device is present, else the CPU. On a
machine without CUDA no CUDA provider is requested, so ONNX Runtime prints nothing about it.

One engine serves every session of the app: models and ONNX sessions are created once per name, shared, and
never mutated; per-call probe recording is in ``models.probe``'s context variable.
"""

from __future__ import annotations

import threading
import time
import warnings
from dataclasses import dataclass

import numpy as np
import torch

from models import zoo
from models.probe import matches, trace

BACKENDS = ("torch", "onnx")


@dataclass(frozen=True)
class Result:
    outputs: dict[str, np.ndarray]  # the output names of the checkpoint's config.json -> arrays
    probes: dict[str, np.ndarray]  # probe name -> array
    backend: str
    device: str
    ms: float

    @property
    def readout(self) -> str:
        return f"{self.backend} · {self.device} · {self.ms:.1f} ms"


def cuda_present() -> bool:
    return torch.cuda.is_available()


def default_device() -> str:
    return "cuda" if cuda_present() else "cpu"


def ort_session_options():
    """One thread each, no spinning: spinning ORT threads slow a torch in the same process many-fold."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    so.add_session_config_entry("session.inter_op.allow_spinning", "0")
    so.log_severity_level = 3
    return so


def ort_providers(device: str) -> list[str]:
    import onnxruntime as ort

    if device == "cuda" and "CUDAExecutionProvider" in ort.get_available_providers():
        return ["CUDAExecutionProvider", "CPUExecutionProvider"]
    return ["CPUExecutionProvider"]


class Engine:
    def __init__(self, device: str | None = None):
        self.device = device or default_device()
        self._models: dict[str, torch.nn.Module] = {}
        self._sessions: dict[str, object] = {}
        self._steps: dict[str, tuple] = {}  # name -> (traced decoding step, its empty cache)
        self._specs: dict[str, dict] = {}  # name -> its config.json
        self._lock = threading.Lock()  # guards the tables above, held for a lookup only
        self._gates: dict[str, threading.Lock] = {}  # one per thing being made: made once, others wait for it alone

    def _once(self, table: dict, key: str, make):
        """``table[key]``, made by ``make()`` the first time. Only the threads that want the same key wait for it:
        a reader's page asking for its model does not queue behind the warm-up loading every other model (with one
        lock for all, a first visit waited for most of the warm-up, up to a minute on a busy machine)."""
        with self._lock:
            if key in table:
                return table[key]
            gate = self._gates.setdefault(f"{id(table)}:{key}", threading.Lock())
        with gate:
            with self._lock:
                if key in table:
                    return table[key]
            value = make()
            with self._lock:
                table[key] = value
            return value

    def model(self, name: str) -> torch.nn.Module:
        """The shared torch model (eval mode, on this engine's device). Do not mutate it. ``NAME@STEP`` is a training
        snapshot (``zoo.load_snapshot``); they are as many as the cards list, so the table stays bounded."""
        return self._once(self._models, name, lambda: zoo.load(name).to(self.device))

    def loaded(self) -> tuple[list[str], list[str]]:
        """The names whose torch model, and whose ONNX Runtime session, this engine holds."""
        with self._lock:
            return sorted(self._models), sorted(self._sessions)

    def session(self, name: str, graph: str = "model"):
        """The shared ONNX Runtime session of ``name``'s ``graph``: ``model`` (the forward with probes) or, where the
        checkpoint has a decoding step, ``decode`` (``models.export`` writes both)."""
        import onnxruntime as ort

        key = name if graph == "model" else f"{name}:{graph}"
        if zoo.split_name(name)[1] is not None:
            raise ValueError(f"{name} is a training snapshot: it runs on torch only (no ONNX graph is exported of it)")

        def make():
            path = zoo.checkpoint_dir(name) / f"{graph}.onnx"
            if not path.exists():
                raise FileNotFoundError(f"{path} is missing: run python -m models.export {name}")
            return ort.InferenceSession(str(path), ort_session_options(), providers=ort_providers(self.device))

        return self._once(self._sessions, key, make)

    def spec(self, name: str) -> dict:
        """``name``'s config.json (arch, outputs, step, config), read once per engine."""
        return self._once(self._specs, name, lambda: zoo.read_spec(name))

    def has_step(self, name: str) -> bool:
        """Whether ``name``'s config.json names a decoding step (``decode_step`` serves it)."""
        return self.spec(name).get("step") is not None

    def decode_step(self, name: str, backend: str = "torch"):
        """A step function for ``gpt.decode``: ``step(tokens (1, T), start, past) -> (logits (V,), present)``, one
        call of the checkpoint's decoding step per token — traced once per engine on torch, the exported
        ``decode.onnx`` on ONNX Runtime. Either way one call crosses the interpreter lock once, not once per
        operation.

        The step is the class of the architecture module that config.json names (``"step"``): built around the model,
        it takes ``prepare(tokens, start)`` (numpy) then the past keys and values, and returns the logits at the last
        new position and the present keys and values."""
        spec = self.spec(name)
        if spec.get("step") is None:
            raise ValueError(f"{name} has no decoding step")
        step_class = getattr(zoo.arch_module(spec), spec["step"])
        if backend == "onnx":
            session = self.session(name, "decode")
            empty = step_class(self.model(name)).empty_cache().cpu().numpy()
            names = list(step_class.INPUTS)

            def onnx_step(tokens: np.ndarray, start: int, past):
                k, v = past if past is not None else (empty, empty)
                logits, k, v = session.run(None, dict(zip(names, (*step_class.prepare(tokens, start), k, v))))
                return logits[0], (k, v)

            return onnx_step
        with self._lock:
            traced = self._steps.get(name)
        if traced is None:
            step = step_class(self.model(name))
            with torch.no_grad(), warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the tracer's notes on shapes it reads; the graph is checked by tests
                module = torch.jit.trace(step, step.example(), check_trace=False)
                with torch.inference_mode():  # TorchScript optimises a graph after its first runs: do them here
                    for _ in range(3):
                        module(*step.example())
                traced = (module, step.empty_cache())
            with self._lock:
                traced = self._steps.setdefault(name, traced)
        module, empty_t = traced
        on_cpu = self.device == "cpu"

        def torch_step(tokens: np.ndarray, start: int, past):
            args = [torch.from_numpy(a) for a in step_class.prepare(tokens, start)]
            if not on_cpu:
                args = [a.to(self.device) for a in args]
            k, v = past if past is not None else (empty_t, empty_t)
            with torch.inference_mode():
                logits, k, v = module(*args, k, v)
            return (logits.numpy() if on_cpu else logits.float().cpu().numpy())[0], (k, v)

        return torch_step

    def run(
        self, name: str, inputs: dict[str, np.ndarray], probes: tuple[str, ...] = (), backend: str = "torch"
    ) -> Result:
        """Forward ``inputs`` (input name -> array) through ``name``, recording the probes ``probes`` selects."""
        if backend == "torch":
            return self._run_torch(name, inputs, probes)
        if backend == "onnx":
            return self._run_onnx(name, inputs, probes)
        raise ValueError(f"unknown backend {backend!r}; choose one of {BACKENDS}")

    def _run_torch(self, name: str, inputs: dict[str, np.ndarray], probes: tuple[str, ...]) -> Result:
        model = self.model(name)
        tensors = {k: torch.from_numpy(np.ascontiguousarray(v)).to(self.device) for k, v in inputs.items()}
        start = time.perf_counter()
        with torch.inference_mode(), trace(*probes) as t:
            out = model(**tensors)
        if self.device == "cuda":
            torch.cuda.synchronize()
        ms = (time.perf_counter() - start) * 1e3
        outs = out if isinstance(out, tuple) else (out,)
        names = self.spec(name)["outputs"]
        return Result(
            outputs={n: o.float().cpu().numpy() for n, o in zip(names, outs)},
            probes={n: p.float().cpu().numpy() for n, p in t.items()},
            backend="torch",
            device=self.device,
            ms=ms,
        )

    def _run_onnx(self, name: str, inputs: dict[str, np.ndarray], probes: tuple[str, ...]) -> Result:
        session = self.session(name)
        out_names = self.spec(name)["outputs"]
        wanted = [
            o.name for o in session.get_outputs() if o.name in out_names or any(matches(o.name, p) for p in probes)
        ]
        start = time.perf_counter()
        values = session.run(wanted, {k: np.ascontiguousarray(v) for k, v in inputs.items()})
        ms = (time.perf_counter() - start) * 1e3
        got = dict(zip(wanted, values))
        device = "cuda" if session.get_providers()[0] == "CUDAExecutionProvider" else "cpu"
        return Result(
            outputs={n: got[n] for n in out_names},
            probes={n: v for n, v in got.items() if n not in out_names},
            backend="onnx",
            device=device,
            ms=ms,
        )
