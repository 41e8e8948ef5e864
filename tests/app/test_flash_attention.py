"""AppTest of the FlashAttention page: the figure's own slider walks Algorithm 1 (every step's tile, running state and
readouts ride in its frames), M sets the block sizes, bad text gives a translated message, and the last step matches
standard attention."""

from __future__ import annotations

import numpy as np

from app.flash_attention import service as svc
from app.shared.i18n import translate
from tests.app.conftest import metric, open_app, rerun, spec, values

LANG = "en"  # page behaviour is tested in one language; test_shell visits every page in both


def _m(at, key: str, **fields) -> str:
    return metric(at, translate(key, LANG, **fields))


def figure(at) -> dict:
    """The step figure as Streamlit sends it."""
    return spec(at, "flash_steps")


def moved(frame: dict) -> dict:
    """A frame's data by trace index (a trace no step changes is not in the frames)."""
    return dict(zip(frame["traces"], frame["data"]))


def readouts(at) -> list[str]:
    """The figure's readout at each step of its own slider (step 0: before the loop)."""
    return [frame["data"][0]["text"][0] for frame in figure(at)["frames"]]


def error_of(readout: str) -> float:
    """The max |O − standard| a readout ends with."""
    return float(readout.rsplit(" ", 1)[1])


M_NOW, L_NOW, P_SQUARES, KEPT = 10, 13, 14, 19  # the traces a step moves: m and ℓ after it, P̃_ij, the old O_i's weight


def test_the_figure_walks_the_tiles():
    at = open_app("flash-attention", lang=LANG)
    assert not at.exception
    w = svc.walk(svc.DEFAULT_TEXT, 0, 0, *svc.blocks_from_memory(svc.MEMORY[0]), True)  # the page's defaults
    fig = figure(at)
    assert fig["layout"]["sliders"][0]["active"] == 1  # it opens on the first iteration
    frames = fig["frames"]
    assert len(frames) == len(w.j) + 1  # step 0: before the loop
    text = readouts(at)
    assert "Step (j, i) (1, 1)" in text[1]
    s = w.t_r + 3  # key block 2, query block 3 (1-based)
    assert f"Step (j, i) ({w.j[s - 1] + 1}, {w.i[s - 1] + 1})" in text[s] and "(2, 3)" in text[s]
    data = moved(frames[s])
    m = np.where(np.isfinite(w.m[s - 1]), w.m[s - 1], np.nan)
    assert np.allclose(values(data[M_NOW]["y"]), m, rtol=1e-5, atol=1e-6, equal_nan=True)
    ell = np.where(w.l[s - 1] > 0, w.l[s - 1], np.nan)
    assert np.allclose(values(data[L_NOW]["y"]), ell, rtol=1e-5, atol=1e-6, equal_nan=True)
    assert np.allclose(values(data[P_SQUARES]["marker"]["color"]), w.P[s - 1].ravel(), rtol=1e-5, atol=1e-6)
    assert np.allclose(values(data[KEPT]["x"]), w.kept[s - 1], rtol=1e-5, atol=1e-6)
    assert text[1] != text[s]


def test_a_link_opens_the_figure_on_its_step():
    """A link's flash_step (from before the step moved into the figure) opens the figure there, clamped."""
    at = open_app("flash-attention", lang=LANG, flash_step="5")
    assert not at.exception
    assert figure(at)["layout"]["sliders"][0]["active"] == 5
    at = open_app("flash-attention", lang=LANG, flash_step="9999")
    assert not at.exception
    assert figure(at)["layout"]["sliders"][0]["active"] == len(figure(at)["frames"]) - 1


def test_memory_sets_the_block_sizes_and_blocks_can_be_set_directly():
    at = open_app("flash-attention", lang=LANG)
    d = svc.head_width()
    first = _m(at, "flash.m.blocks")
    assert first.startswith("4 × 4 ")  # M = 512, d = 32: ⌈512 / 128⌉ = 4
    at.select_slider(key="flash_m").set_value(2048)
    rerun(at, LANG)
    assert not at.exception
    br, bc = svc.blocks_from_memory(2048)
    assert (br, bc) == (min(-(-2048 // (4 * d)), d), -(-2048 // (4 * d)))
    assert _m(at, "flash.m.blocks").startswith(f"{br} × {bc} ")

    at.button_group(key="flash_mode").set_value("blocks")
    rerun(at, LANG)
    at.select_slider(key="flash_br").set_value(8)
    at.select_slider(key="flash_bc").set_value(32)
    rerun(at, LANG)
    assert not at.exception
    assert _m(at, "flash.m.blocks").startswith("8 × 32 ")


def test_bad_text_gives_a_translated_message():
    at = open_app("flash-attention", lang=LANG)
    at.text_input(key="flash_text").set_value("   ")
    rerun(at, LANG)
    assert not at.exception
    assert [e.value for e in at.error] == [translate("flash.error.empty", LANG)]

    at.text_input(key="flash_text").set_value("x" * svc.MAX_CHARS)  # one token per x: more than MAX_TOKENS
    rerun(at, LANG)
    assert not at.exception
    assert [e.value for e in at.error] == [
        translate("flash.error.tokens", LANG, n=svc.MAX_CHARS + 1, max=svc.MAX_TOKENS)
    ]


def test_the_last_step_equals_standard_attention():
    at = open_app("flash-attention", lang=LANG)
    w = svc.walk(svc.DEFAULT_TEXT, 0, 0, *svc.blocks_from_memory(svc.MEMORY[0]), True)
    N = len(w.pieces)
    text = readouts(at)
    assert not text[1].endswith("—")  # the first query block needs only the first key block (causal)
    assert f"Rows finished {N} / {N}" in text[-1]
    # float32 rounding only, measured against the outputs' own scale
    assert error_of(text[-1]) <= 1e-5 * w.scale
    assert float(_m(at, "flash.m.final")) <= 1e-5 * w.scale


def test_io_metric_and_causal_off():
    at = open_app("flash-attention", lang=LANG)
    at.toggle(key="flash_causal").set_value(False)
    rerun(at, LANG)
    assert not at.exception
    w = svc.walk(svc.DEFAULT_TEXT, 0, 0, *svc.blocks_from_memory(svc.MEMORY[0]), False)
    assert f"Tiles computed 1 / {w.t_r * w.t_c}" in readouts(at)[1]  # nothing skipped without the mask
    ratio = _m(at, "flash.io.m_ratio")
    at.select_slider(key="flash_io_m").set_value(4096)
    rerun(at, LANG)
    assert not at.exception
    assert float(_m(at, "flash.io.m_ratio").rstrip("×")) < float(ratio.rstrip("×"))  # less SRAM, more traffic


def test_fewer_tiles_keep_the_step_in_range():
    at = open_app("flash-attention", lang=LANG, flash_step="30")
    assert figure(at)["layout"]["sliders"][0]["active"] == 30
    at.select_slider(key="flash_m").set_value(2048)  # 16 × 16 blocks: 2 × 2 tiles for the default text
    rerun(at, LANG)
    assert not at.exception
    assert figure(at)["layout"]["sliders"][0]["active"] == 4 and "Step (j, i) (2, 2)" in readouts(at)[4]
    at.select_slider(key="flash_m").set_value(8192)  # one tile
    rerun(at, LANG)
    assert not at.exception
    assert figure(at)["layout"]["sliders"][0]["active"] == 1 and "Step (j, i) (1, 1)" in readouts(at)[1]


def test_the_guided_experiment_states_what_the_defaults_do():
    """The "try this" box at the top counts the default walk's tiles, skipped tiles and finished rows: walking it on
    the page gives those numbers."""
    at = open_app("flash-attention", lang=LANG)
    w = svc.walk(svc.DEFAULT_TEXT, 0, 0, *svc.blocks_from_memory(svc.MEMORY[0]), True)
    S, N = len(w.j), len(w.pieces)
    text = " ".join(m.value for m in at.markdown)
    assert f"Of the {S} tiles, the {int(w.skipped.sum())} above the diagonal" in text
    last = readouts(at)[S]  # the figure's last step
    assert f"Tiles computed {S - int(w.skipped.sum())} / {S - int(w.skipped.sum())}" in last
    assert f"Rows finished {N} / {N}" in last
    assert float(_m(at, "flash.m.final")) < 1e-5 * max(1.0, w.scale)
    rows_after_first_pass = int(w.finished[w.t_r - 1])
    assert rows_after_first_pass == w.block_r  # one block of query rows done after the first outer pass


def test_update_caption_running_terms_and_paper_results():
    """Algorithm 1 line 12 scales the new block's P̃_ij V_j by e^(m̃_ij − m_new) / ℓ_new: the caption names that factor
    beside the old O_i's, in both languages. In Chinese the running max and sum are 累计 (cumulative), never 滑动 (which
    reads as a sliding window). The paper-vs-here table carries §4's headline results."""
    from app.flash_attention.strings import STRINGS

    for lang in ("en", "zh"):
        caption = translate("flash.block.caption", lang)
        assert "ℓ_i e^(m_i − m_new) / ℓ_new" in caption and "e^(m̃_ij − m_new) / ℓ_new" in caption
    zh = " ".join(v[1] for v in STRINGS.values())
    assert "滑动" not in zh and "累计最大值" in zh and "累计和" in zh
    at = open_app("flash-attention", lang=LANG)
    assert not at.exception
    cells = " ".join(str(v) for tb in at.table for v in tb.value.to_numpy().ravel())
    for number in ("MLPerf 1.1", "15 %", "3×", "2.4×", "Path-X", "61.4 %", "Path-256", "63.1 %"):
        assert number in cells, number
