"""Moving a control reruns only the part of the page it changes, over Streamlit's own websocket protocol
against a real server, as a browser asks: the rerun names the fragment the widget is in, and the server answers with
that fragment's elements alone. And where a view depends on two fragments (GPT's attention view of the generated
tokens), moving a sampling control redraws both."""

from __future__ import annotations

import asyncio

import pytest

from bench.load import _in_own_loop, stream

pytestmark = pytest.mark.e2e

FRAGMENT_DONE, EARLY_FOR_RERUN = 3, 2  # ForwardMsg.ScriptFinishedStatus


class Tab:
    """One simulated browser tab on a page: the widgets it has seen (key -> (widget id, fragment id)) and the
    values it sends back, as the browser does on every rerun."""

    def __init__(self, ws, page: str):
        self.ws, self.page = ws, page
        self.widgets: dict[str, tuple[str, str]] = {}
        self.states: dict[str, tuple[str, object]] = {}  # key -> (kind, value)

    async def rerun(self, fragment_of: str | None = None) -> tuple[int, dict[str, str]]:
        """Rerun the page, or the fragment the widget ``fragment_of`` is in; returns the finish status and the
        elements drawn (key -> the element's serialised bytes, e.g. a chart's spec); follows a rerun the server
        asked for itself (a keyed ``st.rerun`` from a callback) to its end."""
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        msg = BackMsg()
        msg.rerun_script.page_name = self.page
        msg.rerun_script.widget_states.SetInParent()
        for key, (kind, value) in self.states.items():
            state = msg.rerun_script.widget_states.widgets.add()
            state.id = self.widgets[key][0]
            if kind == "slider":
                state.double_array_value.data.append(value)
            elif kind == "button":  # a click: send it once, then drop it (gpt's Generate)
                state.trigger_value = True
            else:
                state.string_array_value.data.extend(value)
        if fragment_of:
            msg.rerun_script.fragment_id = self.widgets[fragment_of][1]
        await self.ws.send(msg.SerializeToString())
        drawn: dict[str, str] = {}
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), 120)
            if isinstance(raw, str):
                continue
            fm = ForwardMsg.FromString(raw)
            kind = fm.WhichOneof("type")
            if kind == "delta":
                element = fm.delta.new_element
                which = element.WhichOneof("type")
                assert which != "exception", element.exception.message
                inner = getattr(element, which) if which else None
                element_id = getattr(inner, "id", "") if inner is not None else ""
                if element_id.startswith("$$ID-"):
                    key = element_id.split("-", 2)[2]
                    self.widgets[key] = (element_id, fm.delta.fragment_id)
                    drawn[key] = inner.SerializeToString()
            elif kind == "script_finished":
                if fm.script_finished != EARLY_FOR_RERUN:
                    return fm.script_finished, drawn


def run_tab(server: str, page: str, script) -> None:
    """Open a tab on ``page`` and run the coroutine ``script(tab)``."""

    async def main():
        async with stream(server) as ws:
            tab = Tab(ws, page)
            status, drawn = await tab.rerun()
            assert status == 0 and drawn
            await script(tab)

    _in_own_loop(main())


@pytest.mark.parametrize(
    ("page", "slider", "value", "inside", "outside"),
    [
        ("gpt", "gpt_temperature", 0.5, "gpt_sampling", "gpt_next"),
        ("moe", "moe_layer", 1.0, "moe_router", "moe_text"),
        ("attention", "attention_step", 1.0, "attention_heads", "attention_layer"),  # the controls: a fragment
        ("mamba", "mamba_compare_layer", 1.0, "mamba_compare", "mamba_outputs"),  # the answers sit above it
        ("bert", "bert_k", 3.0, "bert_pred_fig", "bert_masks"),  # k: the predictions alone, not the mask picker
        # the forward pass's layer and temperature rerun the picked step (by their callbacks), not the controls
        ("forward-pass", "forward_pass_layer", 2.0, "forward_pass_embed", "forward_pass_pos"),
        ("forward-pass", "forward_pass_temperature", 0.5, "forward_pass_step", "forward_pass_layer"),
        # reasoning's difficulty draws a new problem: the problem and group parts rerun, the training curves do not
        ("reasoning", "reasoning_k", 5.0, "reasoning_group_bars", "reasoning_train_curves"),
        ("reasoning", "reasoning_k", 5.0, "reasoning_curve", "reasoning_r1"),
        ("reasoning", "reasoning_k", 5.0, "reasoning_group_bars", "reasoning_seed"),  # not the group's controls
        ("reasoning", "reasoning_k", 5.0, "reasoning_problem", "reasoning_example"),  # the box, not the pickers
        ("reasoning", "reasoning_group", 4.0, "reasoning_group_bars", "reasoning_policy"),  # the group alone
        # LLaMA's token: the norm and SwiGLU parts, not the text box or anything further down
        ("llama", "llama_token", 3.0, "llama_sorted", "llama_text"),
        ("llama", "llama_token", 3.0, "llama_channels", "llama_loss_kv"),
        ("t5", "t5_density", 0.4, "t5_lengths", "t5_mean_span"),  # the corruption and lengths, not the controls
    ],
)
def test_a_slider_reruns_its_fragment_alone(server, page, slider, value, inside, outside):
    async def script(tab):
        tab.states[slider] = ("slider", value)
        status, drawn = await tab.rerun(fragment_of=slider)
        assert status == FRAGMENT_DONE
        assert inside in drawn and outside not in drawn

    run_tab(server, page, script)


def test_gpt_attention_view_follows_a_new_continuation(server):
    """In the attention view with the generated tokens, Generate reruns the sampling part and the view (their two
    fragments), and the view's heatmap changes with the continuation; a new temperature reruns the sampling part
    alone (it generates nothing, so the view keeps its continuation); in the tokens view Generate leaves the view."""

    async def click(tab):
        tab.states["gpt_generate"] = ("button", True)
        status, drawn = await tab.rerun(fragment_of="gpt_generate")
        del tab.states["gpt_generate"]
        return status, drawn

    async def script(tab):
        tab.states["gpt_view"] = ("choice", ["Causal attention"])
        status, drawn = await tab.rerun(fragment_of="gpt_view")
        assert status == FRAGMENT_DONE and "gpt_attention" in drawn
        before = drawn["gpt_attention"]
        status, drawn = await click(tab)
        assert status == FRAGMENT_DONE
        assert "gpt_sampling" in drawn and "gpt_attention" in drawn and "gpt_next" not in drawn
        assert drawn["gpt_attention"] != before
        tab.states["gpt_temperature"] = ("slider", 1.5)
        status, drawn = await tab.rerun(fragment_of="gpt_temperature")
        assert status == FRAGMENT_DONE
        assert "gpt_sampling" in drawn and "gpt_attention" not in drawn and "gpt_next" not in drawn
        tab.states["gpt_view"] = ("choice", ["Tokenisation"])
        await tab.rerun(fragment_of="gpt_view")
        status, drawn = await click(tab)
        assert status == FRAGMENT_DONE and "gpt_sampling" in drawn and "gpt_dl_tokens" not in drawn

    run_tab(server, "gpt", script)


def test_forward_pass_draws_the_picked_step_alone(server):
    """Picking a step draws that step and nothing else; the layer then redraws that step, not the controls."""

    async def script(tab):
        tab.states["forward_pass_step"] = ("choice", ["6 · MLP"])
        status, drawn = await tab.rerun(fragment_of="forward_pass_step")
        assert status == FRAGMENT_DONE
        assert {"forward_pass_mlp", "forward_pass_mlp_out"} <= drawn.keys()
        assert "forward_pass_embed" not in drawn and "forward_pass_layer" not in drawn
        before = drawn["forward_pass_mlp"]
        tab.states["forward_pass_layer"] = ("slider", 3.0)
        status, drawn = await tab.rerun(fragment_of="forward_pass_layer")
        assert status == FRAGMENT_DONE
        assert "forward_pass_mlp" in drawn and "forward_pass_embed" not in drawn and "forward_pass_pos" not in drawn
        assert drawn["forward_pass_mlp"] != before

    run_tab(server, "forward-pass", script)


def test_moe_layer_slider_reruns_the_router_view_and_nothing_else(server):
    """The MoE page's layer slider reruns its one per-layer view, the router's heatmap and table, in a single run (no
    callback, no second run); the capacity, balance and specialisation figures show every layer and stay."""

    async def script(tab):
        _, first = await tab.rerun()
        tab.states["moe_layer"] = ("slider", 1.0)
        status, drawn = await tab.rerun(fragment_of="moe_layer")
        assert status == FRAGMENT_DONE
        assert drawn.get("moe_router") not in (None, first["moe_router"])  # redrawn, for layer 1
        assert not {"moe_text", "moe_load", "moe_balance", "moe_special", "moe_params"} & drawn.keys()

    run_tab(server, "moe", script)


def test_moe_intervention_controls_rerun_the_intervention_alone(server):
    """The MoE page's intervention: picking another expert to switch off reruns its part (metrics, strips, the two
    load figures) and nothing above it, neither the router's view nor the capacity and specialisation figures."""

    async def script(tab):
        _, first = await tab.rerun()
        tab.states["moe_ko_expert"] = ("choice", ["2"])
        status, drawn = await tab.rerun(fragment_of="moe_ko_expert")
        assert status == FRAGMENT_DONE
        assert drawn.get("moe_ko_load_after") not in (None, first["moe_ko_load_after"])  # redrawn, for expert 2
        assert not {"moe_text", "moe_router", "moe_load", "moe_special", "moe_params"} & drawn.keys()

    run_tab(server, "moe", script)


def test_transformer_xl_segment_reruns_the_memory_and_terms_parts(server):
    """Transformer-XL's segment slider drives two parts apart in the page, the memory bars (1) and the four terms of
    the relative score (4): its callback reruns both fragments, and the loss, reach, controls and text box between
    and above them are not sent again (the query moves on those figures' own sliders, in the browser)."""

    async def script(tab):
        _, first = await tab.rerun()
        tab.states["txl_segment"] = ("slider", 1.0)
        status, drawn = await tab.rerun(fragment_of="txl_segment")
        assert status == FRAGMENT_DONE
        assert drawn.get("txl_attention") not in (None, first["txl_attention"])  # redrawn, for the new segment
        assert drawn.get("txl_terms") not in (None, first["txl_terms"])
        assert not {"txl_text", "txl_loss", "txl_reach", "txl_layer"} & drawn.keys()  # nor the controls

    run_tab(server, "transformer-xl", script)


def test_rope_head_width_reruns_what_it_drives_and_nothing_else(server):
    """RoPE's head width d (a select slider: its state is the option as written) reruns the parts that follow d and
    the base, the rotation, spectrum, relative scores, bound and schemes (each redrawn for the new d), and none of
    what reads the trained model as it is: the measured decay, extrapolation and the intervention, nor the controls."""

    async def script(tab):
        _, first = await tab.rerun()
        tab.states["rope_d"] = ("choice", ["64"])  # from 48
        status, drawn = await tab.rerun(fragment_of="rope_d")
        assert status == FRAGMENT_DONE
        for key in ("rope_rotation", "rope_spectrum", "rope_rope_map", "rope_bound", "rope_schemes"):
            assert drawn.get(key) not in (None, first[key]), key
        assert not {"rope_measured", "rope_extrapolation", "rope_unrot", "rope_d", "rope_base"} & drawn.keys()

    run_tab(server, "rope", script)


def test_moe_capacity_reruns_the_parts_that_route_and_nothing_else(server):
    """MoE's capacity factor reruns the parts that route with it (the tokens' strips, the router's view, the
    capacity and balance figures, the intervention: each redrawn), not the text box, the sample picker, the
    specialisation or the parameters, nor the controls themselves."""

    async def script(tab):
        _, first = await tab.rerun()
        tab.states["moe_capacity"] = ("slider", 0.5)
        status, drawn = await tab.rerun(fragment_of="moe_capacity")
        assert status == FRAGMENT_DONE
        for key in ("moe_load", "moe_ko_load_after"):
            assert drawn.get(key) not in (None, first[key]), key
        assert {"moe_router", "moe_balance"} <= drawn.keys()  # layer 0's router reads no earlier drop: the same
        assert not {"moe_text", "moe_sample", "moe_special", "moe_params", "moe_capacity", "moe_topk"} & drawn.keys()

    run_tab(server, "moe", script)
