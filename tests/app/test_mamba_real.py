"""AppTest of the Mamba page on a real checkpoint: a tiny random MambaForCausalLM with a tiny byte-level BPE stands in
for state-spaces/mamba-130m-hf in a fake Hugging Face cache. Picked for the text input, it is converted and every view
renders in both languages: its next tokens listed, the layer and channel controls spanning its sizes, a text over the
token cap refused with the translated message; our synthetic-task sections say they are about ours. Without the cache
the picker offers ours and names the absent one."""

from __future__ import annotations

import pytest

pytest.importorskip("transformers")

from app.mamba import service as svc  # noqa: E402
from app.shared.i18n import translate  # noqa: E402
from tests.app.conftest import open_app, rerun, spec  # noqa: E402
from tests.real_models_vision import MAMBA_CONFIG, MAMBA_KEY, TEXT, fake_cache  # noqa: E402

LAYERS = MAMBA_CONFIG["num_hidden_layers"]
D_IN = MAMBA_CONFIG["expand"] * MAMBA_CONFIG["hidden_size"]


@pytest.fixture(scope="module")
def real_cache(tmp_path_factory):
    """The fake cache and an empty conversion folder for this module; the engine forgets models of other runs."""
    from app.shared import services

    root = tmp_path_factory.mktemp("real-mamba")
    cache = fake_cache(root)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_CACHE", str(cache["hub"]))
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("TE_PRETRAINED", str(root / "converted"))
        services.engine.clear()  # a model of this name loaded from another folder earlier in this process
        yield cache
    services.engine.clear()


def _open(lang: str, **query):
    at = open_app("mamba", lang=lang, mamba_source="text", mamba_model=MAMBA_KEY, **query)
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_view_renders_on_the_real_model(real_cache, lang):
    at = _open(lang, mamba_text=TEXT[:80])
    assert at.selectbox(key="mamba_model").value == MAMBA_KEY
    assert not at.error
    tables = [tbl.value for tbl in at.table]
    assert any(translate("mamba.col.token", lang) in tbl.columns for tbl in tables)  # the next tokens, listed
    assert len(spec(at, "mamba_layer_steps")["frames"]) == LAYERS  # a step of its own slider per layer
    captions = [c.value for c in at.caption]
    assert translate("mamba.real.ours_only", lang) in captions  # the synthetic-task sections say whose they are
    for shown in ("delta", "abar", "bc", "hnorm", "channel"):
        at.button_group(key="mamba_map").set_value(shown)
        rerun(at, lang)
        assert not at.exception and not at.error, shown
    channel = at.number_input(key="mamba_channel")
    assert (channel.min, channel.max) == (0, D_IN - 1)
    at.number_input(key="mamba_channel").set_value(D_IN - 1)
    rerun(at, lang)
    assert not at.exception and not at.error


def test_the_token_cap_and_ours_unchanged(real_cache):
    lang = "zh"
    long_text = (TEXT + " ") * 3  # 600 characters at most, far over the cap in this tokenizer
    at = _open(lang, mamba_text=long_text[: svc.MAX_CHARS])
    assert not at.exception
    n = len(real_cache["tokenizer"].encode(long_text[: svc.MAX_CHARS]).ids)
    assert n > svc.MAX_REAL_TOKENS
    assert [e.value for e in at.error] == [translate("mamba.error.too_long_real", lang, n=n, max=svc.MAX_REAL_TOKENS)]
    # Our language model is still the default, with its own tokenizer and no next-token table.
    at = open_app("mamba", lang="en", mamba_source="text")
    assert not at.exception
    if svc.available("text"):
        assert at.selectbox(key="mamba_model").value == svc.NAMES["text"]
        assert not any(translate("mamba.col.token", "en") in tbl.value.columns for tbl in at.table)


def test_without_the_cache_the_picker_names_the_absent_model(tmp_path, monkeypatch):
    if not svc.available("text"):
        pytest.skip("our Mamba language model is not shipped here")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty"))
    monkeypatch.setenv("TE_PRETRAINED", str(tmp_path / "converted"))
    at = open_app("mamba", lang="en", mamba_source="text", mamba_model=MAMBA_KEY)
    assert not at.exception
    assert at.selectbox(key="mamba_model").value == svc.NAMES["text"]
    assert any(MAMBA_KEY in m.value and "hf download" in m.value for m in at.markdown)  # the picker's expander
