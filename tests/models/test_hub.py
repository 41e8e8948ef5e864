"""Downloads from the Hugging Face Hub and checkpoints by repository id (models/pretrained/hub.py), against a Hub
served on loopback (tests/fake_hub.py): no test reaches the internet."""

from __future__ import annotations

import json
import os
import socket
from types import SimpleNamespace

import pytest
import torch

from models import pretrained, zoo
from models.pretrained import hub
from tests.fake_hub import fake_hub_fixture, save_repo, tiny_llama, word_tokenizer  # noqa: F401 (the fixture)
from tests.models.tolerance import assert_close

transformers = pytest.importorskip("transformers")

REPO = "learner/tiny-llama"


@pytest.fixture(scope="module")
def llama_repo(tmp_path_factory):
    """(folder of a tiny Llama repository, the transformers model it holds)."""
    model = tiny_llama()
    return save_repo(model, tmp_path_factory.mktemp("repo"), tokenizer=word_tokenizer(97)), model


def _cache_is_clean(repo: str) -> None:
    """Nothing of ``repo`` findable, no folder of it, no partial file anywhere in the cache."""
    assert pretrained.hf_snapshot(repo) is None
    cache = hub.cache_dir()
    assert not (cache / ("models--" + repo.replace("/", "--"))).exists()
    assert not (cache / ".locks" / ("models--" + repo.replace("/", "--"))).exists()
    left = [p for p in cache.rglob("*")] if cache.exists() else []
    assert not [p for p in left if p.name.endswith(".incomplete")], left


def test_describe_lists_the_safetensors_and_config_files_with_sizes_and_licence(fake_hub, llama_repo):
    folder, _ = llama_repo
    fake_hub.add(REPO, folder, license="llama3.2")
    plan = hub.describe(REPO)
    names = [n for n, _ in plan.files]
    assert names == ["config.json", "tokenizer.json", "generation_config.json", "model.safetensors"]  # no pickle
    assert dict(plan.files)["model.safetensors"] == (folder / "model.safetensors").stat().st_size
    assert plan.total == sum((folder / n).stat().st_size for n in names)
    assert plan.license == "llama3.2" and not plan.gated and len(plan.revision) == 40
    assert fake_hub.requests == [("GET", f"/api/models/{REPO}")]  # one listing, nothing fetched


def test_download_by_id_converts_to_logits_equal_to_transformers(fake_hub, llama_repo):
    folder, theirs = llama_repo
    fake_hub.add(REPO, folder)
    seen = []
    key = hub.resolve(REPO, lambda fraction, done: seen.append((fraction, done)))
    assert key == "hf--learner--tiny-llama" and pretrained.KNOWN[key].arch == "llama"
    assert key in pretrained.available("llama") and key not in pretrained.available("gpt")
    plan = hub.describe(REPO)
    assert seen[-1] == (1.0, plan.total) and all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))
    assert not [p for _, p in fake_hub.requests if p.endswith(".bin")]  # the pickle is never fetched
    assert pretrained.source(key)[0] == "hf"
    assert pretrained.how_to_get(key) == f"python -m models.pretrained.hub fetch {REPO}"
    out = pretrained.prepare(key)
    card = json.loads((out / "card.json").read_text())
    assert card["source"]["repo"] == REPO and card["license"] == "apache-2.0"  # the model card's licence
    tokens = torch.randint(0, 97, (2, 17), generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        assert_close(zoo.load(key)(tokens), theirs(tokens).logits, 1e-4)


def test_a_registered_key_comes_back_in_another_process_from_what_the_machine_holds(fake_hub, llama_repo):
    folder, _ = llama_repo
    fake_hub.add(REPO, folder)
    hub.download(REPO)
    key = pretrained.repo_key(REPO)
    assert dict.get(pretrained.KNOWN, key) is None  # downloaded, not registered: a link opened in a new process
    assert pretrained.is_real(key) and pretrained.KNOWN[key].repos == (REPO,)  # from the cache's config.json
    assert not pretrained.is_real("hf--nobody--nothing") and not pretrained.is_real("hf--../etc")
    with pytest.raises(KeyError):
        pretrained.folder("hf--nobody--nothing")


def test_a_local_folder_is_served_under_a_key_of_its_own(fake_hub, llama_repo):
    folder, theirs = llama_repo
    key = hub.resolve(str(folder))
    assert key.startswith("local--") and pretrained.KNOWN[key].path == str(folder.resolve())
    pretrained.prepare(key)
    pretrained.unregister(key)
    assert pretrained.KNOWN[key].arch == "llama"  # from its converted card
    tokens = torch.randint(0, 97, (1, 9), generator=torch.Generator().manual_seed(4))
    with torch.no_grad():
        assert_close(zoo.load(key)(tokens), theirs(tokens).logits, 1e-4)
    assert fake_hub.requests == []


def _closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


@pytest.mark.parametrize("case", ["not_found", "gated", "interrupted", "disk", "network", "cancelled"])
def test_each_failure_has_its_reason_and_leaves_nothing_behind(fake_hub, llama_repo, monkeypatch, case):
    from huggingface_hub import file_download

    folder, _ = llama_repo
    fake_hub.add(REPO, folder, gated=case == "gated", cut=("model.safetensors",) if case == "interrupted" else ())
    # huggingface_hub waits a second before each of its 5 resumptions of a cut download: not in a test
    monkeypatch.setattr(file_download, "time", SimpleNamespace(sleep=lambda s: None))
    repo, progress = REPO, None
    if case == "not_found":
        repo = "learner/no-such-model"
    if case == "disk":
        monkeypatch.setattr(hub, "free_bytes", lambda path: 1000)
    if case == "network":
        monkeypatch.setenv("HF_ENDPOINT", _closed_port())
    if case == "cancelled":

        def progress(fraction, done):
            if fraction > 0.2:
                raise KeyboardInterrupt  # what a page's stop looks like here: not an Exception

    expected = KeyboardInterrupt if case == "cancelled" else hub.HubError
    with pytest.raises(expected) as caught:
        hub.download(repo, progress)
    if case != "cancelled":
        assert caught.value.reason == case and caught.value.repo == repo
    if case == "disk":
        assert caught.value.fields == {"need": hub.describe(REPO).total + hub.DISK_SLACK, "have": 1000}
    if case in ("interrupted", "cancelled"):  # files were written before it stopped
        assert ("GET", f"/{REPO}/resolve/{fake_hub.repos[REPO].sha}/config.json") in fake_hub.requests
    _cache_is_clean(repo)


def test_a_failure_keeps_what_the_cache_held_before(fake_hub, llama_repo, monkeypatch):
    from huggingface_hub import file_download

    folder, _ = llama_repo
    fake_hub.add(REPO, folder)
    hub.download(REPO)
    storage = hub.cache_dir() / ("models--" + REPO.replace("/", "--"))
    before = sorted(str(p) for p in storage.rglob("*"))
    other = "learner/tiny-llama-2"
    fake_hub.add(other, folder, cut=("model.safetensors",))
    monkeypatch.setattr(file_download, "time", SimpleNamespace(sleep=lambda s: None))
    with pytest.raises(hub.HubError, match="interrupted"):
        hub.download(other)
    assert sorted(str(p) for p in storage.rglob("*")) == before and pretrained.hf_snapshot(REPO) is not None
    _cache_is_clean(other)


def test_offline_hosts_refuse_without_a_request(fake_hub, llama_repo, monkeypatch):
    folder, _ = llama_repo
    fake_hub.add(REPO, folder)
    for var in ("TE_OFFLINE", "HF_HUB_OFFLINE"):
        monkeypatch.setenv(var, "1")
        assert not hub.allowed()
        for call in (hub.describe, hub.download, hub.resolve):
            with pytest.raises(hub.HubError) as caught:
                call(REPO)
            assert caught.value.reason == "offline"
        monkeypatch.delenv(var)
    assert hub.allowed() and fake_hub.requests == []
    _cache_is_clean(REPO)


def test_an_architecture_we_do_not_convert_is_refused_by_name(fake_hub, llama_repo):
    folder, _ = llama_repo
    config = {**json.loads((folder / "config.json").read_text()), "architectures": ["FalconForCausalLM"]}
    weights = (folder / "model.safetensors").read_bytes()
    files = {"config.json": json.dumps(config).encode(), "model.safetensors": weights}
    fake_hub.add("learner/falcon", files=files)
    with pytest.raises(hub.HubError, match="FalconForCausalLM") as caught:
        hub.resolve("learner/falcon")
    assert caught.value.reason == "architecture" and "LlamaForCausalLM" in caught.value.fields["ours"]  # what we do
    assert caught.value.fields["found"] == "FalconForCausalLM"
    assert not [p for _, p in fake_hub.requests if p.endswith("model.safetensors")]  # refused before the weights
    _cache_is_clean("learner/falcon")


def test_an_option_our_class_lacks_is_refused_naming_it(fake_hub, tmp_path):
    save_repo(tiny_llama(hidden_act="gelu"), tmp_path / "gelu")
    fake_hub.add("learner/gelu-llama", tmp_path / "gelu")
    with pytest.raises(hub.HubError, match="activation 'gelu'") as caught:
        hub.resolve("learner/gelu-llama")
    assert caught.value.reason == "option"
    _cache_is_clean("learner/gelu-llama")


def test_sharded_or_pickled_weights_are_refused(fake_hub, llama_repo):
    folder, _ = llama_repo
    weights = (folder / "model.safetensors").read_bytes()
    config = (folder / "config.json").read_bytes()
    fake_hub.add("learner/pickled", files={"config.json": config, "pytorch_model.bin": b"x"})
    names = ("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors")
    fake_hub.add("learner/sharded", files={"config.json": config, **{n: weights for n in names}})
    for repo, reason in (("learner/pickled", "no_weights"), ("learner/sharded", "sharded")):
        with pytest.raises(hub.HubError) as caught:
            hub.resolve(repo)
        assert caught.value.reason == reason
        _cache_is_clean(repo)


def test_a_model_larger_than_free_memory_is_refused_before_its_weights_come(fake_hub, llama_repo, monkeypatch):
    folder, theirs = llama_repo
    fake_hub.add(REPO, folder, params=sum(p.numel() for p in theirs.parameters()))
    size = (folder / "model.safetensors").stat().st_size
    params = sum(p.numel() for p in theirs.parameters())
    monkeypatch.setattr(hub, "memory_available", lambda: hub.needed_memory(params, size) - 1)
    with pytest.raises(hub.HubError, match="GB of memory") as caught:
        hub.resolve(REPO)
    assert caught.value.reason == "memory" and caught.value.fields["have"] == hub.needed_memory(params, size) - 1
    assert not [p for _, p in fake_hub.requests if p.endswith("model.safetensors")]
    _cache_is_clean(REPO)
    monkeypatch.setattr(hub, "memory_available", lambda: hub.needed_memory(params, size))
    assert hub.resolve(REPO) == pretrained.repo_key(REPO)


def test_a_repository_of_the_table_resolves_to_its_table_key(fake_hub, llama_repo):
    folder, _ = llama_repo
    fake_hub.add("HuggingFaceTB/SmolLM2-135M", folder)
    assert hub.resolve("HuggingFaceTB/SmolLM2-135M") == "smollm2-135m-base"
    assert "smollm2-135m-base" in pretrained.available("llama")
    assert not [k for k in dict(pretrained.KNOWN) if k.startswith(pretrained.HUB_PREFIX)]


def test_fetch_command_downloads_and_converts_even_where_the_app_is_offline(fake_hub, llama_repo, monkeypatch, capsys):
    folder, _ = llama_repo
    fake_hub.add(REPO, folder)
    monkeypatch.setenv("TE_OFFLINE", "1")  # the host's app may not download; its fetch-ahead command may
    assert hub.main(["fetch", REPO]) == 0
    key = capsys.readouterr().out.strip().splitlines()[-1]
    assert key == pretrained.repo_key(REPO) and pretrained.converted(key)
    assert os.environ["TE_OFFLINE"] == "1"
    assert hub.main(["fetch", "learner/none"]) == 1 and "not_found" in capsys.readouterr().err


def test_check_judges_a_repository_before_its_weights_come(fake_hub, llama_repo):
    folder, _ = llama_repo
    fake_hub.add(REPO, folder)
    plan, arch = hub.check(REPO)
    assert arch == "llama" and plan.weights == ["model.safetensors"]
    assert not [p for _, p in fake_hub.requests if p.endswith("model.safetensors")]
    _cache_is_clean(REPO)


def test_progress_counts_file_bytes_once_through_the_xet_reporter():
    """Files in Xet storage (most on the Hub now; the loopback Hub serves plain HTTP) report through huggingface_hub's
    XetDownloadProgressReporter: our bar class must be one bar there, counting the file's bytes, not the network's."""
    import logging

    from huggingface_hub.utils._xet_progress_reporting import XetDownloadProgressReporter

    seen = []
    bar = hub._bar(lambda fraction, done: seen.append((fraction, done)), 100, 200)
    with XetDownloadProgressReporter(reconstruction_desc="x", total=100, log_level=logging.INFO, tqdm_class=bar) as r:
        for done, sent in ((40, 10), (100, 30)):
            report = dict(total_bytes_completed=done, total_transfer_bytes_completed=sent, total_bytes=100)
            r.update_progress(
                SimpleNamespace(**report, total_bytes_completion_rate=None, total_transfer_bytes_completion_rate=None)
            )
    assert seen == [(0.7, 140), (1.0, 200)]
