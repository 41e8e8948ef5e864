"""Every UI string exists in both languages, and every key the app uses is defined."""

import re
from pathlib import Path

from app.shared.i18n import InputError, table, translate

APP = Path(__file__).resolve().parents[2] / "app"


def test_every_string_has_english_and_chinese():
    for key, pair in table().items():
        assert isinstance(pair, tuple) and len(pair) == 2, key
        en, zh = pair
        assert en.strip() and zh.strip(), key


def test_keys_used_in_the_app_are_defined():
    used = set()
    for path in APP.rglob("*.py"):
        used |= set(re.findall(r"""\bt\(\s*["']([\w\-]+\.[\w.\-]+)["']""", path.read_text()))
    missing = sorted(k for k in used if k not in table())
    assert not missing, missing


def test_placeholders_agree_between_languages():
    for key, (en, zh) in table().items():
        assert set(re.findall(r"{(\w+)", en)) == set(re.findall(r"{(\w+)", zh)), key


def test_input_error_speaks_both_languages():
    e = InputError("error.onnx_missing", name="gpt")
    assert "gpt" in e.message("en") and "缺少" in e.message("zh")
    assert translate("home.title", "zh") == "Transformer 探索器"


def test_formulas_are_written_as_math():
    """Sub- and superscripts in braces (``h_{t-1}``, ``e^{iθ}``) sit inside ``$…$``, which Streamlit's Markdown renders
    as a formula, or in code spans; Unicode subscripts (``hₜ``) serve labels that are not Markdown."""
    for key, pair in table().items():
        for text in pair:
            outside = re.sub(r"\$[^$]+\$|`[^`]*`|<[^>]*>", "", text)  # math, code, tokens like <extra_id_{k}>
            assert not re.search(r"[\w)]_\{|[\w)]\^\{|\bh_t\b", outside), (key, text)


# "第 {x} 层" reads as an ordinal, "the x-th layer": filled with a 0-based index it says "the zeroth layer" for the
# first one, "第 17 层" for the 18th. The app writes indices as 层 {n} / 头 {h} / 行 {r} · 列 {c} / 位置 {i} / 步 {s}.
ORDINAL = re.compile(r"第\s*(\{[^}]*\}|0(?![.\d]))")
# (key, what follows 第) that the page fills with a count from 1, or a stride, checked where it is filled.
COUNTS = {
    ("vit.positions.row", "{r}"),  # app/vit/sections.py, app/vit/real.py: r=r + 1
    ("vit.positions.col", "{c}"),  # the same: c=c + 1
    ("vit.occlusion.result", "{row}"),  # app/vit/occlusion.py: row=int(r) + 1
    ("vit.occlusion.result", "{col}"),  # col=int(c) + 1
    ("vit.real.sequence.caption", "{row}"),  # app/vit/real.py: row=r + 1
    ("vit.real.sequence.caption", "{first}"),  # first=r * g + 1: tokens after [CLS], counted from 1
    ("vit.real.sequence.caption", "{last}"),  # last=r * g + g
    ("moe.col.expert", "{rank}"),  # app/moe/sections.py: rank=r + 1 (first choice, second choice)
    ("moe.col.weight", "{rank}"),
    ("moe.col.dropped", "{rank}"),
    ("lessons.stop_of", "{n}"),  # app/lessons/paths.py: Stop.number, from 1
    ("gpt.train.m.icl.help", "{early}"),  # app/gpt/service.py icl_tokens: tokens counted from 1, as the paper's 50th
    ("gpt.train.m.icl.help", "{late}"),
}


def test_no_zero_based_index_is_written_as_a_chinese_ordinal():
    found = sorted(
        (key, m.group(1))
        for key, (_, zh) in table().items()
        for m in ORDINAL.finditer(zh)
        if (key, m.group(1)) not in COUNTS
    )
    assert not found, found
    for key, what in COUNTS:
        assert what in table()[key][1], (key, what)  # the exemption still names a string that has it
