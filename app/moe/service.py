"""The MoE page's bridge to ``models.switch``: one routed forward pass per (text, k, capacity factor), the
specialisation table on fixed held-out samples, and parameter counts (ours and the papers')."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from app.shared import assets, services
from app.shared.i18n import InputError
from app.shared.numbers import log_softmax
from app.shared.services import needs_corpus, stack_layers
from models import metrics
from models.data import bpe, domains

NAME = "switch"
DENSE = "switch-dense"
MODEL = services.checkpoint(NAME)  # the Switch-style MoE language model the page routes text through
DENSE_MODEL = services.checkpoint(DENSE)  # its dense twin, trained alike: only its parameter count is shown
PROBES = (
    "blocks.*.moe.router_probs",
    "blocks.*.moe.expert_index",
    "blocks.*.moe.combine",
    "blocks.*.moe.dropped",
    "blocks.*.moe.capacity",
)
SAMPLES = dict(domains.SAMPLES)  # shakespeare, python, arithmetic, mixed
DOMAINS = domains.DOMAINS
MAX_CHARS = 400
EOT_LABEL = "<eot>"
# The guided experiment: this line appended to the "mixed" sample (a new line first) at the trained capacity.
APPENDED = assets.lines("examples/moe.txt")[0]
PVH_ROWS = ("model", "experts", "routing", "data", "result")  # the rows of "In the paper vs here"
PVH_DEPARTURES = ("shared", "decoder", "k2", "vocab")


@dataclass(frozen=True)
class Published:
    """A published MoE model's size (assets/moe_published.json)."""

    name: str
    arxiv: str
    total: float  # parameters
    active: float | None  # parameters active per token (None where the paper gives no such count)
    experts: int  # routed experts
    k: int  # experts per token
    shared: int  # shared experts


PUBLISHED = tuple(Published(**row) for row in assets.data("moe_published.json"))


def routed_counts(index: np.ndarray, top_k: int, n_experts: int) -> np.ndarray:
    """(L, E) slots sent to each expert by the first ``top_k`` ranks of ``index`` (L, T, K), before the capacity cut."""
    return np.stack([np.bincount(ix[:, :top_k].ravel(), minlength=n_experts) for ix in index])


def load_balance(probs: np.ndarray, index: np.ndarray, top_k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Switch's load-balancing loss (2101.03961, eq. 4) of each layer, term by term: (f, P, terms), each (L, E), with
    fᵢ the share of routed slots whose choice is expert i, Pᵢ the router probability of expert i averaged over the
    tokens, and terms = E · fᵢ · Pᵢ, whose sum over i is the loss (``models.layers.moe.load_balancing_loss``)."""
    E = probs.shape[-1]
    routed = routed_counts(index, top_k, E)
    f = routed / routed.sum(-1, keepdims=True)
    P = probs.mean(1)
    return f, P, E * f * P


@dataclass(frozen=True)
class Routing:
    """One forward pass. L MoE layers, T tokens, E experts, K = 2 ranks (only the first k are used)."""

    tokens: tuple[str, ...]
    probs: np.ndarray  # (L, T, E) router probabilities
    index: np.ndarray  # (L, T, K) chosen experts, best first
    combine: np.ndarray  # (L, T, K) combine weights (0 for unused or dropped ranks)
    dropped: np.ndarray  # (L, T, K) bool
    capacity: int  # slots per expert in this batch
    top_k: int
    capacity_factor: float
    f: np.ndarray  # (L, E) fᵢ: the share of routed slots whose choice is expert i
    P: np.ndarray  # (L, E) Pᵢ: the router probability of expert i averaged over the tokens
    aux_terms: np.ndarray  # (L, E) E · fᵢ · Pᵢ
    backend: str
    device: str
    ms: float

    @property
    def n_experts(self) -> int:
        return self.probs.shape[-1]

    @property
    def routed(self) -> np.ndarray:
        """(L, E) slots sent to each expert (first k ranks), before the capacity cut."""
        return routed_counts(self.index, self.top_k, self.n_experts)

    @property
    def kept(self) -> np.ndarray:
        """(L, E) slots each expert processed."""
        k = self.top_k
        return np.stack(
            [
                np.bincount(ix[:, :k][~dr[:, :k]].ravel(), minlength=self.n_experts)
                for ix, dr in zip(self.index, self.dropped)
            ]
        )

    @property
    def dropped_count(self) -> int:
        """Dropped token slots, all layers together."""
        return int(self.dropped[..., : self.top_k].sum())

    @property
    def aux_loss(self) -> np.ndarray:
        """(L,) the Switch load-balancing loss E · Σᵢ fᵢ · Pᵢ of each layer."""
        return self.aux_terms.sum(-1)


def _tokenizer():
    return MODEL.tokenizer


def max_tokens() -> int:
    return int(MODEL.config["max_len"])


def token_labels(ids: list[int]) -> tuple[str, ...]:
    pieces = bpe.token_bytes(_tokenizer(), ids)
    return tuple(EOT_LABEL if i == 0 else p.decode("utf-8", errors="replace") for i, p in zip(ids, pieces))


def _encode(text: str) -> list[int]:
    """The text's ids (<|endoftext|> first, as the model was trained), or the translated reason it cannot be run."""
    MODEL.require()
    if not text.strip():
        raise InputError("moe.error.empty")
    if len(text) > MAX_CHARS:
        raise InputError("moe.error.too_long", max_chars=MAX_CHARS)
    ids = metrics.encode_document(_tokenizer(), text).tolist()
    if len(ids) > max_tokens():
        raise InputError("moe.error.too_many_tokens", n=len(ids), max_tokens=max_tokens())
    return ids


def _run(ids: list[int], top_k: int, capacity_factor: float, backend: str, model: services.Checkpoint = MODEL):
    inputs = {
        "tokens": np.array([ids], dtype=np.int64),
        "capacity_factor": np.array([capacity_factor], dtype=np.float32),
        "top_k": np.array([top_k], dtype=np.int64),
    }
    return model.run(inputs, PROBES, backend)


def _routing(res, ids: list[int], top_k: int, capacity_factor: float, model: services.Checkpoint = MODEL) -> Routing:
    """A forward pass's probes (of ``model``: the page's, or a recorded run's) as the page's ``Routing``."""
    L = int(model.config["n_layers"])
    probs = stack_layers(res.probes, "blocks.{}.moe.router_probs", L)
    index = stack_layers(res.probes, "blocks.{}.moe.expert_index", L).astype(np.int64)
    f, P, terms = load_balance(probs, index, top_k)
    return Routing(
        tokens=token_labels(ids),
        probs=probs,
        index=index,
        combine=stack_layers(res.probes, "blocks.{}.moe.combine", L),
        dropped=stack_layers(res.probes, "blocks.{}.moe.dropped", L) > 0,
        capacity=int(res.probes["blocks.0.moe.capacity"].ravel()[0]),
        top_k=top_k,
        capacity_factor=capacity_factor,
        f=f,
        P=P,
        aux_terms=terms,
        backend=res.backend,
        device=res.device,
        ms=res.ms,
    )


@st.cache_data(show_spinner=False, max_entries=64)
def analyse(text: str, top_k: int, capacity_factor: float, backend: str) -> Routing:
    """Route ``text`` through every MoE layer with ``top_k`` experts per token at ``capacity_factor``."""
    ids = _encode(text)
    return _routing(_run(ids, top_k, capacity_factor, backend), ids, top_k, capacity_factor)


@needs_corpus
@st.cache_data(show_spinner=False, max_entries=4)
def specialisation(backend: str, per_domain: int = 8) -> np.ndarray:
    """(L, domains, E): the share of each domain's tokens whose first choice is each expert, on fixed held-out
    windows (``per_domain`` windows of 128 tokens per domain), at the shipped capacity and k."""
    MODEL.require()
    windows, labels = domains.validation_windows(_tokenizer(), per_domain=per_domain)
    cfg = MODEL.config
    inputs = {
        "tokens": windows[:, :-1].copy(),
        "capacity_factor": np.array([cfg["capacity_factor"]], dtype=np.float32),
        "top_k": np.array([cfg["top_k"]], dtype=np.int64),
    }
    res = MODEL.run(inputs, ("blocks.*.moe.expert_index",), backend)
    E = int(cfg["n_experts"])
    table = np.zeros((cfg["n_layers"], len(DOMAINS), E))
    for i in range(cfg["n_layers"]):
        top1 = res.probes[f"blocks.{i}.moe.expert_index"][..., 0].astype(np.int64)  # (rows, T)
        for d in range(len(DOMAINS)):
            table[i, d] = np.bincount(top1[labels == d].ravel(), minlength=E)
    return table / table.sum(-1, keepdims=True)


@st.cache_data(show_spinner=False)
def card() -> dict:
    """The switch card (metrics, params, active params) and the dense twin's parameter count (None when the twin
    is not installed). Plain dicts: the cache pickles what it returns, and the handle's mappings are read-only views."""
    MODEL.require()
    c = MODEL.card
    return {
        "params": c["params"],
        "active_params": c.get("active_params"),
        "metrics": dict(c.get("metrics", {})),
        "dense_params": DENSE_MODEL.card.get("params"),
        "config": dict(MODEL.config),
    }


@dataclass(frozen=True)
class Appended:
    """The guided experiment: the "mixed" sample alone and with ``APPENDED`` on a new line after it, both at the
    trained capacity factor and k."""

    text: str  # the sample with the line appended
    tokens: int  # tokens of the sample alone: the prefix both runs share
    capacity: tuple[int, int]  # capacity per expert: alone, appended
    total: tuple[int, int]  # dropped slots of the whole text, all layers (the page's metric): alone, appended
    dropped: tuple[int, int]  # dropped slots among the prefix's tokens, all layers: alone, appended


def appended() -> Appended:
    cfg = MODEL.config
    k, cf = int(cfg["top_k"]), float(cfg["capacity_factor"])
    text = SAMPLES["mixed"] + "\n" + APPENDED
    alone = analyse(SAMPLES["mixed"], k, cf, "torch")
    more = analyse(text, k, cf, "torch")
    n = len(alone.tokens)
    return Appended(
        text=text,
        tokens=n,
        capacity=(alone.capacity, more.capacity),
        total=(alone.dropped_count, more.dropped_count),
        dropped=(int(alone.dropped[:, :n, :k].sum()), int(more.dropped[:, :n, :k].sum())),
    )


@st.cache_data(show_spinner=False)
def card_numbers() -> dict:
    """The switch model's architecture, training and results from its config and cards, for the page's table."""
    MODEL.require()
    c = MODEL.config
    card = MODEL.card
    training = card.get("training", {})
    metrics_ = card.get("metrics", {})
    return {
        "layers": c["n_layers"],
        "dim": c["dim"],
        "heads": c["n_heads"],
        "E": c["n_experts"],
        "hidden": c["hidden"],
        "shared": c["n_shared"],
        "k": c["top_k"],
        "cf": c["capacity_factor"],
        "aux": c["aux_weight"],
        "vocab": c["vocab"],
        "uniform": float(np.log(c["vocab"])),
        "params": card["params"],
        "active": card.get("active_params") or 0,
        "tokens": training.get("steps", 0) * training.get("batch", 0) * training.get("context", 0),
        "val": metrics_.get("val_loss", float("nan")),
        "dense": metrics_.get("dense_val_loss", float("nan")),
    }


# ---- intervention: an expert switched off, or one token forced to an expert (torch only) ---------------------------

KO_MODES = ("off", "force")  # models.layers.moe.expert_off / force_expert, through the router_logits probe
HELD_OUT_PER_DOMAIN = 32  # the held-out windows of the card's val_loss (models/recipes/switch.py evaluate) ...
HELD_OUT_BATCH = 12  # ... run 12 at a time, as there: the capacity counts the tokens of a batch


def held_out_windows() -> int:
    return HELD_OUT_PER_DOMAIN * len(DOMAINS)


def trained() -> dict:
    """The k and capacity factor the model was trained with (and the held-out numbers use)."""
    return {"k": int(MODEL.config["top_k"]), "cf": float(MODEL.config["capacity_factor"])}


def router_probe(layer: int) -> str:
    return f"blocks.{layer}.moe.router_logits"


@dataclass(frozen=True)
class Intervention:
    """The page's text routed plainly and with the override, at the page's k and capacity factor, and its bits per
    character both ways (the held-out windows' are ``held_out_bpc``: they need the corpora)."""

    mode: str
    layer: int
    expert: int
    position: int  # the forced token (mode "force")
    before: Routing
    after: Routing
    text_bpc: tuple[float, float]
    backend: str  # always torch: the override runs in the torch model
    device: str
    ms: float  # the run with the override

    @property
    def forced_before(self) -> tuple[int, bool]:
        """The forced token's first-choice expert in ``layer`` and whether it lost its slot, plainly."""
        return int(self.before.index[self.layer, self.position, 0]), bool(
            self.before.dropped[self.layer, self.position, 0]
        )

    @property
    def forced_after(self) -> tuple[int, bool]:
        return int(self.after.index[self.layer, self.position, 0]), bool(
            self.after.dropped[self.layer, self.position, 0]
        )


def _override(mode: str, layer: int, expert: int, position: int) -> dict:
    from models.layers import moe

    fn = moe.expert_off(expert) if mode == "off" else moe.force_expert(position, expert)
    return {router_probe(layer): fn}


def _text_bpc(logits: np.ndarray, ids: list[int], chars: int) -> float:
    """Bits per character of predicting ids[1:] from logits (T, V) of ids (the last position predicts nothing)."""
    logp = log_softmax(logits[:-1])
    return float(-logp[np.arange(len(ids) - 1), ids[1:]].sum() / chars / np.log(2))


@st.cache_resource(show_spinner=False)
def _held_out() -> tuple[np.ndarray, int]:
    """The held-out windows (rows, 129) and the characters of the tokens they predict (windows[:, 1:])."""
    tok = _tokenizer()
    windows, _ = domains.validation_windows(tok, per_domain=HELD_OUT_PER_DOMAIN)
    chars = sum(
        len(b"".join(bpe.token_bytes(tok, row[1:].tolist())).decode("utf-8", errors="replace")) for row in windows
    )
    return services.read_only((windows, chars))


@needs_corpus
@st.cache_data(show_spinner=False, max_entries=64)
def held_out_bpc(off: tuple[int, int] | None = None) -> float:
    """Bits per character on the held-out windows of the three domains at the trained k and capacity factor (a page
    control would rerun them on every move): plainly, or with ``off`` = (layer, expert) switched off."""
    import torch
    import torch.nn.functional as F

    from models.probe import intervene

    windows, chars = _held_out()
    model = MODEL.model
    device = next(model.parameters()).device
    overrides = {} if off is None else _override("off", off[0], off[1], 0)
    nll = 0.0
    with torch.inference_mode(), intervene(overrides):
        for s in range(0, len(windows), HELD_OUT_BATCH):
            chunk = torch.from_numpy(windows[s : s + HELD_OUT_BATCH].copy()).to(device)  # shared read-only windows
            logits = model(chunk[:, :-1])  # the config's k and capacity factor
            nll += F.cross_entropy(logits.flatten(0, 1).float(), chunk[:, 1:].flatten(), reduction="sum").item()
    return nll / chars / float(np.log(2))


def _check_intervention(mode: str, layer: int, expert: int, position: int, tokens: int) -> None:
    cfg = MODEL.config
    if mode not in KO_MODES:
        raise InputError("moe.error.ko_mode")
    if not (0 <= layer < cfg["n_layers"] and 0 <= expert < cfg["n_experts"] and 0 <= position < tokens):
        raise InputError("moe.error.ko_index", layers=cfg["n_layers"], experts=cfg["n_experts"], tokens=tokens)


@st.cache_data(show_spinner=False, max_entries=64)
def intervene(
    text: str, top_k: int, capacity_factor: float, mode: str, layer: int, expert: int, position: int = 0
) -> Intervention:
    """Route ``text`` plainly and with ``expert`` of ``layer`` switched off (``mode`` "off": its router logit −∞) or
    with the token at ``position`` forced to it (``mode`` "force": its logit swapped with the token's largest), through
    the probe ``router_probe(layer)`` (``models.probe.intervene``). Eager torch on the shared model: the override lives
    in this call's context only, the model is never changed."""
    import time

    from models.probe import intervene as overriding

    ids = _encode(text)
    _check_intervention(mode, layer, expert, position, len(ids))
    plain = _run(ids, top_k, capacity_factor, "torch")
    start = time.perf_counter()
    with overriding(_override(mode, layer, expert, position)):
        changed = _run(ids, top_k, capacity_factor, "torch")
    ms = (time.perf_counter() - start) * 1e3
    bpc = tuple(_text_bpc(r.outputs["logits"][0], ids, len(text)) for r in (plain, changed))
    return Intervention(
        mode=mode,
        layer=layer,
        expert=expert,
        position=position,
        before=_routing(plain, ids, top_k, capacity_factor),
        after=_routing(changed, ids, top_k, capacity_factor),
        text_bpc=bpc,
        backend="torch",
        device=changed.device,
        ms=ms,
    )


# ---- training: three small Switch runs recorded step by step (models/recipes/switch.py, ``RUNS``) --------------------

RUNS = ("switch-run-aux", "switch-run-auxfree", "switch-run-none")  # Switch's loss, DeepSeek-V3's bias, neither
RUN_KINDS = {"switch-run-aux": "aux", "switch-run-auxfree": "auxfree", "switch-run-none": "none"}
SMOOTH = 10  # steps per point of the curves over training: each point the mean of that many steps' batches ...
SINGLE = 20  # ... after the first SINGLE steps, one point each (the curves' step axis is logarithmic)
STARVED = 0.02  # an expert whose share of a batch's tokens (mean over SMOOTH steps) is below this takes (almost) none


def runs() -> list[str]:
    """The recorded runs installed here, in ``RUNS`` order."""
    return [name for name in RUNS if services.checkpoint(name).available]


def run_handle(name: str, step: int | None = None) -> services.Checkpoint:
    """The recorded run ``name`` at training ``step`` (a snapshot its card lists; None: the trained weights)."""
    if name not in RUNS:
        raise InputError("moe.error.run", runs=", ".join(RUNS))
    handle = services.checkpoint(name, step)
    if not handle.available:
        raise handle.missing()
    return handle


@st.cache_data(show_spinner=False, max_entries=64)
def analyse_run(text: str, name: str, step: int | None, backend: str = "torch") -> Routing:
    """Route ``text`` through the run ``name`` at training ``step`` with the k and capacity factor it trained with
    (on torch where the run has no ONNX graph: a snapshot never has one)."""
    model = run_handle(name, step)
    ids = _encode(text)  # the runs share switch's tokenizer (models/recipes/switch.py train_run)
    cfg = model.config
    k, cf = int(cfg["top_k"]), float(cfg["capacity_factor"])
    return _routing(_run(ids, k, cf, model.backend(backend), model), ids, k, cf, model)


@dataclass(frozen=True)
class TrainingRun:
    """A recorded run's history, smoothed: S points (one step each up to step ``SINGLE``, then means of ``SMOOTH``
    steps: ``curve_groups``), L layers, E experts."""

    name: str
    kind: str  # "aux", "auxfree" or "none"
    steps: np.ndarray  # (S,) the last step of each point
    load: np.ndarray  # (S, L, E) each expert's share of the batch's tokens (routed, before the capacity cut)
    dropped: np.ndarray  # (S, L) the share of the batch's tokens dropped at the capacity
    bias: np.ndarray | None  # (S, L, E) DeepSeek-V3's selection bias (aux-free only), at the point's last step
    loss: np.ndarray  # (S,) training loss
    snapshots: tuple[int, ...]  # the steps whose weights were kept
    snapshot_loss: tuple[float, ...]  # the held-out loss measured on each kept step's weights
    config: dict  # the run's model config
    facts: dict  # the numbers the page's text states (``run_facts``)


def curve_groups(n: int) -> list[np.ndarray]:
    """The rows of a history of ``n`` steps behind each point of the curves: one each for the first ``SINGLE``, then
    runs of ``SMOOTH`` (a last shorter run dropped)."""
    single = min(SINGLE, n)
    return [np.array([i]) for i in range(single)] + [
        np.arange(s, s + SMOOTH) for s in range(single, n - SMOOTH + 1, SMOOTH)
    ]


def _grouped(values: np.ndarray, groups: list[np.ndarray]) -> np.ndarray:
    return np.stack([values[g].mean(0) for g in groups])


def _smooth(values: np.ndarray, n: int) -> np.ndarray:
    """Means over consecutive groups of ``n`` rows (a last shorter group dropped)."""
    S = len(values) // n
    return values[: S * n].reshape(S, n, *values.shape[1:]).mean(1)


def run_facts(history: dict, card: dict) -> dict:
    """What the page says happened in a run, read from its card: the final experts' shares (mean of the last 100
    steps' batches) at their highest and lowest over the layers, the dropped share then, the step of the first
    ``SMOOTH``-step window where an expert took under ``STARVED`` of the tokens (0 when none did) and how many
    experts of all layers were under it at the end; the busiest expert's largest share of a ``SMOOTH``-step window
    and the largest dropped share (mean over layers) of one, each with the window's last step; the aux-free run's
    final bias range; the held-out loss and its bigram baseline."""
    load = np.asarray(history["load"], float)  # (steps, L, E)
    steps = np.asarray(history["step"])
    last = load[-100:].mean(0)  # (L, E)
    windows = _smooth(load, SMOOTH)
    starved = (windows < STARVED).any(axis=(1, 2))
    dropped = _smooth(np.asarray(history["dropped"], float), SMOOTH).mean(1)  # (S,) mean over layers
    ends = steps[SMOOTH - 1 :: SMOOTH]  # the last step of each window
    busiest = windows.max(axis=(1, 2))
    metrics_ = card.get("metrics", {})
    facts = {
        "steps": int(steps[-1]),
        "E": int(load.shape[2]),
        "layers": int(load.shape[1]),
        "uniform": 1.0 / load.shape[2],
        "max_share": float(last.max()),
        "min_share": float(last.min()),
        "dropped": float(np.asarray(history["dropped"], float)[-100:].mean()),
        "starved_step": int(steps[(np.argmax(starved) + 1) * SMOOTH - 1]) if starved.any() else 0,
        "starved_end": int((windows[-1] < STARVED).sum()),
        "peak_share": float(busiest.max()),
        "peak_step": int(ends[np.argmax(busiest)]),
        "peak_dropped": float(dropped.max()),
        "peak_dropped_step": int(ends[np.argmax(dropped)]),
        "val": float(metrics_.get("val_loss", np.nan)),
        "bigram": float(metrics_.get("bigram_val_loss", np.nan)),
    }
    if "bias" in history:
        bias = np.asarray(history["bias"][-1], float)
        facts.update(bias_min=float(bias.min()), bias_max=float(bias.max()))
    return facts


@st.cache_data(show_spinner=False, max_entries=4)
def training_run(name: str) -> TrainingRun:
    """The recorded run ``name``'s history (every step's routing on its training batch), for the curves and text."""
    handle = run_handle(name)
    card = handle.card  # read once: a recorded card holds every step's routing
    history, records = card["history"], sorted(card["snapshots"], key=lambda r: r["step"])
    bias = np.asarray(history["bias"], float) if "bias" in history else None
    groups = curve_groups(len(history["step"]))
    ends = np.array([g[-1] for g in groups])
    return TrainingRun(
        name=name,
        kind=RUN_KINDS[name],
        steps=np.asarray(history["step"])[ends],
        load=_grouped(np.asarray(history["load"], float), groups),
        dropped=_grouped(np.asarray(history["dropped"], float), groups),
        bias=None if bias is None else bias[ends],
        loss=_grouped(np.asarray(history["loss"], float), groups),
        snapshots=tuple(r["step"] for r in records),
        snapshot_loss=tuple(float(r["metrics"]["val_loss"]) for r in records),
        config=handle.config,
        facts=run_facts(history, card),
    )
