"""The trace() contract: identity, selection by pattern, nothing outside trace(), isolation between threads."""

import threading

import torch

from models.demo import PRESETS, DemoModel
from models.probe import matches, trace


def _model() -> DemoModel:
    torch.manual_seed(0)
    return DemoModel(PRESETS["shipped"]).eval()


def test_probe_is_identity_bit_for_bit():
    model = _model()
    x = torch.randint(0, 16, (3, 7))
    plain = model(x)
    with trace("*") as t:
        traced = model(x)
    assert torch.equal(plain, traced)
    assert len(t) > 0


def test_patterns_select_the_right_points():
    model = _model()
    x = torch.randint(0, 16, (2, 5))
    with trace("blocks.*.attn.pattern") as t:
        model(x)
    assert set(t.keys()) == {"blocks.0.attn.pattern", "blocks.1.attn.pattern"}
    assert t["blocks.1.attn.pattern"].shape == (2, 2, 5, 5)
    with trace("attn.scores", "blocks.1.resid") as t:
        model(x)
    assert set(t.keys()) == {"blocks.0.attn.scores", "blocks.1.attn.scores", "blocks.1.resid"}
    assert matches("layers.3.ssm.delta", "ssm.delta") and not matches("layers.3.ssm.delta_bias", "ssm.delta")


def test_nothing_is_recorded_outside_trace():
    model = _model()
    x = torch.randint(0, 16, (1, 4))
    with trace("*") as t:
        pass
    model(x)
    assert len(t) == 0
    with trace("*") as t:
        model(x)
    n = len(t)
    model(x)  # after the block: the recorder is gone, nothing is added
    assert len(t) == n


def test_recorded_tensors_are_detached():
    model = _model()
    with trace("blocks.0.attn.pattern") as t:
        model(torch.randint(0, 16, (1, 4)))
    assert not t["blocks.0.attn.pattern"].requires_grad


def test_threads_tracing_one_shared_model_see_only_their_own_tensors():
    model = _model()
    inputs = {i: torch.full((1, 3 + i), i % 16) for i in range(8)}
    seen: dict[int, dict] = {}
    barrier = threading.Barrier(8)

    def worker(i: int) -> None:
        barrier.wait()
        for _ in range(20):
            with trace("blocks.*.attn.pattern") as t:
                model(inputs[i])
            seen[i] = {k: v.shape for k, v in t.items()}

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for i in range(8):
        T = 3 + i
        assert seen[i] == {f"blocks.{b}.attn.pattern": (1, 2, T, T) for b in range(2)}


# ---- interventions -----------------------------------------------------------------------------------------------


def test_the_identity_override_gives_the_plain_forward_exactly():
    from models.probe import intervene

    model, tokens = _model(), torch.tensor([[1, 5, 7, 2, 9, 3]])
    with torch.no_grad():
        plain = model(tokens)
        with intervene({"*": lambda x, name: x}) as o:
            same = model(tokens)
    assert torch.equal(plain, same) and o.of("blocks.0.attn.pattern")


def test_an_override_changes_what_flows_on_and_what_a_trace_records():
    from models.probe import intervene

    model, tokens = _model(), torch.tensor([[1, 5, 7, 2, 9, 3]])

    def zero_head(x, name):
        x = x.clone()
        x[:, 0] = 0  # (B, H, T, T): head 0 attends nowhere
        return x

    with torch.no_grad():
        plain = model(tokens)
        with intervene({"blocks.1.attn.pattern": zero_head}), trace("blocks.*.attn.pattern") as t:
            knocked = model(tokens)
    assert not torch.allclose(plain, knocked)
    assert t["blocks.1.attn.pattern"][:, 0].abs().max() == 0 and t["blocks.0.attn.pattern"][:, 0].abs().max() > 0


def test_an_override_that_changes_the_shape_is_refused():
    import pytest

    from models.probe import intervene

    with pytest.raises(ValueError, match="shape"), intervene({"blocks.0.attn.pattern": lambda x, name: x[..., :1]}):
        _model()(torch.tensor([[1, 2, 3]]))


def test_one_threads_override_never_reaches_another_threads_run():
    from models.probe import intervene

    model, tokens = _model(), torch.tensor([[1, 5, 7, 2, 9, 3]])
    with torch.no_grad():
        plain = model(tokens)
    results: dict[str, torch.Tensor] = {}
    barrier = threading.Barrier(2)

    def knocked() -> None:
        with intervene({"*.attn.pattern": lambda x, name: torch.zeros_like(x)}):
            barrier.wait()
            with torch.no_grad():
                results["knocked"] = model(tokens)
            barrier.wait()

    def clean() -> None:
        barrier.wait()
        with torch.no_grad():
            results["clean"] = model(tokens)
        barrier.wait()

    threads = [threading.Thread(target=knocked), threading.Thread(target=clean)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert torch.equal(results["clean"], plain) and not torch.allclose(results["knocked"], plain)
