"""Mamba: a selective state-space model (Gu & Dao 2023, 2312.00752), trained on the paper's synthetic tasks.

One layer of the stack (the "Mamba block", paper Figure 3), for an input x of shape (b, l, d):

    x, z  = in_proj(RMSNorm(x))                 two streams of width d_in = expand · d
    x     = SiLU(causal depthwise conv1d(x))    a short local filter, width d_conv
    Δ     = softplus(dt_proj(x_proj_Δ(x)))      (b, l, d_in)  step size, one per channel and position
    B, C  = x_proj_B(x), x_proj_C(x)            (b, l, n)     input and read-out vectors, per position
    Ā     = exp(Δ A)          B̄ x = Δ B x       zero-order hold for A, Euler for B (as the paper's code does)
    h_t   = Ā_t ⊙ h_{t-1} + B̄_t x_t             (b, d_in, n) the state: n numbers per channel   (paper eq. 2a)
    y_t   = C_t · h_t + D ⊙ x_t                                                               (paper eq. 2b)
    out   = out_proj(y ⊙ SiLU(z)),   residual: x + out

A is diagonal, real and fixed in sign: A = −exp(A_log), initialised to A[:, k] = −(k + 1) (S4D-real). Δ, B and C
depend on the input — the paper's *selection* mechanism (Algorithm 2). With ``lti=True`` they are learned constants
instead (Algorithm 1, an S4-like linear time-invariant baseline): the same filter is applied whatever the input.

Glossary (code name -> paper symbol), after mamba-minimal:
    b  batch            l  sequence length      d  d_model            d_in  channels of the SSM (E·D in the paper)
    n  d_state (N)      R  dt_rank              delta  Δ              A  A (d_in, n)     B, C  B, C (b, l, n)
    A_bar  Ā = exp(ΔA)  h  the state (b, d_in, n)                     D  the skip D (d_in,)

The scan. ``selective_scan_ref`` is the plain loop over t, the reference. ``selective_scan`` is the parallel
(log-depth) form: a Hillis–Steele prefix scan of the pairs (Ā_t, B̄_t x_t) under the associative operator
(a₁, b₁) ∘ (a₂, b₂) = (a₁a₂, a₂b₁ + b₂), ⌈log₂ l⌉ vectorised steps instead of l sequential ones. On one CPU thread
the loop does less arithmetic (O(l) against O(l log l)), so training uses the loop (``Mixer.parallel = False``,
like GPT's fused attention during training); the model's forward uses the parallel form, and a test holds the two
equal. ``step()`` is the recurrent mode: one token in, a state of constant size (conv window + h) carried.

ONNX (``python -m models.export``): the parallel form is traced with the number of doubling steps fixed by
``Config.max_len`` (⌈log₂ max_len⌉ steps; a step whose offset exceeds the sequence slices to nothing), so one graph
serves every length up to ``max_len`` — no loop over t is unrolled, and Δ, Ā, B, C, ‖h_t‖ are graph outputs.

Probes (i = layer): ``layers.{i}.mixer.delta`` (b, l, d_in) Δ; ``layers.{i}.mixer.A_bar`` (b, l, d_in, n) Ā;
``layers.{i}.mixer.B``, ``layers.{i}.mixer.C`` (b, l, n); ``layers.{i}.mixer.h_norm`` (b, l) ‖h_t‖ over all of the
layer's d_in·n state numbers; ``layers.{i}.mixer.out`` (b, l, d) the block's output before the residual sum.

Checkpoints: ``mamba-selective-copy`` and ``mamba-lti-selective-copy`` (the same model with ``lti=True``, same
budget), ``mamba-induction`` (trained at length 64, tested at 64 and 256), ``mamba-lm`` (Shakespeare, the GPT
checkpoint's tokenizer).
"""

from __future__ import annotations

import copy
import math
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models import zoo
from models.data import ssm_tasks
from models.layers import RMSNorm
from models.probe import Probe, name_probes
from models.training import fit
from models.zoo import Recipe, Trained


@dataclass
class Config:
    vocab: int = 10
    d_model: int = 64
    n_layers: int = 2
    d_state: int = 16  # n: state numbers per channel
    expand: int = 2  # d_in = expand · d_model
    d_conv: int = 4  # width of the causal depthwise convolution
    dt_rank: int = 0  # R, the rank of Δ's projection; 0 means ⌈d_model / 16⌉ as in the paper
    dt_min: float = 0.001  # Δ is initialised log-uniformly in [dt_min, dt_max] (paper's code)
    dt_max: float = 0.1
    lti: bool = False  # True: Δ, B, C are learned constants (S4-like, time-invariant), not functions of the input
    max_len: int = 1024  # longest sequence the exported parallel scan covers (its number of doubling steps)

    @property
    def d_in(self) -> int:
        return self.expand * self.d_model

    @property
    def rank(self) -> int:
        return self.dt_rank or math.ceil(self.d_model / 16)


PRESETS = {
    "tiny": Config(vocab=7, d_model=16, n_layers=2, d_state=4, max_len=64),
    "copy": Config(vocab=ssm_tasks.selective_copy_vocab(8), d_state=8, max_len=256),
    "induction": Config(vocab=ssm_tasks.induction_vocab(16), d_state=8, max_len=1024),
    "lm": Config(vocab=2048, d_model=128, n_layers=4, d_state=8, max_len=256),
}


# ---- the scan -------------------------------------------------------------------------------------------------------


def discretize(delta: torch.Tensor, A: torch.Tensor, B: torch.Tensor, u: torch.Tensor):
    """Ā = exp(ΔA) and B̄u = ΔBu, both (b, l, d_in, n), from Δ, u (b, l, d_in), A (d_in, n), B (b, l, n)."""
    A_bar = torch.exp(delta.unsqueeze(-1) * A)  # (b, l, d_in, n)
    Bu = (delta * u).unsqueeze(-1) * B.unsqueeze(2)  # (b, l, d_in, n)
    return A_bar, Bu


def selective_scan_ref(u: torch.Tensor, delta: torch.Tensor, A: torch.Tensor, B: torch.Tensor, C: torch.Tensor,
                       D: torch.Tensor, h0: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """The reference: h_t = Ā_t h_{t-1} + B̄_t u_t, y_t = C_t·h_t + D u_t, one t at a time (paper eq. 2).

    Args:
        u, delta: (b, l, d_in); A: (d_in, n); B, C: (b, l, n); D: (d_in,); h0: (b, d_in, n) or None (zeros).
    Returns:
        y (b, l, d_in) and every state h (b, l, d_in, n).
    """
    A_bar, Bu = discretize(delta, A, B, u)
    h = torch.zeros_like(A_bar[:, 0]) if h0 is None else h0
    ys, hs = [], []
    # unbind, not [:, t]: its gradient is one stack, where l slices would each scatter into a full-size zero tensor
    for a_t, bu_t, c_t in zip(A_bar.unbind(1), Bu.unbind(1), C.unbind(1)):
        h = a_t * h + bu_t  # (b, d_in, n)
        ys.append((h * c_t.unsqueeze(1)).sum(-1))  # (b, d_in)
        hs.append(h)
    return torch.stack(ys, dim=1) + D * u, torch.stack(hs, dim=1)


def doubling_steps(length: int) -> int:
    """Steps of the Hillis–Steele scan that cover ``length`` positions: ⌈log₂ length⌉."""
    return max(0, math.ceil(math.log2(max(length, 1))))


def selective_scan(u: torch.Tensor, delta: torch.Tensor, A: torch.Tensor, B: torch.Tensor, C: torch.Tensor,
                   D: torch.Tensor, steps: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """The same result as ``selective_scan_ref``, by a log-depth prefix scan (no loop over t).

    After step k, position t holds the pair for the window (t − 2^k, t]: the decay a = Π Ā over the window and the
    state b it builds from zero. Combining with the window 2^k further back doubles it (a₂a₁, a₂b₁ + b₂);
    ``steps`` ≥ ⌈log₂ l⌉ windows cover everything (extra steps change nothing). Shapes as in the reference.
    """
    a, h = discretize(delta, A, B, u)
    steps = doubling_steps(u.shape[1]) if steps is None else steps
    for k in range(steps):
        off = 1 << k
        h = torch.cat([h[:, :off], a[:, off:] * h[:, :-off] + h[:, off:]], dim=1)
        a = torch.cat([a[:, :off], a[:, off:] * a[:, :-off]], dim=1)
    y = (h * C.unsqueeze(2)).sum(-1) + D * u
    return y, h


# ---- modules --------------------------------------------------------------------------------------------------------


class Mixer(nn.Module):
    """The selective SSM with its projections, convolution and gate (paper Figure 3, right)."""

    parallel = True  # which scan forward uses; training sets False on the instance (the loop is cheaper on a CPU)

    def __init__(self, c: Config):
        super().__init__()
        self.c = c
        d_in, n, R = c.d_in, c.d_state, c.rank
        self.in_proj = nn.Linear(c.d_model, 2 * d_in, bias=False)
        self.conv1d = nn.Conv1d(d_in, d_in, c.d_conv, groups=d_in, padding=c.d_conv - 1)
        dt = torch.exp(torch.empty(d_in).uniform_(math.log(c.dt_min), math.log(c.dt_max)))
        dt_bias = dt + torch.log(-torch.expm1(-dt))  # softplus⁻¹(dt), so Δ starts in [dt_min, dt_max]
        if c.lti:
            self.dt_bias = nn.Parameter(dt_bias)
            self.B_const = nn.Parameter(torch.ones(n))
            self.C_const = nn.Parameter(torch.randn(n) / math.sqrt(n))
        else:
            self.x_proj = nn.Linear(d_in, R + 2 * n, bias=False)  # -> (Δ low-rank, B, C)
            self.dt_proj = nn.Linear(R, d_in)
            nn.init.uniform_(self.dt_proj.weight, -R**-0.5, R**-0.5)
            with torch.no_grad():
                self.dt_proj.bias.copy_(dt_bias)
        self.A_log = nn.Parameter(torch.log(torch.arange(1, n + 1, dtype=torch.float32)).repeat(d_in, 1))
        self.D = nn.Parameter(torch.ones(d_in))
        self.out_proj = nn.Linear(d_in, c.d_model, bias=False)
        self.delta, self.A_bar, self.B, self.C = Probe(), Probe(), Probe(), Probe()
        self.h_norm, self.out = Probe(), Probe()

    @property
    def A(self) -> torch.Tensor:
        return -torch.exp(self.A_log)  # (d_in, n), every entry < 0 so the state decays

    def select(self, u: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Δ (b, l, d_in), B, C (b, l, n) from the convolved input u (b, l, d_in) — or the constants when LTI."""
        n = self.c.d_state
        if self.c.lti:
            b, l, d_in = u.shape
            delta = F.softplus(self.dt_bias).expand(b, l, d_in)
            return delta, self.B_const.expand(b, l, n), self.C_const.expand(b, l, n)
        dt, B, C = self.x_proj(u).split([self.c.rank, n, n], dim=-1)
        return F.softplus(self.dt_proj(dt)), B, C

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x (b, l, d) -> (b, l, d). Paper Algorithm 2 inside the gated block of Figure 3."""
        l = x.shape[1]
        u, z = self.in_proj(x).chunk(2, dim=-1)  # (b, l, d_in) each
        u = F.silu(self.conv1d(u.transpose(1, 2))[..., :l].transpose(1, 2))  # causal: drop the look-ahead tail
        delta, B, C = self.select(u)
        self.delta(delta)
        self.B(B)
        self.C(C)
        A = self.A
        if self.parallel:
            steps = doubling_steps(self.c.max_len) if torch.jit.is_tracing() else None
            y, H = selective_scan(u, delta, A, B, C, self.D, steps=steps)
        else:
            y, H = selective_scan_ref(u, delta, A, B, C, self.D)
        if not self.training:  # the (b, l, d_in, n) probes cost as much as the scan; nobody traces a training step
            self.A_bar(torch.exp(delta.unsqueeze(-1) * A))
            self.h_norm(H.flatten(2).norm(dim=-1))  # (b, l)
        return self.out(self.out_proj(y * F.silu(z)))

    def new_state(self, batch: int, device=None) -> tuple[torch.Tensor, torch.Tensor]:
        """(conv window (b, d_in, d_conv − 1), h (b, d_in, n)): all the layer remembers, whatever the length."""
        c = self.c
        return (torch.zeros(batch, c.d_in, c.d_conv - 1, device=device),
                torch.zeros(batch, c.d_in, c.d_state, device=device))

    def step(self, x: torch.Tensor, state: tuple[torch.Tensor, torch.Tensor]):
        """One position: x (b, d) and the state -> (out (b, d), new state). Same maths as forward, l = 1."""
        window, h = state
        u, z = self.in_proj(x).chunk(2, dim=-1)  # (b, d_in)
        frame = torch.cat([window, u.unsqueeze(-1)], dim=-1)  # (b, d_in, d_conv)
        u = F.silu((frame * self.conv1d.weight.squeeze(1)).sum(-1) + self.conv1d.bias)
        delta, B, C = (v[:, 0] for v in self.select(u.unsqueeze(1)))
        A_bar = torch.exp(delta.unsqueeze(-1) * self.A)  # (b, d_in, n)
        h = A_bar * h + (delta * u).unsqueeze(-1) * B.unsqueeze(1)
        y = (h * C.unsqueeze(1)).sum(-1) + self.D * u
        return self.out_proj(y * F.silu(z)), (frame[..., 1:], h)


class Layer(nn.Module):
    """Pre-norm residual: x + Mixer(RMSNorm(x))."""

    def __init__(self, c: Config):
        super().__init__()
        self.norm = RMSNorm(c.d_model)
        self.mixer = Mixer(c)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.mixer(self.norm(x))


class Mamba(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.d_model)
        self.layers = nn.ModuleList(Layer(c) for _ in range(c.n_layers))
        self.norm_f = RMSNorm(c.d_model)
        nn.init.normal_(self.embed.weight, std=0.02)
        name_probes(self)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """tokens (b, l) -> logits (b, l, V); the output projection is tied to the embedding."""
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x)
        return self.norm_f(x) @ self.embed.weight.T

    def new_state(self, batch: int = 1) -> list[tuple[torch.Tensor, torch.Tensor]]:
        device = self.embed.weight.device
        return [layer.mixer.new_state(batch, device) for layer in self.layers]

    def step(self, token: torch.Tensor, state: list) -> tuple[torch.Tensor, list]:
        """token (b,) and the per-layer states -> logits (b, V) for the next position, and the new states."""
        x = self.embed(token)
        new = []
        for layer, s in zip(self.layers, state):
            out, s = layer.mixer.step(layer.norm(x), s)
            x = x + out
            new.append(s)
        return self.norm_f(x) @ self.embed.weight.T, new

    def set_parallel(self, parallel: bool) -> None:
        for layer in self.layers:
            layer.mixer.parallel = parallel


def build(config: dict) -> Mamba:
    return Mamba(Config(**config))


def state_bytes(model: Mamba, batch: int = 1) -> int:
    """Bytes of the recurrent state: the same at every length."""
    return sum(t.numel() * t.element_size() for s in model.new_state(batch) for t in s)


@torch.inference_mode()
def recurrent_logits(model: Mamba, tokens: torch.Tensor) -> torch.Tensor:
    """Logits (b, l, V) of running ``step`` over tokens (b, l) one position at a time."""
    state = model.new_state(tokens.shape[0])
    out = []
    for t in range(tokens.shape[1]):
        logits, state = model.step(tokens[:, t], state)
        out.append(logits)
    return torch.stack(out, dim=1)


@torch.inference_mode()
def scan_difference(model: Mamba, tokens: torch.Tensor) -> dict[str, float]:
    """Max |difference| of the logits: parallel scan vs sequential reference vs step-by-step recurrence."""
    parallel = _with_scan(model, parallel=True)(tokens)
    sequential = _with_scan(model, parallel=False)(tokens)
    recurrent = recurrent_logits(model, tokens)
    return {"parallel_vs_sequential": float((parallel - sequential).abs().max()),
            "parallel_vs_recurrent": float((parallel - recurrent).abs().max())}


def _with_scan(model: Mamba, parallel: bool) -> Mamba:
    """A copy of ``model`` sharing its parameters, whose mixers use the given scan (the original is not touched)."""
    clone = copy.copy(model)
    clone._modules = dict(model._modules)
    clone.layers = nn.ModuleList()
    for layer in model.layers:
        new_layer = copy.copy(layer)
        new_layer._modules = dict(layer._modules)
        mixer = copy.copy(layer.mixer)
        mixer.parallel = parallel
        new_layer._modules["mixer"] = mixer
        clone.layers.append(new_layer)
    return clone


@torch.inference_mode()
def decode_profile(model: Mamba, length: int) -> tuple[np.ndarray, np.ndarray]:
    """Generate ``length`` positions with ``step``: milliseconds of each step, and the bytes it carries (constant)."""
    state = model.new_state(1)
    token = torch.zeros(1, dtype=torch.long, device=model.embed.weight.device)
    ms = np.zeros(length)
    for t in range(length):
        start = time.perf_counter()
        logits, state = model.step(token, state)
        token = logits.argmax(-1)
        ms[t] = (time.perf_counter() - start) * 1e3
    return ms, np.full(length, state_bytes(model), dtype=np.int64)


@torch.inference_mode()
def kv_decode_profile(model: nn.Module, length: int) -> tuple[np.ndarray, np.ndarray]:
    """The same for a Transformer decoder with a KV cache (``model(tokens, cache)``, ``model.new_cache()``, as
    models.gpt): milliseconds of each one-token step, and the bytes of keys and values cached after it."""
    cache = model.new_cache()
    token = torch.zeros(1, 1, dtype=torch.long, device=next(model.parameters()).device)
    ms, held = np.zeros(length), np.zeros(length, dtype=np.int64)
    for t in range(length):
        start = time.perf_counter()
        logits = model(token, cache)
        token = logits[:, -1:].argmax(-1)
        ms[t] = (time.perf_counter() - start) * 1e3
        held[t] = sum(c.k.numel() * c.k.element_size() + c.v.numel() * c.v.element_size() for c in cache)
    return ms, held


# ---- training and evaluation --------------------------------------------------------------------------------------

# How the shipped checkpoints are trained (recorded on their cards).
COPY_TASK = {"length": 64, "n_memorize": 8, "n_values": 8}
COPY_TRAIN = {"steps": 2000, "batch": 32, "lr": 3e-3, "warmup": 100, "weight_decay": 0.01}
INDUCTION_TASK = {"length": 64, "n_values": 16}
INDUCTION_TRAIN = {"steps": 2000, "batch": 32, "lr": 3e-3, "warmup": 100, "weight_decay": 0.01}
EVAL_SEED = 12345  # held-out instances come from this seed; training draws from the run's seed
EVAL_COUNT = 1000


def _masked_loss(model: Mamba, batch: ssm_tasks.Batch) -> torch.Tensor:
    logits = model(torch.from_numpy(batch.tokens))
    mask = torch.from_numpy(batch.mask)
    return F.cross_entropy(logits[mask], torch.from_numpy(batch.targets)[mask])


@torch.inference_mode()
def masked_accuracy(model: Mamba, batch: ssm_tasks.Batch, chunk: int = 250) -> float:
    """Share of scored positions where the argmax is the target."""
    right = total = 0
    for s in range(0, len(batch.tokens), chunk):
        pred = model(torch.from_numpy(batch.tokens[s : s + chunk])).argmax(-1).numpy()
        mask = batch.mask[s : s + chunk]
        right += int((pred[mask] == batch.targets[s : s + chunk][mask]).sum())
        total += int(mask.sum())
    return right / total


def _train_task(preset: Config, make_batch, hp: dict, seed: int) -> Mamba:
    torch.manual_seed(seed)
    torch.set_flush_denormal(True)  # decayed states reach subnormal floats, which are many times slower on a CPU
    model = build(asdict(preset))
    model.set_parallel(False)  # the loop: less arithmetic per step on one CPU thread (same maths, tested)
    rng = np.random.default_rng(seed)

    def batches():
        while True:
            yield make_batch(rng, hp["batch"])

    fit(model, batches(), _masked_loss, steps=hp["steps"], lr=hp["lr"], warmup=hp["warmup"],
        weight_decay=hp["weight_decay"], desc="mamba", log_every=50)
    model.set_parallel(True)
    return model


def copy_batch(rng: np.random.Generator, batch: int, length: int | None = None) -> ssm_tasks.Batch:
    task = dict(COPY_TASK, **({"length": length} if length else {}))
    return ssm_tasks.selective_copy(rng, batch, **task)


def induction_batch(rng: np.random.Generator, batch: int, length: int | None = None) -> ssm_tasks.Batch:
    return ssm_tasks.induction(rng, batch, length or INDUCTION_TASK["length"], INDUCTION_TASK["n_values"])


def _train_copy(lti: bool):
    def train(seed: int, out: Path) -> Trained:
        preset = replace(PRESETS["copy"], lti=lti)
        model = _train_task(preset, copy_batch, COPY_TRAIN, seed)
        t = COPY_TASK
        return Trained(model, asdict(preset),
                       data=(f"selective copying (models/data/ssm_tasks.py): {t['n_memorize']} data tokens of "
                             f"{t['n_values']} values at random places among {t['length']} positions of noise, then "
                             f"{t['n_memorize']} copy markers; fresh instances every step from the run's seed"),
                       card={"task": dict(t), "training": dict(COPY_TRAIN),
                             "held_out": f"{EVAL_COUNT} instances from seed {EVAL_SEED}",
                             "variant": "LTI (Δ, B, C constant)" if lti else "selective (Δ, B, C from the input)"})
    return train


def evaluate_copy(model: Mamba, out: Path) -> dict:
    batch = copy_batch(np.random.default_rng(EVAL_SEED), EVAL_COUNT)
    return {"accuracy": round(masked_accuracy(model, batch), 4)}


def train_induction(seed: int, out: Path) -> Trained:
    model = _train_task(PRESETS["induction"], induction_batch, INDUCTION_TRAIN, seed)
    t = INDUCTION_TASK
    return Trained(model, asdict(PRESETS["induction"]),
                   data=(f"induction heads (models/data/ssm_tasks.py): {t['length']} random tokens of "
                         f"{t['n_values']} values, one (trigger, answer) pair, the trigger again at the end"),
                   card={"task": dict(t), "training": dict(INDUCTION_TRAIN),
                         "held_out": f"{EVAL_COUNT} instances from seed {EVAL_SEED} at lengths "
                                     f"{t['length']} and {4 * t['length']}"})


def evaluate_induction(model: Mamba, out: Path) -> dict:
    L = INDUCTION_TASK["length"]
    rng = np.random.default_rng(EVAL_SEED)
    return {"accuracy": round(masked_accuracy(model, induction_batch(rng, EVAL_COUNT, L)), 4),
            "accuracy_4x": round(masked_accuracy(model, induction_batch(rng, EVAL_COUNT, 4 * L)), 4)}


def copy_example(out: Path) -> dict[str, np.ndarray]:
    return {"tokens": copy_batch(np.random.default_rng(7), 1).tokens}


def induction_example(out: Path) -> dict[str, np.ndarray]:
    return {"tokens": induction_batch(np.random.default_rng(7), 1).tokens}


# ---- the language model ---------------------------------------------------------------------------------------------

LM_TRAIN = {"steps": 1000, "batch": 16, "context": 128, "lr": 3e-3, "warmup": 50, "weight_decay": 0.01}


def lm_tokenizer(out: Path):
    """The byte-level BPE shared with the GPT checkpoint (copied next to our weights when we train). Without a GPT
    checkpoint it is trained here exactly as models.gpt trains it: same training works, same vocabulary size."""
    from models.data import bpe, shakespeare

    for path in (out / "tokenizer.json", zoo.checkpoint_dir("gpt") / "tokenizer.json"):
        if path.exists():
            return bpe.load(path.read_text())
    return bpe.train_bpe(shakespeare.plays("train").values(), PRESETS["lm"].vocab)


def encode_document(tok, text: str) -> np.ndarray:
    """<|endoftext|> (id 0), then the text's ids: the first real token is predicted too."""
    return np.array([0, *tok.encode(text).ids], dtype=np.int64)


@torch.inference_mode()
def document_nats(model: Mamba, ids: np.ndarray) -> float:
    """Cross-entropy (nats) of ids[1:], in windows of max_len that overlap by half, each token scored once."""
    T = model.config.max_len
    total, done, start = 0.0, 1, 0
    while done < len(ids):
        chunk = torch.from_numpy(ids[start : start + T + 1])[None]
        nll = F.cross_entropy(model(chunk[:, :-1])[0], chunk[0, 1:], reduction="none")
        total += nll[done - start - 1 :].sum().item()
        done = start + chunk.shape[1]
        start += T // 2
    return total


def evaluate_lm(model: Mamba, out: Path) -> dict:
    from models.data import shakespeare

    tok = lm_tokenizer(out)
    nats = chars = 0
    for text in shakespeare.plays("validation").values():
        nats += document_nats(model, encode_document(tok, text))
        chars += len(text)
    return {"val_bpc": round(nats / chars / math.log(2), 4)}


def train_lm(seed: int, out: Path) -> Trained:
    from models.data import shakespeare

    c, hp = PRESETS["lm"], LM_TRAIN
    tok = lm_tokenizer(out)
    ids = np.concatenate([encode_document(tok, t) for t in shakespeare.plays("train").values()])
    torch.manual_seed(seed)
    torch.set_flush_denormal(True)
    model = build(asdict(c))
    model.set_parallel(False)
    rng = np.random.default_rng(seed)

    def windows():
        while True:
            start = rng.integers(0, len(ids) - hp["context"] - 1, size=hp["batch"])
            yield torch.from_numpy(np.stack([ids[s : s + hp["context"] + 1] for s in start]))

    def loss(m: Mamba, chunk: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(m(chunk[:, :-1]).flatten(0, 1), chunk[:, 1:].flatten())

    losses = fit(model, windows(), loss, steps=hp["steps"], lr=hp["lr"], warmup=hp["warmup"],
                 weight_decay=hp["weight_decay"], desc="mamba-lm", log_every=50)
    model.set_parallel(True)
    gpt_card = zoo.checkpoint_dir("gpt") / "card.json"
    extra = {"gpt_val_bpc": zoo.read_card("gpt")["metrics"].get("val_bpc")} if gpt_card.exists() else {}
    shared = (zoo.checkpoint_dir("gpt") / "tokenizer.json").exists()
    return Trained(model, asdict(c),
                   data=(f"Shakespeare (models/data/shakespeare.py): the training works, {len(ids):,} tokens of the "
                         f"shared byte-level BPE; val_bpc on the validation plays "
                         f"{', '.join(shakespeare.VALIDATION_PLAYS)}"),
                   card={"tokenizer": ("the gpt checkpoint's tokenizer.json" if shared else
                                       "byte-level BPE trained exactly as models.gpt trains its tokenizer (same "
                                       "training works, same call); no gpt checkpoint existed yet")
                         + f" ({c.vocab} ids)",
                         "training": dict(hp), "final_train_loss": round(float(np.mean(losses[-50:])), 4), **extra},
                   files={"tokenizer.json": tok.to_str()})


def lm_example(out: Path) -> dict[str, np.ndarray]:
    return {"tokens": encode_document(lm_tokenizer(out), "Shall I compare thee to a summer's day?")[None]}


PROBES = ("layers.*.mixer.delta", "layers.*.mixer.A_bar", "layers.*.mixer.B", "layers.*.mixer.C",
          "layers.*.mixer.h_norm", "layers.*.mixer.out")
_AXES = {"tokens": {0: "b", 1: "l"}}

RECIPES = [
    Recipe(name="mamba-selective-copy", build=build, train=_train_copy(lti=False), evaluate=evaluate_copy,
           example_inputs=copy_example, bars={"accuracy": {"min": 0.99}}, probes=PROBES, dynamic_axes=_AXES),
    Recipe(name="mamba-lti-selective-copy", build=build, train=_train_copy(lti=True), evaluate=evaluate_copy,
           example_inputs=copy_example, bars={}, probes=PROBES, dynamic_axes=_AXES),
    Recipe(name="mamba-induction", build=build, train=train_induction, evaluate=evaluate_induction,
           example_inputs=induction_example, bars={"accuracy": {"min": 0.99}, "accuracy_4x": {"min": 0.95}},
           probes=PROBES, dynamic_axes=_AXES),
    Recipe(name="mamba-lm", build=build, train=train_lm, evaluate=evaluate_lm, example_inputs=lm_example, bars={},
           probes=PROBES, dynamic_axes=_AXES),
]
