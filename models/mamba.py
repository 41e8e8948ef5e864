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
the loop does less arithmetic (O(l) against O(l log l)), so training asks for the loop (``model(tokens,
scan="sequential")``, models/recipes/mamba.py); the forward's default is the parallel form, and a test holds the two
equal. ``step()`` is the recurrent mode: one token in, a state of constant size
(conv window + h) carried.

ONNX (``python -m models.export``): the parallel form is traced with the number of doubling steps fixed by
``Config.max_len`` (⌈log₂ max_len⌉ steps; a step whose offset exceeds the sequence slices to nothing), so one graph
serves every length up to ``max_len`` — no loop over t is unrolled, and Δ, Ā, B, C, ‖h_t‖ are graph outputs.

Probes (i = layer): ``layers.{i}.mixer.delta`` (b, l, d_in) Δ; ``layers.{i}.mixer.A_bar`` (b, l, d_in, n) Ā;
``layers.{i}.mixer.B``, ``layers.{i}.mixer.C`` (b, l, n); ``layers.{i}.mixer.h_norm`` (b, l) ‖h_t‖ over all of the
layer's d_in·n state numbers; ``layers.{i}.mixer.out`` (b, l, d) the block's output before the residual sum.
The Δ probe sits where the scan reads Δ: inside ``intervene({"layers.0.mixer.delta": clamp_delta(0.0)})`` the scan
runs on the clamped Δ (Δ → 0: Ā → 1 and B̄ → 0, the state ignores the input; a large Δ: Ā → 0, the state is reset
to the current token).

Real weights: ``state-spaces/mamba-130m-hf`` (converted by models/pretrained/mamba.py) is this model with the
paper's sizes; its RMSNorms use ε = 1e-5 (``norm_eps``; 1e-6 here by default).

Checkpoints (trained by models/recipes/mamba.py): ``mamba-selective-copy`` and ``mamba-lti-selective-copy`` (the
same model with ``lti=True``, same budget), ``mamba-induction`` (trained at length 64, tested at 64 and 256),
``mamba-lm`` (Shakespeare, the gpt checkpoint's tokenizer).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models.layers import RMSNorm
from models.probe import Probe, name_probes


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
    norm_eps: float = 1e-6  # every RMSNorm's ε (the released Mamba models: 1e-5)

    @property
    def d_in(self) -> int:
        return self.expand * self.d_model

    @property
    def rank(self) -> int:
        return self.dt_rank or math.ceil(self.d_model / 16)


PRESETS = {
    "tiny": Config(vocab=7, d_model=16, n_layers=2, d_state=4, max_len=64),
    # the checkpoints' models; vocabularies as models/data/ssm_tasks.py numbers its tokens, and the gpt BPE
    "copy": Config(vocab=10, d_state=8, max_len=256),  # noise, copy marker, 8 data values
    "induction": Config(vocab=17, d_state=8, max_len=1024),  # the trigger, 16 ordinary tokens
    "lm": Config(vocab=2048, d_model=128, n_layers=4, d_state=8, max_len=256),
}

PROBES = (
    "layers.*.mixer.delta",
    "layers.*.mixer.A_bar",
    "layers.*.mixer.B",
    "layers.*.mixer.C",
    "layers.*.mixer.h_norm",
    "layers.*.mixer.out",
)


# ---- the scan -------------------------------------------------------------------------------------------------------


def discretize(delta: torch.Tensor, A: torch.Tensor, B: torch.Tensor, u: torch.Tensor):
    """Ā = exp(ΔA) and B̄u = ΔBu, both (b, l, d_in, n), from Δ, u (b, l, d_in), A (d_in, n), B (b, l, n)."""
    A_bar = torch.exp(delta.unsqueeze(-1) * A)  # (b, l, d_in, n)
    Bu = (delta * u).unsqueeze(-1) * B.unsqueeze(2)  # (b, l, d_in, n)
    return A_bar, Bu


def selective_scan_ref(
    u: torch.Tensor,
    delta: torch.Tensor,
    A: torch.Tensor,
    B: torch.Tensor,
    C: torch.Tensor,
    D: torch.Tensor,
    h0: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
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


def selective_scan(
    u: torch.Tensor,
    delta: torch.Tensor,
    A: torch.Tensor,
    B: torch.Tensor,
    C: torch.Tensor,
    D: torch.Tensor,
    steps: int | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
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


SCANS = ("parallel", "sequential")  # the two forms of the scan a forward may run (the same function)


# ---- modules --------------------------------------------------------------------------------------------------------


class Mixer(nn.Module):
    """The selective SSM with its projections, convolution and gate (paper Figure 3, right)."""

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
            nn.init.uniform_(self.dt_proj.weight, -(R**-0.5), R**-0.5)
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

    def forward(self, x: torch.Tensor, scan: str = "parallel") -> torch.Tensor:
        """x (b, l, d) -> (b, l, d). Paper Algorithm 2 inside the gated block of Figure 3. ``scan``: ``parallel``
        (``selective_scan``) or ``sequential`` (``selective_scan_ref``, cheaper on one CPU thread: training's)."""
        l = x.shape[1]
        u, z = self.in_proj(x).chunk(2, dim=-1)  # (b, l, d_in) each
        u = F.silu(self.conv1d(u.transpose(1, 2))[..., :l].transpose(1, 2))  # causal: drop the look-ahead tail
        delta, B, C = self.select(u)
        delta = self.delta(delta)  # what the scan reads: an override of this probe (a clamped Δ) changes the output
        self.B(B)
        self.C(C)
        A = self.A
        if scan not in SCANS:
            raise ValueError(f"scan must be one of {SCANS}, not {scan!r}")
        if scan == "parallel":
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
        return (
            torch.zeros(batch, c.d_in, c.d_conv - 1, device=device),
            torch.zeros(batch, c.d_in, c.d_state, device=device),
        )

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
        self.norm = RMSNorm(c.d_model, c.norm_eps)
        self.mixer = Mixer(c)

    def forward(self, x: torch.Tensor, scan: str = "parallel") -> torch.Tensor:
        return x + self.mixer(self.norm(x), scan)


class Mamba(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.d_model)
        self.layers = nn.ModuleList(Layer(c) for _ in range(c.n_layers))
        self.norm_f = RMSNorm(c.d_model, c.norm_eps)
        nn.init.normal_(self.embed.weight, std=0.02)
        name_probes(self)

    def forward(self, tokens: torch.Tensor, scan: str = "parallel") -> torch.Tensor:
        """tokens (b, l) -> logits (b, l, V); the output projection is tied to the embedding. ``scan``: which form of
        the scan every layer runs (``SCANS``; the same function either way)."""
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x, scan)
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


def clamp_delta(value: float, channels: tuple[int, ...] | None = None):
    """An override for a ``layers.{i}.mixer.delta`` probe (``models.probe.intervene``): Δ set to ``value`` on
    ``channels`` (every channel when None), whatever the input."""

    def clamp(delta: torch.Tensor, name: str) -> torch.Tensor:
        if channels is None:
            return torch.full_like(delta, value)
        out = delta.clone()
        out[..., list(channels)] = value
        return out

    return clamp


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
    parallel = model(tokens, scan="parallel")
    sequential = model(tokens, scan="sequential")
    recurrent = recurrent_logits(model, tokens)
    return {
        "parallel_vs_sequential": float((parallel - sequential).abs().max()),
        "parallel_vs_recurrent": float((parallel - recurrent).abs().max()),
    }


@torch.inference_mode()
def decode_profile(
    model: Mamba, length: int, on_step: Callable[[int], None] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Generate ``length`` positions with ``step``: milliseconds of each step, and the bytes it carries (constant).
    ``on_step(t)`` is called after step t, outside the timed part (a progress bar)."""
    state = model.new_state(1)
    token = torch.zeros(1, dtype=torch.long, device=model.embed.weight.device)
    ms = np.zeros(length)
    for t in range(length):
        start = time.perf_counter()
        logits, state = model.step(token, state)
        token = logits.argmax(-1)
        ms[t] = (time.perf_counter() - start) * 1e3
        if on_step is not None:
            on_step(t)
    return ms, np.full(length, state_bytes(model), dtype=np.int64)
