"""Everything on a page follows the model the learner picked: with the real SmolLM2-135M-Instruct picked, a walk
through each page that offers it (every view of GPT, every step of the forward pass, LLaMA, RoPE), in both
languages, finds no number from our own checkpoint's card and no sentence that describes our model's shape as the
one probed. The README's setup converts SmolLM2; the test fails (never skips) where it is missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.forward_pass.sections import STEPS
from app.gpt.probes import VIEWS
from app.shared.i18n import translate
from tests.app.conftest import open_app

REAL = "smollm2-135m"
CHECKPOINTS = Path(__file__).resolve().parents[2] / "models" / "checkpoints"


def _scalars(value):
    """Every number of a card's metrics, however nested (lists of curves included)."""
    if isinstance(value, dict):
        for v in value.values():
            yield from _scalars(v)
    elif isinstance(value, list):
        for v in value:
            yield from _scalars(v)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value


def card_numbers(name: str) -> set[str]:
    """Our checkpoint ``name``'s card numbers as a page would print them: floats to 2–4 decimals and as a percent
    with one decimal (only forms with three significant digits or more, which cannot turn up by chance), counts
    with thousands separators."""
    card = json.loads((CHECKPOINTS / name / "card.json").read_text())
    out = {f"{card['params']:,}"}
    for v in _scalars(card.get("metrics", {})):
        if isinstance(v, int) or float(v).is_integer():
            if abs(v) >= 1000:
                out.add(f"{int(v):,}")
            continue
        for form in (f"{v:.2f}", f"{v:.3f}", f"{v:.4f}", f"{v:.1%}"):
            if sum(c.isdigit() for c in form.lstrip("-0.")) >= 3:
                out.add(form)
    return out


def shown(at, skip: tuple[str, ...] = ()) -> str:
    """All text the run drew, in page order: markdown, captions, alerts, headings, metrics (label, value, help) and
    every widget's label and help; the parts inside a container keyed by one of ``skip`` (a page's parts that stay
    ours whichever model is picked, and say so) left out."""
    parts: list[str] = []

    def visit(node) -> None:
        for child in getattr(node, "children", {}).values():
            pid = str(getattr(getattr(child, "proto", None), "id", "") or "")
            if any(pid.endswith(f"-{k}") for k in skip):
                continue
            kind = type(child).__name__
            if kind in ("Markdown", "Caption", "Info", "Warning", "Success", "Error", "Title", "Header", "Subheader"):
                parts.append(str(child.value))
            elif kind == "Metric":
                parts.extend([child.label, str(child.value), str(child.proto.help)])
            else:
                parts.extend([str(getattr(child, "label", "") or ""), str(getattr(child, "help", "") or "")])
            visit(child)

    visit(at.main)
    return "\n".join(parts)


def ours_leaks(text: str, ours: str) -> list[str]:
    import re

    numbers = card_numbers(ours)
    found = set(re.findall(r"-?[\d,]*\d\.?\d*%?", text))
    return sorted(n for n in numbers if n in found)


def walk(page: str, lang: str, skip: tuple[str, ...] = (), **query) -> list[tuple[str, str]]:
    at = open_app(page, lang=lang, timeout=300, **{f"{page.replace('-', '_')}_model": REAL}, **query)
    assert not at.exception, [e.value for e in at.exception]
    return [(str(query), shown(at, skip))]


@pytest.fixture(scope="module", autouse=True)
def _real_model_here():
    from app.shared import services

    assert services.checkpoint(REAL).available, "run the README's setup: python -m models.data.pretrained"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("view", VIEWS)
def test_gpt_views_speak_of_the_picked_model(view, lang):
    for where, text in walk("gpt", lang, gpt_view=view):
        assert ours_leaks(text, "gpt") == [], where
        assert "our small model shows" not in text and "我们的小模型这一现象弱得多" not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("step", STEPS)
def test_forward_pass_steps_speak_of_the_picked_model(step, lang):
    for where, text in walk("forward-pass", lang, forward_pass_step=step):
        assert ours_leaks(text, "gpt") == [], where


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_llama_speaks_of_the_picked_model(lang):
    from app.llama import service as svc

    ours = svc.shape(svc.MODEL.name)
    for where, text in walk("llama", lang, skip=("llama_ours", "llama_ours_cards")):
        assert ours_leaks(text, "llama") == [], where
        # the intro's sentence about our small model is not shown as the probed model
        assert translate("llama.intro.ours", lang, L=ours.n_layers, H=ours.n_heads, G=ours.n_kv_heads) not in text
        assert translate("llama.ko.caption.real", lang, name="SmolLM2-135M-Instruct", T=svc.REAL_MAX_TOKENS) in text
        assert "plays it never trained on" not in text and "模型从未训练过的剧本" not in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rope_speaks_of_the_picked_model(lang):
    for where, text in walk("rope", lang, skip=("rope_ours", "rope_ours_ext")):
        assert ours_leaks(text, "llama") == [], where
        assert translate("rope.ours.note", lang, name="SmolLM2-135M-Instruct") in text  # the boxes say whose
        assert "held-out windows of" not in text or "not held out for" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_feature_microscope_speaks_of_the_picked_model(lang):
    """SmolLM2 picked: its own dictionary's numbers, none of ours or of our dictionary's, steering included."""
    for where, text in walk("features", lang, features_id="3733", features_steer_alpha="0.5"):
        assert ours_leaks(text, "gpt") == [] and ours_leaks(text, "gpt-sae") == [], where
        assert "4,608" in text and "4,096" not in text
        assert "Our GPT was trained on Shakespeare" not in text and "我们的 GPT 是在莎士比亚作品上训练的" not in text


def test_the_walk_would_find_our_numbers():
    """The check can fail: on our own model the same walk finds our card's validation loss on the GPT page."""
    at = open_app("gpt", lang="en", timeout=300, gpt_view="tokens")
    assert ours_leaks(shown(at), "gpt")
    at = open_app("features", lang="en", timeout=300)  # and our dictionary's on the feature microscope
    assert ours_leaks(shown(at), "gpt-sae")


# ---- the pages whose real models come from the Hugging Face cache: tiny converted stand-ins -----------------------

STAND_INS = {"bert": "bert-base-uncased", "t5": "t5-small", "vit": "vit-base-patch16-224", "mamba": "mamba-130m"}
OURS = {"bert": "bert", "t5": "t5", "vit": "vit", "mamba": "mamba-lm"}


@pytest.fixture(scope="module")
def stand_ins(tmp_path_factory):
    """HF_HUB_CACHE holding a tiny stand-in of each real BERT, T5, ViT and Mamba (as the loader's tests write them),
    TE_PRETRAINED an empty folder; models and cached results of these names are dropped afterwards."""
    pytest.importorskip("transformers")
    import streamlit as st

    from app.shared import services
    from tests.real_models import fake_hub
    from tests.real_models_vision import fake_cache

    root = tmp_path_factory.mktemp("stand-ins")
    fake_cache(root)  # ViT and Mamba, into root / "hub"
    fake_hub(root / "hub", STAND_INS["bert"], STAND_INS["t5"])
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_CACHE", str(root / "hub"))
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("TE_PRETRAINED", str(root / "converted"))
        services.engine.clear()
        yield
    services.engine.clear()
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", sorted(STAND_INS))
def test_pages_with_a_released_model_from_the_cache_speak_of_it(stand_ins, page, lang):
    query = {f"{page}_model": STAND_INS[page], **({"mamba_source": "text"} if page == "mamba" else {})}
    at = open_app(page, lang=lang, timeout=300, **query)  # Mamba's picker reads its text source
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=f"{page}_model").value == STAND_INS[page]  # the stand-in is the page's model
    assert ours_leaks(shown(at, skip=("mamba_ours",)), OURS[page]) == []  # Mamba's last box: "our language model"
