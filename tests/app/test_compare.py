"""The Compare page: any pair of models renders in both languages with what each mixes at the position and a link
to its page in that state, three at once, the guesses and the mixing follow the position, the layer control is
clamped to each model, and bad input is a translated message."""

from __future__ import annotations

from urllib.parse import parse_qs

import pytest

from app.compare import service as svc
from tests.app.conftest import metric, open_app, rerun

OFFERED = svc.offered()[0]
PAIRS = [
    ("gpt", "mamba-lm"),
    ("llama-mha", "llama-mqa"),
    ("mistral", "transformer-xl"),
    ("mla", "mtp"),
    ("llama", "mla"),
]
MIXES = {"en": "3 · What each model mixes to make that guess", "zh": "3 · 每个模型为做出这个猜测混合了什么"}


def links(at) -> dict[str, dict[str, str]]:
    """The page links under the mixing section: {page: its query parameters}."""
    return {
        link.proto.page: {k: v[0] for k, v in parse_qs(link.proto.query_string).items()} for link in at.get("page_link")
    }


SHORT = "ROMEO:\nBut soft, what light through yonder window breaks? Café"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("pair", PAIRS, ids="-".join)
def test_a_pair_renders(pair, lang):
    if not set(pair) <= set(OFFERED):
        pytest.skip(f"not installed: {pair}")
    at = open_app("compare", lang=lang, compare_models=",".join(pair), compare_text=SHORT)
    assert not at.exception
    assert not at.error
    assert len(at.metric) == 4  # bits per character, then what each reads or holds at the position
    for name in pair:
        assert 0.5 < float(metric(at, f"{name}: bits/char" if lang == "en" else f"{name}：比特/字符")) < 8
    assert len(at.table) == 4  # guesses of each, the cards, the costs
    assert MIXES[lang] in [h.value for h in at.subheader]
    held = [m.label for m in at.metric[2:]]
    for name in pair:
        mine = {"mamba-lm": ("state it holds", "保存的状态")}.get(name, ("keys it reads", "读取的键"))
        assert (f"{name}: {mine[0]}" if lang == "en" else f"{name}：{mine[1]}") in held
    pages = links(at)
    assert {svc.page_of(n) for n in pair} == set(pages)
    for params in pages.values():
        assert SHORT in params.values()  # each page opens on this text


def test_three_models_and_the_position():
    names = [n for n in ("gpt", "llama", "mamba-lm") if n in OFFERED]
    if len(names) < 3:
        pytest.skip("needs gpt, llama and mamba-lm")
    at = open_app("compare", compare_models=",".join(names), compare_text=SHORT)
    assert not at.exception
    assert [m.label for m in at.metric[:3]] == [f"{n}: bits/char" for n in names]
    costs = at.table[-1].value
    assert len(costs) == 3
    held = dict(zip(costs.iloc[:, 0], costs.iloc[:, 3], strict=True))
    assert all(held.values())
    before = [tab.value.iloc[0, 1] for tab in at.table[:3]]
    keys, state = int(metric(at, "gpt: keys it reads")), metric(at, "mamba-lm: state it holds")
    assert int(links(at)["llama"]["llama_token"]) == keys - 1  # the query: <|endoftext|> is key 0
    at.slider(key="compare_pos").set_value(7)  # the "B" of "But"
    at = rerun(at, "en")
    assert not at.exception
    after = [tab.value.iloc[0, 1] for tab in at.table[:3]]
    assert before != after
    assert int(metric(at, "gpt: keys it reads")) < keys  # the row ends at the new, earlier query
    assert metric(at, "mamba-lm: state it holds") == state  # the same bytes at any position


def test_the_layer_is_clamped_to_each_model():
    names = [n for n in ("gpt", "smollm2-135m") if n in OFFERED]
    if len(names) < 2:
        pytest.skip("needs gpt and smollm2-135m")
    at = open_app("compare", compare_models=",".join(names), compare_text=SHORT, compare_layer="20", timeout=300)
    assert not at.exception
    assert at.slider(key="compare_layer").max == 29  # SmolLM2's 30 layers
    pages = links(at)
    assert pages["gpt"]["gpt_layer"] == "3"  # GPT's last of 4
    assert pages["llama"]["llama_layer"] == "20"


def test_the_real_model_beside_ours():
    if "smollm2-135m" not in OFFERED:
        pytest.skip("smollm2-135m is not here")
    at = open_app("compare", compare_models="gpt,smollm2-135m", compare_text=SHORT, timeout=300)
    assert not at.exception
    assert float(metric(at, "smollm2-135m: bits/char")) < float(metric(at, "gpt: bits/char"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bad_input_is_a_message(lang):
    at = open_app("compare", lang=lang, compare_models="gpt", compare_text=SHORT)
    assert not at.exception
    assert at.error and ("two or three" in at.error[0].value or "两到三个" in at.error[0].value)
    at = open_app("compare", lang=lang, compare_models="gpt,mamba-lm", compare_text="   ")
    assert not at.exception
    assert at.error and ("Type a text" in at.error[0].value or "请输入" in at.error[0].value)


def _note(at, start: str) -> str:
    return next(m.value for m in at.markdown if start in m.value)


def test_the_real_models_note_counts_its_kv_cache():
    """SmolLM2 is 576 wide, but its cache keeps a key and a value for each of its 3 key/value heads of 64: 384
    numbers per token in a layer (issue 61), read from its config."""
    if "smollm2-135m" not in OFFERED:
        pytest.skip("smollm2-135m is not here")
    from app.shared import services
    from app.shared.i18n import translate

    c = services.checkpoint("smollm2-135m").config
    per_layer = 2 * c["n_kv_heads"] * (c["dim"] // c["n_heads"])
    assert per_layer == 384
    at = open_app("compare", compare_models="gpt,smollm2-135m", compare_text=SHORT, timeout=300)
    assert not at.exception
    note = _note(at, "A real model beside ours")
    assert "576" not in note and "2 × 3 × 64 = 384 numbers per token in each layer" in note
    assert f"{per_layer * c['n_layers']:,} over its 30 layers" in note
    zh = translate("compare.why.real", "zh", **svc.real_cache("smollm2-135m"))
    assert "576" not in zh and "2 × 3 × 64 = 384 个数" in zh


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_link_to_the_real_models_page_opens_on_what_it_reads(lang):
    """Compare's default passage is more tokens than the LLaMA page reads of SmolLM2 (issue 61): the link carries the
    passage cut to what that page takes, says so beside it, and the page opens on it without an error."""
    if "smollm2-135m" not in OFFERED:
        pytest.skip("smollm2-135m is not here")
    from app.llama import service as llama_svc

    at = open_app("compare", lang=lang, compare_models="gpt,smollm2-135m", timeout=300)
    assert not at.exception and not at.error
    params = links(at)["llama"]
    sent = params["llama_text"]
    assert svc.DEFAULT_TEXT.startswith(sent) and len(sent) < len(svc.DEFAULT_TEXT)
    llama_svc.encode(sent, name="smollm2-135m")  # within the page's own limit (raises InputError beyond it)
    cut = "first {n} of the {total} characters" if lang == "en" else "前 {n} 个字符（共 {total} 个）"
    assert any(cut.format(n=len(sent), total=len(svc.DEFAULT_TEXT)) in c.value for c in at.caption)
    assert "gpt_text" in links(at)["gpt"] and links(at)["gpt"]["gpt_text"] == svc.DEFAULT_TEXT  # ours reads it all
    page = open_app("llama", lang=lang, timeout=300, **params)
    assert not page.exception, [e.value for e in page.exception]
    assert not page.error, [e.value for e in page.error]
    assert page.text_area(key="llama_text").value == sent
    late = svc.link("smollm2-135m", svc.DEFAULT_TEXT, 10_000, 0, 0)[1]  # a query past the cut: its last token
    assert (  # Compare counts after <|endoftext|>; the LLaMA page reads a real model's text with nothing in front
        int(late["llama_token"])
        == svc.last_position("smollm2-135m", sent) - 1
        == len(llama_svc.encode(sent, name="smollm2-135m")) - 1
    )
    assert svc.link("smollm2-135m", sent, 10, 0, 0)[1]["llama_token"] == "9"  # the same token on both pages
    assert svc.link("smollm2-135m", sent, 0, 0, 0)[1]["llama_token"] == "0"  # <|endoftext|>: the text's first
