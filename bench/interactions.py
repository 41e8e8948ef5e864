"""One widget change per model page, as a reader makes it in a real browser (Playwright's sync API): what
``python -m bench.run --only browser`` times from the change to the figure updated, and what each page's end-to-end
test does once. ``interact(page, i)`` changes something on every call: even ``i`` one way, odd ``i`` back, so
repeated calls stay next to the page's defaults.
"""

from __future__ import annotations

import re

from bench.common import GEMMA, REAL, REAL_PAGES, nudge, wait_idle


def slider(key: str) -> str:
    """The range input of the slider drawn with ``key`` (this Streamlit's slider: a react-aria range input)."""
    return f'.st-key-{key} input[type="range"]'


# The slider each page's interaction moves, by page (url path), where it is one a locator finds at once
SLIDERS = {
    "alignment": slider("alignment_n"),  # replies sampled per model
    "attention": slider("attention_step"),  # the decoding step
    "compare": slider("compare_pos"),  # the character whose guesses (section 2) and mixing (section 3) show
    "forward-pass": slider("forward_pass_layer"),
    "gpt": slider("gpt_temperature"),
    "llama": slider("llama_token"),  # the token sections 1 and 2 show
    "reasoning": slider("reasoning_group"),  # G, the size of the sampled group
    "scaling": slider("scaling_budget"),  # the compute budget (a select_slider: index of 10¹⁰ … 10²⁵)
    "t5": slider("t5_density"),  # section 2's noise density
}
# Pages whose benchmark move is a step of a figure's own slider (``plots.stepped``), which happens in the browser with
# no rerun: page -> (the figure's key, the step it opens on, the step next to it that the move goes to and back from)
FIGURE_SLIDERS = {
    "rope": ("rope_rotation", 10, 11),  # the position m of the rotation section
    "vit": ("vit_cls", 3, 2),  # the layer of [CLS]'s map (it opens on the last)
    "mla": ("mla_latent", 5, 6),  # the token whose latent, keys and next tokens section 1 shows
    "mistral": ("mistral_band", 31, 30),  # the window drawn over the band (step k: w = k + 1; it opens on W = 32)
    "transformer-xl": ("txl_attention", 4, 5),  # the query in the segment whose attention section 1 shows
    "mamba": ("mamba_layer_steps", 0, 1),  # the layer of the selection mechanism's strip, readout and map
    "flash-attention": ("flash_steps", 1, 2),  # the inner iteration of Algorithm 1 (0: before the loop)
}
# Pages whose benchmark move only re-slices numbers the page already computed for its input (a step, a token, a
# layer, a query, a position): the budget for these is p50 ≤ 100 ms. The others' moves compute something new (mask a
# word, a new temperature or noise density, a capacity factor, a group sampled afresh, a compute budget's frontier).
RESLICE = frozenset(
    {
        "attention",
        "compare",
        "flash-attention",
        "forward-pass",
        f"forward-pass-{REAL}",
        "llama",
        f"llama-{REAL}",
        "mamba",
        "mistral",
        "mla",
        "rope",
        "transformer-xl",
        "transformer-xl-segment",
        "vit",
    }
)
# Where the first step of a page's slider goes left (the default sits at the slider's right end, or the left step is
# the one the page redraws most): none at present
# sliders that open at their last value: the training-step sliders (the trained weights)
LEFT_FIRST: frozenset[str] = frozenset({"gpt-step", "moe-step", "reasoning-step", "alignment-step"})
# Pills of BERT's default sentence that its interaction toggles, as labelled (piece + position): positions 1, 5, 9
BERT_TOGGLED = ("to¹", "not⁵", "that⁹")


def capacity_thumb(page):
    """MoE's capacity-factor slider's thumb (an <input type=range>)."""
    page.locator(".st-key-moe_capacity").scroll_into_view_if_needed()
    thumb = page.locator(".st-key-moe_capacity").get_by_role("slider")
    thumb.wait_for(timeout=30_000)
    return thumb


def pick_step(page, step: str, lang: str = "en") -> None:
    """Pick one step of the forward pass (its button, labelled in ``lang``); returns once the page's run for it has
    written the step into the address (the first step, the default, leaves none) and the app is idle. Waiting for
    idle alone could return before a slow machine had even started the run."""
    from app.shared.i18n import translate

    page.locator(".st-key-forward_pass_step button").filter(
        has_text=translate(f"forward_pass.tab.{step}", lang)
    ).click()
    page.wait_for_function(
        "want => new URLSearchParams(location.search).get('forward_pass_step') === want",
        arg=None if step == "embed" else step,
        timeout=60_000,
    )
    wait_idle(page)


def bert(page, i: int = 0) -> None:
    """Click one token pill of the default sentence, which masks it (or unmasks it on the next round); the
    predictions are recomputed and redrawn."""
    label = BERT_TOGGLED[i % len(BERT_TOGGLED)]
    page.locator(".st-key-bert_masks button").filter(has_text=re.compile(f"^{label}$")).click()
    wait_idle(page)


def forward_pass(page, i: int = 0) -> None:
    """The layer slider one step up (even i) or back (odd i), with the MLP step picked (the first call, not timed,
    picks it): the step a layer move redraws with the most elements (the one bench.load's readers open too)."""
    if i == 0:
        pick_step(page, "mlp")
    nudge(page, page.locator(SLIDERS["forward-pass"]), i)


def forward_pass_real(page, i: int = 0) -> None:
    """``forward_pass`` on a Llama-family model, whose MLP step is labelled SwiGLU."""
    from app.shared.i18n import translate

    if i == 0:
        label = translate("forward_pass.llama.tab.mlp", "en")
        page.locator(".st-key-forward_pass_step button").filter(has_text=label).click()
        wait_idle(page)
    nudge(page, page.locator(SLIDERS["forward-pass"]), i)


def mistral_layer(page, i: int = 0) -> None:
    """The Mistral page's band layer: layer 1 (even i), back to layer 0 (odd i); a server move that reruns the band's
    part on that layer's attention (the window stays on the figure's own slider)."""
    label = "1" if i % 2 == 0 else "0"
    page.locator(".st-key-mistral_layer button").filter(has_text=re.compile(f"^{label}$")).click()
    wait_idle(page)


def moe(page, i: int = 0) -> None:
    """The capacity factor one step (0.05) down for even i, back up for odd i."""
    nudge(page, capacity_thumb(page), i, first="ArrowLeft")


def figure_value(page, key: str) -> str:
    """The current value the figure ``key``'s own slider reads ("m = 11"): the text Plotly writes above its rail."""
    return page.locator(f".st-key-{key} .slider-group > text.slider-label").first.text_content() or ""


def figure_step(page, key: str, step: int) -> None:
    """Click step ``step`` (0-based) on the figure ``key``'s own slider (``plots.stepped``) — where that step's tick
    sits on the rail — and return once the slider reads that step's label (the move runs in the browser: no rerun)."""
    chart = page.locator(f".st-key-{key}")
    chart.scroll_into_view_if_needed()
    tick = chart.locator(".slider-tick-rect").nth(step)
    tick.wait_for(state="attached", timeout=30_000)
    chart.locator(".slider-rail-rect").scroll_into_view_if_needed()  # a figure taller than the window: its slider
    label = chart.locator(".js-plotly-plot").first.evaluate("(gd, k) => gd.layout.sliders[0].steps[k].label", step)
    box, rail = tick.bounding_box(), chart.locator(".slider-rail-rect").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, rail["y"] + rail["height"] / 2)
    page.wait_for_function(
        "([sel, want]) => { const el = document.querySelector(sel); return !!el && el.textContent.endsWith(want); }",
        arg=[f".st-key-{key} .slider-group > text.slider-label", f" {label}"],
        timeout=30_000,
    )


def _figure_move(name: str):
    key, default, other = FIGURE_SLIDERS[name]

    def interact(page, i: int = 0) -> None:
        figure_step(page, key, other if i % 2 == 0 else default)

    interact.__doc__ = f"Move {name}'s figure slider ({key}) one step, and back on the next call."
    return interact


def _move(name: str, selector: str | None = None):
    selector = selector or SLIDERS[name]

    def interact(page, i: int = 0) -> None:
        nudge(page, page.locator(selector), i, first="ArrowLeft" if name in LEFT_FIRST else "ArrowRight")

    interact.__doc__ = f"Move {name}'s slider ({selector}) one step, and back on the next call."
    return interact


FEATURES_TOKENS = (3, 0)  # the feature page's token picks, alternating: "Citizen"'s position of the default text, and
# back to the first token (the page opens on it)


def features_token(page, i: int = 0) -> None:
    """Section 1's token of the feature microscope: a pick in its selectbox (even i the fourth token, odd i back to the
    first), which opens that token's strongest feature in sections 2–4. The list's opening is not timed: the clock
    is armed again once the options show, so the move runs from the press on the option."""
    if i == 0:  # a fresh server's first visit loads the dictionary (and SmolLM2, picked): the whole page first
        page.locator(".st-key-features_edit").wait_for(timeout=300_000)
        wait_idle(page, 180_000)
    box = page.locator('.st-key-features_token [role="combobox"]')
    option = page.get_by_role("option").nth(FEATURES_TOKENS[i % 2])
    for _ in range(3):  # a click that lands while the page is still drawing opens a list the redraw closes again
        box.click()
        try:
            option.wait_for(timeout=5_000)
            break
        except Exception:  # noqa: BLE001 - Playwright's TimeoutError: try once more
            page.keyboard.press("Escape")
    option.wait_for(timeout=30_000)
    page.evaluate("() => { const c = window.__teClock; if (c) { c.pressed = null; c.last = null; } }")
    option.click()
    wait_idle(page)


# page (url path) -> its interaction
INTERACTIONS = {
    **{name: _move(name) for name in SLIDERS if name != "forward-pass"},
    **{name: _figure_move(name) for name in FIGURE_SLIDERS},
    "bert": bert,
    "forward-pass": forward_pass,
    "moe": moe,
    "features": features_token,
}

# Further moves, each under its own name: name -> (url path with its query, the move). A page's second slider, and
# the pages that offer the real model (``bench.common.REAL_PAGES``) with it picked in the link, moving the slider
# their entry above moves (the forward pass's MLP step is labelled SwiGLU there). ``python -m bench.moves`` and the
# browser table time these beside the pages' own moves.
MOVES = {
    "rope-d": ("rope", _move("rope-d", slider("rope_d"))),  # the head width d (a select slider): every d-section
    "transformer-xl-segment": ("transformer-xl", _move("transformer-xl-segment", slider("txl_segment"))),
    # the training step of gpt-induction: every view of the GPT page on another snapshot's weights
    "gpt-step": ("gpt?gpt_model=gpt-induction", _move("gpt-step", slider("gpt_step"))),
    # the other pages' recorded training (issue 62): a step of the MoE run's routing, of GRPO's run, of PPO's run
    "moe-step": ("moe", _move("moe-step", slider("moe_step"))),
    "reasoning-step": ("reasoning", _move("reasoning-step", slider("reasoning_watch_step"))),
    "alignment-step": ("alignment", _move("alignment-step", slider("alignment_step"))),
    # the feature microscope's second move (issue 63; its own is the token picked in section 1): section 3's scale
    "features-scale": ("features", _move("features-scale", slider("features_scale"))),
    # the same two moves with SmolLM2 picked: its own dictionary, smollm2-sae, after block 14 of 30
    f"features-{REAL}": (f"features?features_model={REAL}", features_token),
    f"features-scale-{REAL}": (
        f"features?features_model={REAL}",
        _move(f"features-scale-{REAL}", slider("features_scale")),
    ),
    **{
        f"{page}-{REAL}": (f"{page}?{param}={REAL}", {"forward-pass": forward_pass_real}.get(page, INTERACTIONS[page]))
        for page, param in REAL_PAGES.items()
    },
    # the Mistral page's band layer (a rerun of the band's part), on ours and on Gemma 3 270M (issue 64), where its
    # GGUF was fetched (python -m models.data.pretrained gemma-3-270m)
    "mistral-layer": ("mistral", mistral_layer),
    f"mistral-layer-{GEMMA}": (f"mistral?mistral_model={GEMMA}", mistral_layer),
}
# Every timed move by name: (url path with its query, the move); a page's own move under the page's name
ROUTES = {**{name: (name, fn) for name, fn in INTERACTIONS.items()}, **MOVES}
