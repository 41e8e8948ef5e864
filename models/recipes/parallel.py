"""The recorded Megatron and ZeRO runs of the Scaling page (the maths: models/parallel.py).

    python -m models.recipes.parallel [--model gpt] [--out PATH]

splits block 0 of a ``models.gpt`` checkpoint over 1, 2, 3 and 6 gloo processes (every degree that divides its
heads) and compares it with the whole layer; steps Adam once in mixed precision on it and counts the bytes of each
tensor; and steps ``ZeroRedundancyOptimizer`` (ZeRO stage 1) over 2 gloo processes and counts the optimizer state
each rank holds. Writes ``models/checkpoints/scaling/parallel.json``. (No ``RECIPES`` here: no checkpoint is trained;
it lives with the recipes because it steps optimisers.)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
import torch.nn.functional as F

from models import parallel


def tensor_bytes(tensors) -> int:
    return sum(t.numel() * t.element_size() for t in tensors if isinstance(t, torch.Tensor))


def optimizer_state_bytes(opt: torch.optim.Optimizer) -> int:
    """Bytes of every tensor in an optimizer's state (Adam: exp_avg and exp_avg_sq per parameter, and a step)."""
    return sum(tensor_bytes(state.values()) for state in opt.state.values())


def mixed_precision_bytes(model) -> dict[str, int]:
    """One real mixed-precision Adam step on a copy of ``model``: fp16 parameters and gradients, an fp32 master copy
    that Adam updates (its momentum and variance fp32 too). Returns the bytes of each, as allocated."""
    half = {n: p.detach().to(torch.float16).requires_grad_() for n, p in model.named_parameters()}
    master = [p.detach().float().clone().requires_grad_() for p in half.values()]
    loss = sum((p.float() ** 2).sum() for p in half.values())  # any loss: the gradients only need to exist
    loss.backward()
    for m, p in zip(master, half.values()):
        m.grad = p.grad.float()
    opt = torch.optim.Adam(master, lr=1e-3)
    opt.step()
    return {
        "parameters_fp16": tensor_bytes(half.values()),
        "gradients_fp16": tensor_bytes(p.grad for p in half.values()),
        "master_fp32": tensor_bytes(master),
        "adam_states_fp32": optimizer_state_bytes(opt),
    }


def adam_step(model, opt: torch.optim.Optimizer, vocab: int, seed: int) -> None:
    """One optimiser step on a next-token loss of random tokens: every parameter gets a gradient and Adam its state."""
    tokens = torch.randint(0, vocab, (2, 17), generator=torch.Generator().manual_seed(seed))
    F.cross_entropy(model(tokens[:, :-1]).flatten(0, 1), tokens[:, 1:].flatten()).backward()
    opt.step()


def _zero_worker(rank: int, world: int, init: str, state: dict, config: dict, out: str) -> None:
    from torch.distributed.optim import ZeroRedundancyOptimizer

    from models import gpt

    dist.init_process_group("gloo", init_method=init, rank=rank, world_size=world)
    torch.set_num_threads(1)
    model = gpt.build(config)
    model.load_state_dict(state)
    opt = ZeroRedundancyOptimizer(list(model.parameters()), optimizer_class=torch.optim.Adam, lr=1e-3)
    adam_step(model, opt, config["vocab"], rank)
    gathered = [None] * world
    dist.all_gather_object(gathered, optimizer_state_bytes(opt.optim))  # the states this rank holds: its shard
    if rank == 0:
        Path(out).write_text(json.dumps(gathered))
    dist.barrier()
    dist.destroy_process_group()


def zero_check(model, config: dict, world: int = 2) -> dict[str, Any]:
    """Adam's state bytes on one process against ZeroRedundancyOptimizer (ZeRO stage 1) over ``world`` gloo
    processes, each holding the states of its shard of the parameters."""
    whole = torch.optim.Adam(model.parameters(), lr=1e-3)
    adam_step(model, whole, config["vocab"], 0)
    model.zero_grad(set_to_none=True)
    state = {k: v.detach().clone() for k, v in model.state_dict().items()}
    with parallel.gloo_processes(_zero_worker, world, state, config) as out:
        per_rank = json.loads(Path(out).read_text())
    full = optimizer_state_bytes(whole)
    return {"world": world, "adam_state_bytes_one_process": full, "adam_state_bytes_per_rank": per_rank}


def main(argv: list[str] | None = None) -> int:
    from models import zoo

    ap = argparse.ArgumentParser(prog="python -m models.recipes.parallel", description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="gpt", help="the checkpoint whose block 0 is split (a models.gpt model)")
    ap.add_argument("--out", default=None, help="where to write (default: the scaling folder's parallel.json)")
    args = ap.parse_args(argv)
    model, config = zoo.load(args.model), zoo.read_config(args.model)
    x = torch.randn(2, 64, config["dim"], generator=torch.Generator().manual_seed(0))
    weights = parallel.block_weights(model)
    degrees = [t for t in (1, 2, 3, 6) if config["n_heads"] % t == 0]
    megatron = [parallel.tensor_parallel_check(weights, x, config["n_heads"], t) for t in degrees]
    record = {
        "command": f"python -m models.recipes.parallel --model {args.model}",
        "model": args.model,
        "config": config,
        "params": zoo.parameter_count(model),
        "megatron": {"input_shape": list(x.shape), "layer": 0, "runs": megatron},
        "zero": {"mixed_precision_bytes": mixed_precision_bytes(model), **zero_check(model, config)},
        "torch": torch.__version__,
    }
    out = Path(args.out) if args.out else zoo.checkpoint_dir("scaling") / "parallel.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record["megatron"]["runs"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
