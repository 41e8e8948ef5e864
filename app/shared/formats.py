"""Numbers as the pages write them. Each name says its base: a cache in KiB (binary, as memory is allocated) is not
a checkpoint in GB (decimal, as the ZeRO and LLaMA papers count), and a parameter count is neither.

Pure functions of a number (and, for ``count_in_words``, of the reader's language): no Streamlit."""

from __future__ import annotations

import math

SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def binary_size(n: float) -> str:
    """Bytes in the binary unit that reads best: 1,536 B -> 1.5 KiB; 3·2²⁰ -> 3.0 MiB."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n:,.0f} B"


def kib(n: float) -> str:
    """Bytes in KiB with two decimals, for sizes compared side by side at one scale (a KV cache per token)."""
    return f"{n / 1024:,.2f} KiB"


def decimal_size(n: float) -> str:
    """Bytes in the decimal unit that reads best, three significant figures: 1.4e9 -> 1.4 GB."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:,.3g} {unit}"
    return f"{n:,.0f} B"


def percent(p: float, digits: int = 1) -> str:
    """A share in [0, 1] as a percentage: 0.273 -> 27.3%."""
    return f"{100 * p:.{digits}f}%"


def scientific(x: float) -> str:
    """A positive number as mantissa·10^exponent with superscript digits (1.34·10¹⁶); a power of ten alone as 10²¹."""
    exponent = math.floor(math.log10(x))
    mantissa = f"{x / 10**exponent:.3g}"
    power = f"10{str(exponent).translate(SUPERSCRIPT)}"
    return power if mantissa == "1" else f"{mantissa}·{power}"


def millions_or_billions(n: float) -> str:
    """A parameter count as the papers write it, two decimals: 6.74 B, 135.00 M."""
    return f"{n / 1e9:,.2f} B" if n >= 1e9 else f"{n / 1e6:,.2f} M"


def short_count(n: float) -> str:
    """A count with a letter suffix, three significant figures (1.5K, 2.3M, 47B, 1.2T); NaN as a dash."""
    if math.isnan(n):
        return "—"
    for unit, scale in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= scale:
            return f"{n / scale:.3g}{unit}"
    return str(int(n))


def count_in_words(x: float, scales: str) -> str:
    """A count in the units of the reader's language, ``scales`` as "1e12 T|1e9 B|1e6 M|1e3 k" or
    "1e12 万亿|1e8 亿|1e4 万" (a translated string): 1.8B / 18亿, 793k / 79.3万; from 10¹⁵ on, scientific."""
    if x >= 1e15:
        return scientific(x)
    for pair in scales.split("|"):
        scale, unit = pair.split(" ", 1)
        if x >= float(scale):
            v = x / float(scale)  # 4,670亿 rather than 4.67e+03亿 (万亿 is the largest unit before 10¹⁵)
            return f"{v:,.0f}{unit}" if v >= 1000 else f"{v:,.3g}{unit}"
    return f"{x:,.0f}"


def index_span(first: int, k: int) -> str:
    """Indices first … first + k − 1 (zero-based), or the one index."""
    return f"{first}" if k == 1 else f"{first}–{first + k - 1}"
