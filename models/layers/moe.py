"""Mixture-of-experts feed-forward layer: Switch Transformer, Mixtral and DeepSeekMoE in one module.

Papers:
- Switch Transformer, Fedus, Zoph & Shazeer 2021 (2101.03961): top-1 routing, expert capacity, dropped tokens,
  the load-balancing auxiliary loss.
- Mixtral of Experts, Jiang et al. 2024 (2401.04088): top-2 routing with the two weights renormalised to sum to 1.
- DeepSeekMoE, Dai et al. 2024 (2401.06066): shared experts that every token passes through, next to routed ones.
- DeepSeek-V3, DeepSeek-AI 2024 (2412.19437), §2.1.2: auxiliary-loss-free load balancing (``balance="bias"``).

    p      = softmax(W_r x)                      router probabilities over the E experts, per token
    top-k  = the k experts with the largest p
    g      = p of the chosen experts             (k = 1, Switch: the raw probability scales the expert's output)
           = p / Σ_top-k p                       (k ≥ 2, Mixtral: renormalised, the k weights sum to 1)
    y      = Σ_shared FFN_s(x) + Σ_kept slots g · FFN_e(x)

Capacity: each expert processes at most ``capacity = ⌈capacity_factor · N · k / E⌉`` token slots of a batch of N
tokens (k = 1 is the Switch paper's "tokens ÷ experts × capacity factor"; for k ≥ 2 every token fills k slots, as in
GShard). Slots are served first come, first served: every token's first choice before any second choice, and within
one rank in token order. A slot past its expert's capacity is *dropped*: it adds nothing, and the token travels on
through the residual connection around this layer. A capacity factor ≤ 0 means no limit (Mixtral drops nothing).

Load-balancing loss (Switch, eq. 4): ``aux = E · Σᵢ fᵢ · Pᵢ`` where fᵢ is the fraction of routed slots whose choice
is expert i (before the capacity cut) and Pᵢ the mean router probability of expert i over the batch. With perfectly
uniform routing fᵢ = Pᵢ = 1/E and aux = 1; concentrating tokens on one expert raises it.

Auxiliary-loss-free balancing (``balance="bias"``, DeepSeek-V3 §2.1.2): a per-expert bias b (a buffer
``selection_bias``, never trained by gradient) is added to p only to pick the top-k experts; the combine weight g
still comes from the un-biased p. After each training step ``update_bias()`` moves bᵢ by γ (``bias_update``)
against expert i's load over the batch's routed slots, counted before the capacity cut: down if it chose expert i
more often than the mean N·k/E, up if less. Departure: DeepSeek-V3 uses sigmoid affinities normalised over the
selected experts; here the router stays Switch's softmax with its combine weights, so b is added to softmax
probabilities. With the default ``balance="aux"`` the layer has no bias buffer and is unchanged.

Experts: ``expert="mlp"`` (the default) makes each expert the two-layer MLP W₂ act(W₁ x) of models/layers/ffn.py;
``expert="swiglu"`` makes it a gated one, W₂ (act(W₁ x) ⊙ W₃ x) (``SwiGLU``, with ``activation`` as the gate's:
"silu" for Mixtral's and Granite's experts). Shared experts take the same form as the routed ones.

Shape letters: B batch, T positions, N = B·T tokens, C width, E routed experts, K = max(k, 2) ranks computed.
Probes (relative to this module): ``router_logits`` (B, T, E) W_r x, what the softmax and the choice read;
``router_probs`` (B, T, E); ``expert_index`` (B, T, K) int64, rank 0 first;
``combine`` (B, T, K) the weight g of each rank (0 where the rank is unused or dropped); ``dropped`` (B, T, K)
1.0 where a used rank lost its slot to the capacity; ``capacity`` (1,) the capacity per expert of this batch.
Ranks ≥ k are always computed (so k can be switched at run time, also in an exported graph) but carry no weight.

Interventions go through ``router_logits`` (``models.probe.intervene``; the layer itself never changes):
``expert_off(e)`` sets expert e's logit to −∞, so p_e = 0 and the softmax spreads the rest over the other experts:
each token that chose e takes its next choice, with that expert's renormalised probability as its weight, and is
dropped if that expert is already full (the capacity stays ⌈capacity_factor · N · k / E⌉ with E counting e).
``force_expert(position, e)`` swaps, at one position, e's logit with the token's largest one: e becomes its first
choice with the probability its old first choice had (the token still queues for a slot and may be dropped). With
``balance="bias"`` an expert whose logit is −∞ is never picked; a forced one still competes with the bias added.
"""

from __future__ import annotations

import torch
from torch import nn

from models.layers.ffn import MLP, SwiGLU
from models.probe import Override, Probe


def load_balancing_loss(probs: torch.Tensor, index: torch.Tensor, used: torch.Tensor) -> torch.Tensor:
    """Switch's auxiliary loss E · Σᵢ fᵢ · Pᵢ.

    Args:
        probs: (N, E) router probabilities.
        index: (N, K) chosen experts.
        used: (N, K) bool or 0/1, which ranks are routed (the first k).
    Returns:
        scalar tensor; 1 at uniform routing.
    """
    E = probs.shape[-1]
    used = used.to(probs.dtype)
    onehot = (index[..., None] == torch.arange(E, device=index.device)).to(probs.dtype)  # (N, K, E)
    f = (onehot * used[..., None]).sum((0, 1)) / used.sum()  # (E,) fraction of routed slots per expert
    P = probs.mean(0)  # (E,)
    return E * (f * P).sum()


def expert_off(*experts: int) -> Override:
    """An override for a ``router_logits`` probe (B, T, E): the logits of ``experts`` set to −∞ at every token."""

    def fn(logits: torch.Tensor, name: str) -> torch.Tensor:
        out = logits.clone()
        out[..., list(experts)] = float("-inf")
        return out

    return fn


def force_expert(position: int, expert: int) -> Override:
    """An override for a ``router_logits`` probe (B, T, E): at ``position`` of every row, ``expert``'s logit and the
    largest one trade places, so ``expert`` is that token's first choice at the first choice's probability."""

    def fn(logits: torch.Tensor, name: str) -> torch.Tensor:
        out = logits.clone()
        row = out[:, position]  # (B, E), a view into out
        top = row.argmax(-1, keepdim=True)  # (B, 1)
        mine = row[:, expert].clone()
        row.scatter_(-1, top, mine[:, None])
        row[:, expert] = logits[:, position].gather(-1, top)[:, 0]
        return out

    return fn


# an expert's feed-forward: "mlp" W₂ act(W₁ x) (fc1, fc2, with biases), "swiglu" W₂ (act(W₁ x) ⊙ W₃ x) (w1, w3, w2)
EXPERTS = {"mlp": MLP, "swiglu": SwiGLU}


class MoE(nn.Module):
    """A router and E expert MLPs (plus optional shared experts) in place of one feed-forward layer."""

    def __init__(
        self,
        dim: int,
        hidden: int,
        n_experts: int,
        *,
        top_k: int = 1,
        capacity_factor: float = 1.25,
        n_shared: int = 0,
        activation: str = "gelu",
        balance: str = "aux",
        bias_update: float = 0.0,
        expert: str = "mlp",
    ):
        super().__init__()
        if expert not in EXPERTS:
            raise ValueError(f"expert must be one of {tuple(EXPERTS)}")
        if not 1 <= top_k <= n_experts:
            raise ValueError("top_k must be between 1 and n_experts")
        if balance not in ("aux", "bias"):
            raise ValueError('balance must be "aux" or "bias"')
        self.balance, self.bias_update = balance, bias_update
        if balance == "bias":
            # b: added to the router probabilities for the top-k choice only; moved by update_bias(), not by gradient
            self.register_buffer("selection_bias", torch.zeros(n_experts))
        self.load: torch.Tensor | None = None  # (E,) routed slots per expert of the last training batch
        self.n_experts, self.top_k, self.capacity_factor = n_experts, top_k, capacity_factor
        self.ranks = min(max(top_k, 2), n_experts)  # K: ranks computed, so k may be raised to 2 at run time
        self.router = nn.Linear(dim, n_experts, bias=False)
        ffn = EXPERTS[expert]
        self.experts = nn.ModuleList(ffn(dim, hidden, activation=activation) for _ in range(n_experts))
        self.shared = nn.ModuleList(ffn(dim, hidden, activation=activation) for _ in range(n_shared))
        self.router_logits, self.router_probs = Probe(), Probe()
        self.expert_index, self.combine = Probe(), Probe()
        self.dropped, self.capacity = Probe(), Probe()

    @torch.no_grad()
    def update_bias(self) -> None:
        """DeepSeek-V3's step-end update: bᵢ -= γ if expert i took more than the mean of the last training batch's
        routed slots, bᵢ += γ if fewer (bᵢ stays where its load equals the mean). No-op unless ``balance="bias"``."""
        if self.balance != "bias" or self.load is None:
            return
        load = self.load.to(self.selection_bias.dtype)
        self.selection_bias += self.bias_update * torch.sign(load.mean() - load)
        self.load = None

    def route(
        self,
        x: torch.Tensor,
        capacity_factor: float | torch.Tensor | None = None,
        top_k: int | torch.Tensor | None = None,
    ):
        """Routing decisions for tokens x (B, T, C), taken as N = B·T tokens in order.

        Returns:
            probs (N, E), index (N, K), weight (N, K) combine weights of kept used slots, used (N, K) bool,
            kept (N, K) bool, capacity (1,) float.
        """
        cf = self.capacity_factor if capacity_factor is None else capacity_factor
        k = self.top_k if top_k is None else top_k
        # Tensors pass straight through (an exported graph takes them as inputs); numbers become constants.
        cf = (cf if isinstance(cf, torch.Tensor) else torch.tensor(cf)).to(x.device, x.dtype).reshape(1)
        k = (k if isinstance(k, torch.Tensor) else torch.tensor(k)).to(x.device, torch.int64).reshape(1)
        E, K = self.n_experts, self.ranks
        B, T, C = x.shape
        x = x.reshape(B * T, C)
        logits = self.router_logits(self.router(x).reshape(B, T, E)).reshape(B * T, E)  # an override acts here
        probs = torch.softmax(logits, dim=-1)  # (N, E)
        if self.balance == "bias":
            # DeepSeek-V3: the bias decides which experts are chosen, the un-biased probability weights them;
            # an expert switched off (logit −∞, see expert_off) is never chosen, whatever its bias
            score = torch.where(logits == float("-inf"), float("-inf"), probs + self.selection_bias)
            index = torch.topk(score, K, dim=-1).indices  # (N, K), largest biased score first
            top_p = probs.gather(-1, index)
        else:
            top_p, index = torch.topk(probs, K, dim=-1)  # (N, K), largest first
        used = torch.arange(K, device=x.device)[None, :] < k  # (1, K) -> broadcast below
        used = used.expand_as(index)  # (N, K)
        top_p = top_p * used
        # Switch (k = 1) scales by the raw probability; k ≥ 2 renormalises over the chosen experts (Mixtral).
        denom = torch.where(k > 1, top_p.sum(-1, keepdim=True), torch.ones_like(top_p[:, :1]))
        weight = top_p / denom  # (N, K)

        # Position of every slot in its expert's queue: rank-major, then token order.
        onehot = (index[..., None] == torch.arange(E, device=x.device)) & used[..., None]  # (N, K, E)
        queue = onehot.transpose(0, 1).reshape(-1, E).to(x.dtype)  # (K·N, E)
        position = (torch.cumsum(queue, dim=0) - 1.0) * queue  # (K·N, E)
        position = position.sum(-1).reshape(K, -1).transpose(0, 1)  # (N, K)
        n_tokens = torch.ones_like(x[:, 0]).sum()  # N as a tensor, so an exported graph follows the batch
        slots = n_tokens * k.to(x.dtype)
        capacity = torch.where(cf > 0, torch.ceil(cf * slots / E), slots)  # (1,)
        kept = used & (position < capacity)
        return probs, index, weight * kept, used, kept, capacity

    def forward(
        self,
        x: torch.Tensor,
        capacity_factor: float | torch.Tensor | None = None,
        top_k: int | torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """x (B, T, C) -> (y (B, T, C), aux loss scalar)."""
        B, T, C = x.shape
        flat = x.reshape(B * T, C)
        probs, index, weight, used, kept, capacity = self.route(x, capacity_factor, top_k)
        aux = load_balancing_loss(probs, index, used)
        self.router_probs(probs.reshape(B, T, -1))
        self.expert_index(index.reshape(B, T, -1))
        self.combine(weight.reshape(B, T, -1))
        self.dropped((used & ~kept).to(x.dtype).reshape(B, T, -1))
        self.capacity(capacity)
        if self.training:  # what the bias update reads, and what a recipe may record
            chosen = (index[..., None] == torch.arange(self.n_experts, device=x.device)) & used[..., None]
            self.load = chosen.sum((0, 1)).detach()  # (E,) routed slots per expert, before the capacity cut

        # gate[n, e]: the weight with which token n receives expert e (0 if not chosen, unused or dropped)
        onehot = (index[..., None] == torch.arange(self.n_experts, device=x.device)).to(x.dtype)  # (N, K, E)
        gate = (onehot * weight[..., None]).sum(1)  # (N, E)
        takes = (onehot * kept[..., None].to(x.dtype)).sum(1) > 0  # (N, E)
        y = torch.zeros_like(flat)
        for e, expert in enumerate(self.experts):
            if torch.jit.is_tracing():
                # Exported graphs have fixed control flow: every expert sees every token, masked by its gate.
                y = y + gate[:, e, None] * expert(flat)
            else:
                rows = takes[:, e].nonzero().squeeze(1)  # only the tokens this expert keeps
                if rows.numel():
                    y = y.index_add(0, rows, gate[rows, e, None] * expert(flat[rows]))
        for shared in self.shared:
            y = y + shared(flat)
        return y.reshape(B, T, C), aux
