"""GPT: a decoder-only Transformer that predicts the next token.

Papers:
- GPT-1, Radford et al. 2018, "Improving Language Understanding by Generative Pre-Training": a Transformer decoder
  (causal self-attention only) pre-trained on next-token prediction, then fine-tuned per task.
- GPT-2, Radford et al. 2019, "Language Models are Unsupervised Multitask Learners": LayerNorm moved to the input
  of each sub-block (pre-LN) plus a final LayerNorm, byte-level BPE, zero-shot task transfer.
- GPT-3, Brown et al. 2020 (2005.14165), "Language Models are Few-Shot Learners": the same design at scale;
  a prompt with a few examples steers the model with no weight update (in-context learning).
Induction heads (Olsson et al. 2022) are the circuit behind the simplest in-context learning: a head that attends
to the token after the previous occurrence of the current token, and copies it.

    x₀ = E[tokens] + P[positions]                                  (token embedding E, learned positions P)
    xᵢ₊₁ = xᵢ + Attn(LN(xᵢ)) ;  xᵢ₊₁ = xᵢ₊₁ + MLP(LN(xᵢ₊₁))      (pre-LN block)
    Attn(x) = concat_h softmax(Q_h K_hᵀ / √D + M) V_h · W_o        (M = 0 where t may attend, −∞ after t: causal)
    MLP(x) = GELU(x W₁ + b₁) W₂ + b₂                               (width 4C)
    logits = LN_f(x_L) · Eᵀ                                        (output tied to the token embedding E)
    p(x_{t+1} | x_≤t) = softmax(logits_t / τ)                      (temperature τ; top-k / top-p then cut the tail)

Glossary (shape letters): B batch, T positions (tokens), S keys (T plus cached ones), C model width,
H heads, D head width (C / H), V vocabulary, L layers.

Probes: ``token_embedding`` (B, T, C) the rows E[tokens]; ``embedded`` (B, T, C) the residual stream before block 0
(E[tokens] + P[positions]); ``blocks.{i}.resid`` (B, T, C) after block i (together: the logit lens);
``blocks.{i}.{attn_in,attn_out,mid,mlp_in,mlp_out}`` (B, T, C) the steps inside block i (models/layers/block.py);
``blocks.{i}.attn.{q,k,v,scores,pattern,context}``; ``blocks.{i}.mlp.{pre,act}`` (B, T, 4C) before and after the GELU;
``final_norm`` (B, T, C) LN_f(x_L), what the unembedding reads.

Departure from GPT-2: the MLP's GELU is the exact erf form x·Φ(x); GPT-2 used the tanh approximation (the two differ
by less than 1e-3 everywhere). ``Config.activation = "gelu_tanh"`` builds GPT-2's, for OpenAI's released weights
(models/pretrained/gpt.py converts a Hugging Face GPT-2 checkpoint); ``norm_eps`` is every LayerNorm's ε (1e-5, as
GPT-2's).

The checkpoint ``gpt`` (Shakespeare, byte-level BPE of ``vocab`` ids) is trained by models/recipes/gpt.py;
docs/training/gpt.md records what was tried on the way.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from models import sampling
from models.layers import KVCache, LayerNorm, LearnedPositions, PreNormBlock, causal_mask, gpt2_init
from models.probe import Probe, name_probes


@dataclass
class Config:
    vocab: int = 2048  # byte-level BPE ids: <|endoftext|>, 256 bytes, merges
    dim: int = 192
    n_heads: int = 6
    n_layers: int = 4
    max_len: int = 256  # context length; learned positions exist only this far
    mlp_ratio: int = 4
    activation: str = "gelu"  # the MLP's: "gelu" exact erf form; "gelu_tanh" GPT-2's approximation (its weights)
    norm_eps: float = 1e-5  # every LayerNorm's ε


PRESETS = {
    "tiny": Config(vocab=300, dim=32, n_heads=4, n_layers=2, max_len=64),
    "shipped": Config(),
}


class GPT(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.config = c
        self.embed = nn.Embedding(c.vocab, c.dim)
        self.pos = LearnedPositions(c.max_len, c.dim)
        self.token_embedding, self.embedded = Probe(), Probe()
        # GPT-2 blocks: pre-LN, causal attention, GELU MLP.
        self.blocks = nn.ModuleList(
            PreNormBlock(c.dim, c.n_heads, c.mlp_ratio * c.dim, activation=c.activation, eps=c.norm_eps)
            for _ in range(c.n_layers)
        )
        self.ln_f = LayerNorm(c.dim, eps=c.norm_eps)
        self.final_norm = Probe()
        self.apply(gpt2_init)
        for block in self.blocks:  # GPT-2: scale the residual projections by 1/√(2L)
            for proj in (block.attn.wo, block.mlp.fc2):
                nn.init.normal_(proj.weight, std=0.02 / math.sqrt(2 * c.n_layers))
        name_probes(self)

    def unembed(self, x: torch.Tensor) -> torch.Tensor:
        """Final LayerNorm, then the tied output projection: (..., C) -> (..., V)."""
        return self.final_norm(self.ln_f(x)) @ self.embed.weight.T

    def forward(self, tokens: torch.Tensor, cache: list[KVCache] | None = None) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V).

        Args:
            cache: one KVCache per block, holding the keys/values of the earlier positions; when given, ``tokens``
                continue that sequence (positions start after the cached ones) and the caches grow by T.
        """
        return self.unembed(self.trunk(tokens, cache))  # (B, T, V)

    def trunk(self, tokens: torch.Tensor, cache: list[KVCache] | None = None) -> torch.Tensor:
        """tokens (B, T) -> the residual stream after the last block, x_L (B, T, C): what a head other than the
        unembedding reads (the reward model's and the PPO value function's scalar heads, models/alignment.py)."""
        T = tokens.shape[1]
        past = len(cache[0]) if cache else 0
        if past + T > self.config.max_len:
            raise ValueError(f"{past + T} positions exceed the context of {self.config.max_len}")
        mask = causal_mask(T, past + T, device=tokens.device)  # (T, S)
        x = self.embedded(self.pos(self.token_embedding(self.embed(tokens)), offset=past))  # (B, T, C)
        for i, block in enumerate(self.blocks):
            x = block(x, mask, cache[i] if cache else None)
        return x

    def new_cache(self) -> list[KVCache]:
        return [KVCache() for _ in self.blocks]


def build(config: dict) -> GPT:
    return GPT(Config(**config))


# ---- sampling and generation -------------------------------------------------------------------------------


def generate(
    model: GPT,
    prompt: list[int],
    n: int,
    *,
    temperature: float = 1.0,
    top_k: int = 0,
    top_p: float = 1.0,
    seed: int = 0,
) -> Iterator[int]:
    """Yield up to ``n`` new ids one at a time, decoding with the KV cache (one row per step, not the square).

    Stops early at the context length. temperature 0 is greedy decoding. Any decoder of this package called as
    ``model(tokens, cache)`` with ``new_cache()`` and ``config.max_len`` serves (``decode`` over ``eager_step``).
    """
    yield from decode(
        eager_step(model),
        prompt,
        n,
        max_len=model.config.max_len,
        temperature=temperature,
        top_k=top_k,
        top_p=top_p,
        seed=seed,
    )


def eager_step(model: nn.Module, cache: bool = True):
    """``model`` as a step function for ``decode``, in eager torch: ``past`` is its list of KVCache (None: a fresh
    one; without ``cache``, none is kept and each call reads the whole sequence), the logits come back as float64
    numpy."""
    device = next(model.parameters()).device

    def step(tokens: np.ndarray, start: int, past: list[KVCache] | None):
        kept = (model.new_cache() if past is None else past) if cache else None
        with torch.inference_mode():
            logits = model(torch.from_numpy(tokens).to(device), kept)[0, -1]
        return logits.double().cpu().numpy(), kept

    return step


# ---- decoding with the cache as tensors: one call per token (traced on torch, exported for ONNX Runtime) ---------

STEP_INPUTS = ("tokens", "positions", "mask", "past_k", "past_v")
STEP_OUTPUTS = ("logits", "present_k", "present_v")
STEP_AXES = {
    "tokens": {0: "B", 1: "T"},
    "positions": {0: "T"},
    "mask": {0: "T", 1: "S"},
    "past_k": {1: "B", 3: "P"},
    "past_v": {1: "B", 3: "P"},
    "logits": {0: "B"},
    "present_k": {1: "B", 3: "S"},
    "present_v": {1: "B", 3: "S"},
}


class CachedStep(nn.Module):
    """GPT's forward for decoding with every length-dependent value passed in as a tensor, so that one traced graph
    (``torch.jit.trace``) or one exported ONNX graph serves every prompt and cache length:

        tokens (B, T) the new ids;  positions (T,) their positions P … P+T−1;  mask (T, P+T) True = may attend;
        past_k, past_v (L, B, H, P, D) the cached keys and values (P = 0: nothing cached)
        -> logits (B, V) at the last new position;  present_k, present_v (L, B, H, P+T, D)

    With the cache, each new token is one call with T = 1. Without it, the same graph gets P = 0 and the whole
    sequence: the two ways differ only in what is fed, so their speeds compare the algorithms, not the code paths.
    One call is one crossing of the interpreter lock; eager decoding crosses it once per operation (hundreds per
    token), which is what made the KV cache look slower than re-reading in a busy server (bench --only generation).
    """

    INPUTS, OUTPUTS, AXES = STEP_INPUTS, STEP_OUTPUTS, STEP_AXES  # the exported graph's names and dynamic axes

    def __init__(self, model: GPT):
        super().__init__()
        self.model = model

    @staticmethod
    def prepare(tokens: np.ndarray, start: int) -> tuple[np.ndarray, ...]:
        """The inputs before the cache for ``tokens`` (B, T) after ``start`` cached positions: (tokens, positions,
        mask), in numpy (``step_positions``). ``models.engine`` feeds them, then the past keys and values."""
        return (tokens, *step_positions(tokens.shape[1], start))

    def forward(
        self,
        tokens: torch.Tensor,
        positions: torch.Tensor,
        mask: torch.Tensor,
        past_k: torch.Tensor,
        past_v: torch.Tensor,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        m = self.model
        x = m.embed(tokens) + m.pos.weight[positions]  # (B, T, C)
        caches = []
        for i, block in enumerate(m.blocks):
            cache = KVCache()
            cache.k, cache.v = past_k[i], past_v[i]
            x = block(x, mask, cache)
            caches.append(cache)
        return m.unembed(x[:, -1]), torch.stack([c.k for c in caches]), torch.stack([c.v for c in caches])

    def empty_cache(self, batch: int = 1) -> torch.Tensor:
        """(L, B, H, 0, D) zeros on the model's device: the past when nothing is cached."""
        c = self.model.config
        return self.model.embed.weight.new_zeros(c.n_layers, batch, c.n_heads, 0, c.dim // c.n_heads)

    def example(self) -> tuple[torch.Tensor, ...]:
        """Inputs to trace or export with: 3 new tokens after 2 cached ones (no axis of size 1, so none is frozen)."""
        c = self.model.config
        device = self.model.embed.weight.device
        positions, mask = step_positions(3, 2)
        past = self.model.embed.weight.new_zeros(c.n_layers, 2, c.n_heads, 2, c.dim // c.n_heads)
        tokens = torch.zeros(2, 3, dtype=torch.long, device=device)
        return tokens, torch.from_numpy(positions).to(device), torch.from_numpy(mask).to(device), past, past


def step_positions(n_new: int, start: int) -> tuple[np.ndarray, np.ndarray]:
    """``CachedStep``'s positions (T,) and causal mask (T, start + T) for ``n_new`` tokens after ``start`` cached
    ones, built in numpy (no torch operation, so no extra crossing of the interpreter lock)."""
    positions = np.arange(start, start + n_new, dtype=np.int64)
    return positions, np.arange(start + n_new)[None, :] <= positions[:, None]


def decoding_loop(feed, n: int, pick, stop=None) -> Iterator:
    """The one decoding loop of the zoo: feed the prompt, then each chosen token, and yield each choice.

    ``feed(new, past) -> (logits, past)``: ``new`` is None for the prompt (whatever ``feed`` holds), then the token(s)
    just chosen; ``past`` what the previous call returned (None at first). ``pick(logits)`` chooses (greedy or
    sampled, one sequence or a batch). At most ``n`` choices; after one, ``stop(choice)`` true ends the loop early.
    Every variant (``generate``, ``decode`` with or without the cache, ``decode_batch``) is this loop with its own
    ``feed`` and ``pick``.
    """
    if n <= 0:
        return
    logits, past = feed(None, None)
    for i in range(n):
        choice = pick(logits)
        yield choice
        if i + 1 == n or (stop is not None and stop(choice)):
            return
        logits, past = feed(choice, past)


def decode(
    step,
    prompt: list[int],
    n: int,
    *,
    max_len: int,
    cache: bool = True,
    temperature: float = 1.0,
    top_k: int = 0,
    top_p: float = 1.0,
    seed: int = 0,
) -> Iterator[int]:
    """Yield up to ``n`` new ids one at a time through a step function, with the KV cache or re-reading the whole
    sequence each time; the same ids either way (same seed), stopping at the context length ``max_len``.

    ``step(tokens (1, T) int64, start, past) -> (logits (V,), present)``: ``past`` is what the previous call returned
    (None: nothing cached, ``tokens`` is the sequence from position 0). The engine makes one for each backend
    (``Engine.decode_step``).
    """
    rng = np.random.default_rng(seed)
    seq = list(prompt)
    fed = 0  # how many ids of seq the cache holds

    def feed(new, past):
        nonlocal fed
        if new is not None:
            seq.append(new)
        if not cache:
            return step(np.array([seq], dtype=np.int64), 0, None)[0], None
        logits, past = step(np.array([seq[fed:]], dtype=np.int64), fed, past)
        fed = len(seq)
        return logits, past

    def pick(logits):
        return choose(np.asarray(logits, dtype=np.float64), temperature=temperature, top_k=top_k, top_p=top_p, rng=rng)

    yield from decoding_loop(feed, min(n, max_len - len(prompt)), pick)


def choose(logits: np.ndarray, *, temperature: float, top_k: int, top_p: float, rng: np.random.Generator) -> int:
    """The next id: greedy at temperature 0, else a draw from the filtered distribution."""
    if temperature <= 0:
        return sampling.greedy(logits)
    return sampling.sample(sampling.filtered(logits, temperature=temperature, top_k=top_k, top_p=top_p), rng)


@torch.inference_mode()
def decode_batch(
    model: GPT,
    prompts: torch.Tensor,
    end: int,
    *,
    temperature: float = 0.0,
    generator: torch.Generator | None = None,
    max_new: int | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Complete N prompts of one length P together with the KV cache, greedy at temperature 0, else by sampling the
    softmax at that temperature (no top-k / top-p). A row stops after it writes ``end``; later positions hold 0.
    At most ``max_new`` tokens each (default: to the end of the context).
    Any decoder of this package called as ``model(tokens, cache)`` with ``new_cache()`` and ``config.max_len``
    serves (the reasoning recipe runs it on the LLaMA block).

    Returns (completions (N, T) ids, logp (N, T) each written id's log-probability under the unscaled softmax,
    0 after the end); T ≤ the context left after the prompt.
    """
    n, p_len = prompts.shape
    cache = model.new_cache()
    alive = torch.ones(n, dtype=torch.bool, device=prompts.device)
    logps = []

    def feed(new, past):
        return model(prompts if new is None else new[:, None], cache)[:, -1], None

    def pick(logits):
        nonlocal alive
        logprobs = torch.log_softmax(logits.float(), dim=-1)
        if temperature <= 0:
            nxt = logprobs.argmax(-1)
        else:
            nxt = torch.multinomial(torch.softmax(logits.float() / temperature, -1), 1, generator=generator)[:, 0]
        nxt = torch.where(alive, nxt, torch.zeros_like(nxt))
        logps.append(torch.where(alive, logprobs.gather(-1, nxt[:, None])[:, 0], torch.zeros_like(logprobs[:, 0])))
        alive = alive & (nxt != end)
        return nxt

    budget = min(model.config.max_len - p_len, max_new or model.config.max_len)
    out = list(decoding_loop(feed, budget, pick, stop=lambda _: not alive.any()))
    return torch.stack(out, dim=1), torch.stack(logps, dim=1)


def logprobs_of(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """log softmax(logits)[target] at every position: (N, T, V), (N, T) -> (N, T)."""
    return torch.log_softmax(logits.float(), dim=-1).gather(-1, targets[..., None])[..., 0]


def token_logprobs(model: GPT, ids: torch.Tensor) -> torch.Tensor:
    """log p(ids[:, t + 1] | ids[:, ≤ t]) at every position, (N, L) -> (N, L − 1); differentiable (policy gradients)."""
    return logprobs_of(model(ids[:, :-1]), ids[:, 1:])


@torch.inference_mode()
def tokens_per_second(model: GPT, prompt: list[int], n: int = 64, *, cache: bool = True) -> float:
    """Greedy decoding speed: with the KV cache (one new row per token) or re-reading the whole sequence."""
    start = time.perf_counter()
    step = eager_step(model, cache)
    produced = len(list(decode(step, prompt, n, max_len=model.config.max_len, cache=cache, temperature=0.0)))
    return produced / (time.perf_counter() - start)


@torch.inference_mode()
def logit_lens(model: GPT, resid: np.ndarray) -> np.ndarray:
    """Read a residual stream (..., C) through the final LayerNorm and unembedding: logits (..., V)."""
    x = torch.from_numpy(np.ascontiguousarray(resid, dtype=np.float32)).to(model.embed.weight.device)
    return model.unembed(x).float().cpu().numpy()
