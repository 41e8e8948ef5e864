"""AppTest: the entry point and every page run without exception, in both languages."""

import gc
import random
import string
from pathlib import Path

import pytest

from app.catalog import PAPERS, TOOLS, available_papers, available_tools
from models import zoo
from tests.app.conftest import metric, open_app


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_runs_and_counts_pages(lang):
    at = open_app(lang=lang)
    assert not at.exception
    label = "Pages available" if lang == "en" else "可用页面"
    assert int(metric(at, label)) == len(available_papers())
    assert at.title[0].value == ("Transformer Explorer" if lang == "en" else "Transformer 探索器")


def test_switching_language_changes_the_text():
    at = open_app(lang="en")
    at.sidebar.selectbox(key="lang").set_value("zh").run()
    assert not at.exception
    assert at.title[0].value == "Transformer 探索器"


def test_bad_query_parameters_fall_back_to_defaults():
    at = open_app(lang="klingon", backend="tensorflow")
    assert not at.exception
    assert at.title[0].value == "Transformer Explorer"


@pytest.mark.parametrize("paper", [p.page for p in (*available_papers(), *available_tools())] or ["(none yet)"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_page_runs(paper, lang):
    if paper == "(none yet)":
        pytest.skip("no page yet")
    at = open_app(paper, lang=lang)
    assert not at.exception, at.exception


def test_catalog_covers_the_design_table():
    assert len(PAPERS) == 17
    assert len({p.page for p in PAPERS}) == 17
    assert {p.page for p in PAPERS} == {
        "attention",
        "bert",
        "gpt",
        "t5",
        "transformer-xl",
        "vit",
        "moe",
        "rope",
        "flash-attention",
        "llama",
        "mistral",
        "mla",
        "mamba",
        "scaling",
        "alignment",
        "reasoning",
        "forward-pass",
    }


def test_tools_are_in_the_navigation_and_off_the_timeline():
    """A tool (the Compare page) is about no one paper: its own section of the navigation, no place among the papers,
    the timeline or the suggested order."""
    from app.catalog import START_HERE

    assert {t.page for t in TOOLS} == {"compare", "features", "lessons"}
    assert not {t.page for t in TOOLS} & {p.page for p in PAPERS}
    assert not {t.key for t in TOOLS} & set(START_HERE)
    at = open_app("compare", lang="en", compare_models="gpt,mamba-lm")
    assert not at.exception
    assert at.title[0].value == "Compare models"


def test_the_shell_starts_without_importing_torch():
    """The entry point and home need no model: torch is imported by the first page that runs one."""
    import subprocess
    import sys

    code = "import sys, app.shared.services, app.shared.ui, app.catalog; print('torch' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=root)
    assert out.stdout.strip() == "False", out.stderr


def test_backends_agree_with_the_engine():
    from app.shared.services import BACKENDS
    from models.engine import BACKENDS as ENGINE_BACKENDS

    assert BACKENDS == ENGINE_BACKENDS


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_choice_in_the_url_is_its_id_in_either_language(lang):
    """ui.choice: ?vit_source=upload opens the upload view whatever the language, and writes ids, not labels."""
    if "vit" not in {p.page for p in available_papers()}:
        pytest.skip("no ViT page")
    at = open_app("vit", lang=lang, vit_source="upload")
    assert not at.exception
    assert at.radio(key="vit_source").value == "upload"
    at = open_app("vit", lang=lang, vit_source="no-such-source")
    assert at.radio(key="vit_source").value == "pick"  # unknown ids fall back to the default


def test_home_suggests_an_order():
    from app.catalog import START_HERE, start_here

    assert sorted(START_HERE) == sorted(p.key for p in PAPERS)  # every paper has its place in the order
    at = open_app(lang="en")
    links = [el for el in at.main if el.type == "page_link" or getattr(el.proto, "page", "")]
    labels = [el.proto.label for el in links]
    numbered = [label for label in labels if " · " in label]
    assert numbered == [f"{i + 1} · {p.short}" for i, p in enumerate(start_here())]
    assert numbered[0] == "1 · Transformer"
    # the era sections list every paper with a page: one "Open" link per available paper
    assert labels.count("Open") == len(available_papers())


def test_presenter_mode_is_a_sidebar_toggle_kept_in_the_link():
    """?present=true turns presenter mode on (its style sheet is on the page: larger type, explanation
    blocks, expanders and captions hidden); the explanation blocks carry the keys that style sheet hides."""
    from app.shared.html import PRESENTER_CSS

    at = open_app("mamba", present="true")
    assert not at.exception and at.sidebar.toggle(key="present").value is True
    assert any(PRESENTER_CSS in h.proto.body for h in at.get("html"))
    assert at.query_params.get("present") in ("true", ["true"])
    off = open_app("mamba")
    assert off.sidebar.toggle(key="present").value is False
    assert not any(PRESENTER_CSS in h.proto.body for h in off.get("html"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_cached_timing_says_it_is_cached(lang):
    """A result's timing is shown as measured only in the run that computed it; the same (cached) result in a later
    run — this reader's next, or another reader's first — says it came from the cache."""
    if not zoo.checkpoint_dir("transformer").exists():
        pytest.skip("the attention page's checkpoint is not shipped")
    fresh, cached = ("Ran on", "From the cache") if lang == "en" else ("运行于", "来自缓存")
    text = "".join(random.Random().choices(string.ascii_lowercase, k=12))  # a new input: computed in this test

    def readouts(at):
        return [c.value for c in at.caption if c.value.startswith((fresh, cached))]

    first = open_app("attention", lang=lang, attention_text=text)
    assert not first.exception
    # the decoding's readout, and the knock-out section's: both computed now
    assert len(readouts(first)) == 2 and all(r.startswith(fresh) for r in readouts(first)), readouts(first)
    second = open_app("attention", lang=lang, attention_text=text)  # another reader, same input
    assert readouts(second) and all(r.startswith(cached) for r in readouts(second)), readouts(second)
    assert "ms" in readouts(second)[0] or "毫秒" in readouts(second)[0]


def test_settling_the_heap_freezes_it_once_per_name():
    """settle_heap collects and freezes the objects alive (gc.freeze) the first time it hears a name only: a full
    collection is a pause for every reader, worth paying once per page and process."""
    from app.shared import services

    gc.unfreeze()
    try:
        services.settle_heap("test-page")
        frozen = gc.get_freeze_count()
        assert frozen > 0
        kept = [object() for _ in range(1000)]  # tracked objects created after
        kept.append({"x": [1]})
        services.settle_heap("test-page")  # the same name again: no new freeze (it would add the 1,001 above)
        assert gc.get_freeze_count() <= frozen  # fewer when another thread freed a frozen object meanwhile
    finally:
        gc.unfreeze()
        services._settled.discard("test-page")


def test_the_warm_up_loads_every_checkpoint_in_the_background(monkeypatch):
    """Once per process, a background thread loads every installed checkpoint and its ONNX session into the shared
    engine, so a first visit does not wait for them (off in the test process unless asked for, as here)."""
    from app.shared import services

    monkeypatch.setenv("TE_WARM_UP", "1")
    services.warm_up.clear()
    try:
        state = services.warm_up()
        assert state.thread is not None and not state.thread.is_alive()  # made, not started
        assert services.begin_warm_up() is state and services.begin_warm_up() is state  # started once
        state.thread.join(timeout=600)
        assert state.finished and not state.error, state.error
        names = zoo.available()
        assert state.done == state.total == len(names)
        models, sessions = services.engine().loaded()
        assert set(names) <= set(models)
        assert {n for n in names if (zoo.checkpoint_dir(n) / "model.onnx").exists()} <= set(sessions)
        assert "warm-up" in services._settled and gc.get_freeze_count() > 0  # the loaded heap left out of collections
    finally:
        services.warm_up.clear()
        gc.unfreeze()
    monkeypatch.setenv("TE_WARM_UP", "0")
    off = services.begin_warm_up()
    assert off.finished and off.thread is None and off.total == 0
    services.warm_up.clear()


def test_the_warm_up_waits_for_readers_runs(monkeypatch):
    """While a reader's page run is going the warm-up holds its next model back (up to its limit), so the open page's
    own work comes first; it goes on as soon as the run ends."""
    import threading

    from app.shared import services

    monkeypatch.setattr(services, "WARM_UP_YIELD_S", 60.0)
    done = threading.Event()

    def warm_up_step():
        services._after_readers(services.WARM_UP_YIELD_S)
        done.set()

    with services.reader_run():
        worker = threading.Thread(target=warm_up_step)
        worker.start()
        assert not done.wait(0.3)  # held back while the run is going
    assert done.wait(30)  # released by the run's end, not by the 60 s limit
    worker.join()
    services._after_readers(0.0)  # no run: no wait


def test_engine_loads_do_not_wait_for_other_models():
    """The engine makes each model once, and a thread asking for one model does not wait while another thread is
    loading a different one (one lock for all made a first visit wait for the warm-up)."""
    import threading

    from models.engine import Engine

    engine = Engine("cpu")
    loading, release = threading.Event(), threading.Event()

    def slow():
        loading.set()
        release.wait(30)
        return "slow"

    worker = threading.Thread(target=lambda: engine._once(engine._models, "a", slow))
    worker.start()
    assert loading.wait(30)
    assert engine._once(engine._models, "b", lambda: "fast") == "fast"  # while "a" is still loading
    release.set()
    worker.join()
    assert engine._once(engine._models, "a", lambda: "again") == "slow"  # made once


def test_the_pages_are_built_once_per_session_and_language():
    """The shell keeps its ``st.Page`` objects between a session's runs (building them was a large share of the empty
    page's rerun) and builds them again, with translated titles, when the reader switches language."""
    from app.shared.i18n import translate

    at = open_app(lang="en")
    held = at.session_state["_te_nav"]
    at.run()
    assert not at.exception and at.session_state["_te_nav"] is held
    assert translate("era.home", "en") in held[1]
    at.sidebar.selectbox(key="lang").set_value("zh").run()
    assert not at.exception
    rebuilt = at.session_state["_te_nav"]
    assert rebuilt is not held and translate("era.home", "zh") in rebuilt[1]
