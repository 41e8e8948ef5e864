"""Training across devices: Megatron-LM tensor parallelism and ZeRO, run for real over ``torch.distributed``.

Papers:
- Shoeybi et al. 2019 (1909.08053), "Megatron-LM": one transformer layer split over t devices with no change to
  the maths. The MLP's first matrix A is split by columns, so each device applies GELU to its own slice of X·A with
  no communication; the second matrix B is split by rows, each device computes a partial Y_i·B_i and one all-reduce
  sums them. Attention splits the same way by heads: Q, K and V by columns (each device owns H/t heads whole), the
  output projection by rows, one all-reduce. So a layer costs two all-reduces in the forward pass (their operator
  g) and two in the backward pass (their operator f, the identity forward and an all-reduce of the input's gradient).
- Rajbhandari et al. 2019 (1910.02054), "ZeRO": with mixed-precision Adam a model of Ψ parameters holds 2Ψ bytes of
  fp16 parameters, 2Ψ of fp16 gradients and KΨ of optimizer states (K = 12: fp32 parameters, momentum and variance).
  Data parallelism replicates all 16Ψ on each of N_d devices; ZeRO partitions the optimizer states (stage 1, P_os),
  then also the gradients (stage 2, P_os+g), then also the parameters (stage 3, P_os+g+p) over the N_d devices:

      stage 0: (2 + 2 + K)·Ψ     stage 1: 4Ψ + KΨ/N_d     stage 2: 2Ψ + (2 + K)Ψ/N_d     stage 3: (2 + 2 + K)Ψ/N_d

  (their Fig. 1: Ψ = 7.5B, N_d = 64 → 120 GB, 31.4 GB, 16.6 GB, 1.9 GB per device).

The arithmetic (``zero_bytes``, ``megatron_layout``) needs no torch process group; ``tensor_parallel_check`` starts
real processes over gloo on this machine. The measurements that step an optimiser (ZeRO's bytes) live with the
recipes: ``python -m models.recipes.parallel`` runs them and the Megatron check on the shipped ``gpt`` checkpoint and
writes ``models/checkpoints/scaling/parallel.json``, which the Scaling page shows.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import safetensors.torch
import torch
import torch.distributed as dist
import torch.multiprocessing as torch_mp
import torch.nn.functional as F

ZERO_K = 12  # bytes of optimizer state per parameter, mixed-precision Adam: fp32 copy, momentum, variance
ZERO_STAGES = (0, 1, 2, 3)


def zero_bytes(psi: float, n_d: int, stage: int, k: int = ZERO_K) -> dict[str, float]:
    """Bytes per device of fp16 parameters, fp16 gradients and optimizer states at a ZeRO stage (0 = plain data
    parallelism), for Ψ = ``psi`` parameters over ``n_d`` devices."""
    if stage not in ZERO_STAGES:
        raise ValueError(f"ZeRO stage {stage}: there are stages 0-3")
    params, grads, states = 2.0 * psi, 2.0 * psi, float(k) * psi
    if stage >= 1:
        states /= n_d
    if stage >= 2:
        grads /= n_d
    if stage >= 3:
        params /= n_d
    return {"parameters": params, "gradients": grads, "optimizer_states": states}


# ---- Megatron: which matrix splits how -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Split:
    name: str  # the weight
    shape: tuple[int, int]  # (in, out) of the whole matrix
    split: str  # "column" (output features), "row" (input features) or "none"
    per_device: tuple[int, int]


def megatron_layout(dim: int, n_heads: int, mlp: int, t: int) -> list[Split]:
    """The weights of one transformer layer and how Megatron splits them over ``t`` devices (Q, K, V by heads)."""
    if n_heads % t or mlp % t:
        raise ValueError(f"t = {t} must divide the heads ({n_heads}) and the MLP width ({mlp})")
    return [
        Split("W_Q", (dim, dim), "column", (dim, dim // t)),
        Split("W_K", (dim, dim), "column", (dim, dim // t)),
        Split("W_V", (dim, dim), "column", (dim, dim // t)),
        Split("W_O", (dim, dim), "row", (dim // t, dim)),
        Split("A (MLP in)", (dim, mlp), "column", (dim, mlp // t)),
        Split("B (MLP out)", (mlp, dim), "row", (mlp // t, dim)),
    ]


def allreduce_bytes(batch: int, tokens: int, dim: int, dtype_bytes: int = 4) -> int:
    """The tensor one all-reduce sums: the layer's (B, T, C) output, in bytes."""
    return batch * tokens * dim * dtype_bytes


def ring_traffic_bytes(size: int, t: int) -> float:
    """Bytes each device sends in a ring all-reduce of ``size`` bytes over ``t`` devices: 2·(t − 1)/t · size."""
    return 2 * (t - 1) / t * size


# ---- the split layers, as each rank computes them ----------------------------------------------------------------


def mlp_shard(x: torch.Tensor, w1, b1, w2, b2, rank: int, t: int) -> torch.Tensor:
    """This rank's partial MLP output: columns of the first matrix, rows of the second (torch Linear weights are
    (out, in), so a column split of A is a split of w1's rows). The bias of B is added once, after the sum."""
    cols = slice(rank * w1.shape[0] // t, (rank + 1) * w1.shape[0] // t)
    h = F.gelu(F.linear(x, w1[cols], b1[cols]))
    out = F.linear(h, w2[:, cols])
    return out + (b2 if rank == 0 else 0)


def attention_shard(x: torch.Tensor, wqkv, bqkv, wo, bo, n_heads: int, rank: int, t: int) -> torch.Tensor:
    """This rank's partial causal self-attention output: its H/t heads whole (columns of Q, K, V), then its rows of
    the output projection."""
    B, T, C = x.shape
    D = C // n_heads
    heads = slice(rank * n_heads // t, (rank + 1) * n_heads // t)
    cols = torch.arange(C).view(n_heads, D)[heads].reshape(-1)
    q, k, v = (F.linear(x, wqkv[i * C + cols], bqkv[i * C + cols]) for i in range(3))
    q, k, v = (a.view(B, T, -1, D).transpose(1, 2) for a in (q, k, v))
    ctx = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(B, T, -1)
    return F.linear(ctx, wo[:, cols]) + (bo if rank == 0 else 0)


def _tp_worker(rank: int, t: int, init: str, weights: dict, x: torch.Tensor, n_heads: int, out: str) -> None:
    dist.init_process_group("gloo", init_method=init, rank=rank, world_size=t)
    torch.set_num_threads(1)
    sent: list[int] = []

    def all_reduce(tensor: torch.Tensor) -> None:  # Megatron's g, counted
        sent.append(tensor.numel() * tensor.element_size())
        dist.all_reduce(tensor)

    start = time.perf_counter()
    mlp = mlp_shard(x, weights["w1"], weights["b1"], weights["w2"], weights["b2"], rank, t)
    all_reduce(mlp)  # the one all-reduce of the MLP
    attn = attention_shard(x, weights["wqkv"], weights["bqkv"], weights["wo"], weights["bo"], n_heads, rank, t)
    all_reduce(attn)  # and the one of attention
    ms = (time.perf_counter() - start) * 1e3
    if rank == 0:  # safetensors and JSON: nothing here is a pickle
        safetensors.torch.save_file({"mlp": mlp.contiguous(), "attn": attn.contiguous()}, out + ".safetensors")
        Path(out + ".json").write_text(json.dumps({"ms": ms, "allreduces": len(sent), "bytes": sent}))
    dist.barrier()
    dist.destroy_process_group()


def block_weights(model, layer: int = 0) -> dict[str, torch.Tensor]:
    """The MLP and attention weights of one block of a ``models.gpt`` model."""
    block = model.blocks[layer]
    attn, mlp = block.attn, block.mlp
    return {
        "wqkv": torch.cat([attn.wq.weight, attn.wk.weight, attn.wv.weight]).detach(),
        "bqkv": torch.cat([attn.wq.bias, attn.wk.bias, attn.wv.bias]).detach(),
        "wo": attn.wo.weight.detach(),
        "bo": attn.wo.bias.detach(),
        "w1": mlp.fc1.weight.detach(),
        "b1": mlp.fc1.bias.detach(),
        "w2": mlp.fc2.weight.detach(),
        "b2": mlp.fc2.bias.detach(),
    }


def unsplit(weights: dict, x: torch.Tensor, n_heads: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The whole layer's MLP and attention outputs on one device (t = 1 of the shards, no communication)."""
    w = weights
    return mlp_shard(x, w["w1"], w["b1"], w["w2"], w["b2"], 0, 1), attention_shard(
        x, w["wqkv"], w["bqkv"], w["wo"], w["bo"], n_heads, 0, 1
    )


@contextlib.contextmanager
def gloo_processes(worker, world: int, *args) -> Iterator[str]:
    """Run ``worker(rank, world, init, *args, out)`` in ``world`` processes on this machine, joined over gloo through
    a file store; yields ``out``, the path prefix (in a temporary folder) where rank 0 left its results."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        init = "file://" + os.path.join(tmp, "store")
        torch_mp.spawn(worker, args=(world, init, *args, out), nprocs=world, join=True)
        yield out


def tensor_parallel_check(weights: dict, x: torch.Tensor, n_heads: int, t: int) -> dict[str, Any]:
    """Run the MLP and attention split over ``t`` processes (gloo, this machine) and compare with the whole layer."""
    with gloo_processes(_tp_worker, t, weights, x, n_heads) as out:
        got = safetensors.torch.load_file(out + ".safetensors") | json.loads(Path(out + ".json").read_text())
    mlp, attn = unsplit(weights, x, n_heads)
    B, T, C = x.shape
    size = allreduce_bytes(B, T, C)
    return {
        "t": t,
        "mlp_max_abs_diff": float((got["mlp"] - mlp).abs().max()),
        "attention_max_abs_diff": float((got["attn"] - attn).abs().max()),
        "output_scale": float(max(mlp.abs().max(), attn.abs().max())),
        "allreduces_forward": got["allreduces"],
        "allreduce_bytes": got["bytes"][0],
        "allreduce_bytes_expected": size,
        "ring_bytes_sent_per_device": ring_traffic_bytes(got["bytes"][0], t),
        "rank0_ms": round(got["ms"], 2),
    }
