"""A path's worksheet for instructors, in one language: for each stop the page, its link (the prepared state), the
task and the exercise, then an answer key computed from the live model by the exercises' own sources of truth.
Markdown, and the same as a printable HTML page (every text escaped)."""

from __future__ import annotations

from urllib.parse import urlencode

from app.lessons import exercises
from app.lessons.paths import PATHS, Stop
from app.shared import html
from app.shared.i18n import translate

INLINE = 10  # more answers than this are printed on one line, not as a list of boxes
SEPARATORS = (" | ", " ; ", " / ", " ‖ ")  # between answers on one line: the first that no answer contains


def separator(options) -> str:
    """What separates answers printed on one line: never a mark that occurs inside one ("L0 · H0" holds " · ")."""
    return next((sep for sep in SEPARATORS if not any(sep.strip() in o for o in options)), SEPARATORS[-1])


def stop_url(stop: Stop, base: str, lang: str) -> str:
    return f"{base.rstrip('/')}/{stop.page}?{urlencode(stop.query(lang))}"


def _parts(path: str, lang: str, base: str) -> tuple[str, list[dict], list[tuple[str, str]]]:
    """The worksheet's title, its stops (title, url, task, question, options) and its answer key."""
    stops = []
    keys = []
    for stop in PATHS[path]:
        ex = exercises.EXERCISES.get(stop.page)
        title = translate(stop.title_key, lang)
        stops.append(
            {
                "title": title,
                "url": stop_url(stop, base, lang),
                "task": translate(f"lessons.task.{path}.{stop.task}", lang),
                "question": None,
                "options": [],
            }
        )
        if ex:
            with exercises.prepared(dict(stop.params)):  # the options and the answer at the state the stop opens in
                stops[-1]["question"] = translate(exercises.question_key(stop.page, ex), lang)
                options = ex.options() if ex.options else None  # None: answered with the page's own controls
                stops[-1]["options"] = [ex.label(o, lang) for o in options] if options is not None else []
                keys.append((title, ex.answer(lang)))
    return translate(f"lessons.path.{path}.title", lang), stops, keys


def markdown(path: str, lang: str, base: str) -> str:
    title, stops, keys = _parts(path, lang, base)
    out = [f"# {title}", "", translate(f"lessons.path.{path}.blurb", lang), ""]
    for i, s in enumerate(stops, start=1):
        out += [
            f"## {i}. {s['title']}",
            "",
            f"<{s['url']}>",
            "",
            f"**{translate('lessons.ws.task', lang)}** {s['task']}",
        ]
        if s["question"]:
            out += ["", f"**{translate('lessons.exercise', lang)}** {s['question']}"]
            if len(s["options"]) > INLINE:
                out += ["", separator(s["options"]).join(s["options"])]
            else:
                out += [f"- [ ] {o}" for o in s["options"]]
            out += ["", f"{translate('lessons.ws.answer_line', lang)} ____________________"]
        out.append("")
    out += [f"## {translate('lessons.ws.key', lang)}", "", translate("lessons.ws.key.note", lang), ""]
    out += [f"- **{t}**: {a}" for t, a in keys]
    return "\n".join(out) + "\n"


def printable(path: str, lang: str, base: str) -> str:
    """The worksheet as one HTML page that prints on A4 (the answer key starts a new page)."""
    title, stops, keys = _parts(path, lang, base)
    e = html.esc
    body = [f"<h1>{e(title)}</h1>", f"<p>{e(translate(f'lessons.path.{path}.blurb', lang))}</p>"]
    for i, s in enumerate(stops, start=1):
        body.append(f'<section><h2>{i}. {e(s["title"])}</h2><p><a href="{e(s["url"])}">{e(s["url"])}</a></p>')
        body.append(f"<p><b>{e(translate('lessons.ws.task', lang))}</b> {e(s['task'])}</p>")
        if s["question"]:
            body.append(f"<p><b>{e(translate('lessons.exercise', lang))}</b> {e(s['question'])}</p>")
            if len(s["options"]) > INLINE:
                sep = e(separator(s["options"]))
                body.append(f'<p class="options">{sep.join(e(o) for o in s["options"])}</p>')
            elif s["options"]:
                body.append("<ul>" + "".join(f"<li>☐ {e(o)}</li>" for o in s["options"]) + "</ul>")
            body.append(f'<p class="line">{e(translate("lessons.ws.answer_line", lang))}</p>')
        body.append("</section>")
    body.append(f'<section class="key"><h2>{e(translate("lessons.ws.key", lang))}</h2>')
    body.append(f"<p>{e(translate('lessons.ws.key.note', lang))}</p><ul>")
    body += [f"<li><b>{e(t)}</b>: {e(a)}</li>" for t, a in keys]
    body.append("</ul></section>")
    html_lang = "zh-Hans" if lang == "zh" else "en"
    return (
        f'<!doctype html><html lang="{html_lang}"><head><meta charset="utf-8"><title>{e(title)}</title><style>'
        "body{font:11pt/1.45 system-ui,sans-serif;max-width:46em;margin:2em auto;padding:0 1em}"
        "h1{font-size:1.6em}h2{font-size:1.15em;margin-top:1.4em}a{word-break:break-all}"
        ".line{border-bottom:1px solid #888;padding-bottom:1.6em}ul{list-style:none;padding-left:1em}"
        "section{break-inside:avoid}.key{break-before:page}"
        "</style></head><body>" + "".join(body) + "</body></html>"
    )
