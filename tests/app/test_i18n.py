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
