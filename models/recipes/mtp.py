"""How the ``mtp`` checkpoint is trained and evaluated (the model: models/mtp.py).

``python -m models.train mtp`` trains the LLaMA decoder with one multi-token-prediction module exactly as the LLaMA
siblings are trained (models/recipes/llama.py): the same tokenizer, batches in the same order, 612 optimiser steps
with warm-up and cosine, and the same config (2 KV heads), so its main head compares with ``gqa_control_val_bpc`` of
the sibling cards, the same model trained the same way without the module. The loss is L_main + λ·L_MTP with λ as
DeepSeek-V3 sets it (0.3, then 0.1 from 10/14.8 of training on). About 12 min on one CPU core.

Evaluation recomputes the held-out bits per character of the main head, the loss of both heads on held-out windows
(``mtp_val_loss_next``: the MTP head's loss on the token after next) and speculative decoding of the main model with
the MTP head drafting (``speculative``: acceptance rate and tokens per forward on held-out prompts, greedy).
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from models import metrics, mtp, zoo
from models.recipes import Recipe, Run, Trained
from models.recipes.common import windows
from models.recipes.gpt import example_inputs, shakespeare_data, train_tokenizer
from models.recipes.llama import SIBLING_SETTINGS, held_out_windows
from models.training import Trainer, fast_kernels, schedule

SETTINGS = {k: v for k, v in SIBLING_SETTINGS.items() if k != "extra_seeds"}

# Held-out windows for the two heads' losses, and speculative decoding: prompts of held-out text, greedy continuations.
HELD_OUT = {"windows": 64}
SPECULATIVE = {"prompts": 24, "prompt_tokens": 32, "new_tokens": 64}

LOG_EVERY = 25  # steps between the recorded points of the loss curves


class MainHead(nn.Module):
    """The main model's logits alone, for the evaluations written for one-output decoders (bits per character)."""

    def __init__(self, model: mtp.MTPDecoder):
        super().__init__()
        self.model, self.config = model, model.config

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.model(tokens)[0]


def head_losses(model: mtp.MTPDecoder, chunk: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean cross-entropy of the main head on t_{i+1} and of the MTP head on t_{i+2}, for chunks (B, T + 1)."""
    logits, ahead = model(chunk[:, :-1])
    return _head_losses(logits, ahead, chunk[:, 1:])


def _head_losses(logits, ahead, targets) -> tuple[torch.Tensor, torch.Tensor]:
    main = F.cross_entropy(logits.flatten(0, 1), targets.flatten())
    # the MTP head at position i predicts targets[i + 1]; its last position (read from a greedy guess) has no target
    nxt = F.cross_entropy(ahead[:, :-1].flatten(0, 1), targets[:, 1:].flatten())
    return main, nxt


def train(run: Run) -> Trained:
    """The MTP decoder on the siblings' tokenizer, batches and schedule, with λ switching as in the paper."""
    c = mtp.PRESETS["shipped"]
    hp = run.settings
    tok = train_tokenizer(c.vocab)
    ids = metrics.encode_split(tok, "train")
    torch.manual_seed(run.seed)
    model = mtp.build(asdict(c))
    curves: dict[str, list[float]] = {"step": [], "main_loss": [], "mtp_loss": [], "lambda": []}
    seen: list[tuple[float, float]] = []

    def loss(m: mtp.MTPDecoder, chunk: torch.Tensor) -> torch.Tensor:
        main, nxt = head_losses(m, chunk)
        seen.append((main.item(), nxt.item()))
        return main + mtp.mtp_weight(trainer.progress) * nxt

    trainer = Trainer(model, loss, **schedule(hp))
    batches = windows(ids, hp["batch"], hp["context"], np.random.default_rng(run.seed))
    with fast_kernels(model):
        while not trainer.done:
            trainer.step(next(batches))
            step = len(trainer.losses)
            if step % LOG_EVERY == 0 or trainer.done:
                recent = np.array(seen[-LOG_EVERY:])
                curves["step"].append(step)
                curves["main_loss"].append(round(float(recent[:, 0].mean()), 4))
                curves["mtp_loss"].append(round(float(recent[:, 1].mean()), 4))
                curves["lambda"].append(mtp.mtp_weight(trainer.progress))
                print(f"step {step}: main {curves['main_loss'][-1]:.3f} mtp {curves['mtp_loss'][-1]:.3f}", flush=True)
    model.cpu().eval()
    summary = {k: v for k, v in trainer.summary("model").items() if k != "stage"}
    return Trained(
        model,
        asdict(c),
        data=shakespeare_data(ids),
        card={
            "tokenizer": f"byte-level BPE, {c.vocab} ids, trained exactly as the gpt recipe trains it "
            "(byte-identical to models/checkpoints/gpt/tokenizer.json)",
            "trained_as": "the llama siblings (llama-mha, llama-mqa) with llama's config (2 KV heads): the same "
            "data, batches and schedule for 612 optimiser steps; the loss adds λ × the MTP head's loss",
            "mtp_lambda": {"schedule": [list(x) for x in mtp.LAMBDA], "unit": "fraction of training, λ until then"},
            **summary,
            "loss_curves": curves,
            "beside": _beside(),
        },
        files={"tokenizer.json": tok.to_str()},
        stages=[trainer.summary("model")],
    )


def _beside() -> dict:
    """llama's config trained the same way without the module (the siblings' control), when installed."""
    if "llama-mha" not in zoo.available():
        return {}
    card = zoo.read_card("llama-mha")
    return {"llama (2 KV heads, the same schedule, no MTP)": {"val_bpc": card.get("gqa_control_val_bpc")}}


# ---- evaluation ------------------------------------------------------------------------------------------------------


@torch.no_grad()
def held_out_losses(model: mtp.MTPDecoder, tok) -> dict:
    """Both heads' mean loss (nats per token) and top-1 accuracy on held-out windows of the training context."""
    win = torch.as_tensor(held_out_windows(tok, HELD_OUT["windows"], model.config.max_len))
    logits, ahead = model(win[:, :-1])
    targets = win[:, 1:]
    main, nxt = _head_losses(logits, ahead, targets)
    return {
        "mtp_val_loss_next": round(nxt.item(), 4),
        "main_val_loss": round(main.item(), 4),
        "main_top1": round((logits.argmax(-1) == targets).float().mean().item(), 4),
        "mtp_top1": round((ahead[:, :-1].argmax(-1) == targets[:, 1:]).float().mean().item(), 4),
    }


def torch_forward(model: mtp.MTPDecoder):
    """``speculative_greedy``'s forward for a torch model: ids -> (main (T, V), MTP (T, V)) as numpy."""

    @torch.no_grad()
    def forward(ids: list[int]) -> tuple[np.ndarray, np.ndarray]:
        main, ahead = model(torch.tensor([ids]))
        return main[0].numpy(), ahead[0].numpy()

    return forward


def speculative(model: mtp.MTPDecoder, tok) -> dict:
    """Greedy speculative decoding with the MTP head drafting, from held-out prompts."""
    s = SPECULATIVE
    prompts = held_out_windows(tok, s["prompts"], s["prompt_tokens"] - 1)
    runs = [
        mtp.speculative_greedy(torch_forward(model), [int(i) for i in p], s["new_tokens"], model.config.max_len)
        for p in prompts
    ]
    proposed = sum(len(r.proposals) for r in runs)
    accepted = sum(a for r in runs for *_, a in r.proposals)
    tokens, forwards = sum(len(r.tokens) for r in runs), sum(r.forwards for r in runs)
    return {
        **s,
        "decoding": "greedy; a draft is checked by the next forward of the main model",
        "proposed": proposed,
        "accepted": accepted,
        "acceptance_rate": round(accepted / proposed, 4),
        "tokens_per_forward": round(tokens / forwards, 4),
    }


def evaluate(model: mtp.MTPDecoder, out: Path) -> dict:
    tok = metrics.tokenizer(out)
    spec = speculative(model, tok)
    return {
        "val_bpc": round(metrics.bits_per_character(MainHead(model), tok), 4),
        **held_out_losses(model, tok),
        "acceptance_rate": spec["acceptance_rate"],
        "tokens_per_forward": spec["tokens_per_forward"],
        "speculative": spec,
    }


RECIPES = [
    Recipe(
        name="mtp",
        arch="mtp",
        train=train,
        evaluate=evaluate,
        example_inputs=example_inputs,
        bars={},
        output_names=("logits", "mtp_logits"),
        probes=mtp.PROBES,
        dynamic_axes={"tokens": {0: "B", 1: "T"}},
        defaults=SETTINGS,
    ),
]
