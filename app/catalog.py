"""Every paper of the explorer, in the order of the home timeline. A paper's page joins the navigation as soon as
``app/page_scripts/<page>.py`` exists, so the navigation only ever holds pages that work."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# Not "pages/": Streamlit treats a pages/ folder beside the entry script as an old-style multipage app until the
# entry script has run once, so a fresh server's first deep link (/vit?lang=zh) would skip the shell.
PAGES_DIR = Path(__file__).resolve().parent / "page_scripts"

ERAS = ("foundations", "expansion", "efficiency", "beyond", "scale")


@dataclass(frozen=True)
class Paper:
    key: str  # i18n: paper.<key>.title / paper.<key>.probe
    era: str
    year: float  # position on the timeline
    arxiv: tuple[str, ...]  # arXiv ids ("" where the paper has none)
    page: str  # url_path of its page, also its file name under app/page_scripts/
    icon: str
    short: str  # label on the timeline (a name, the same in both languages)

    @property
    def available(self) -> bool:
        return (PAGES_DIR / f"{self.page}.py").exists()


PAPERS: tuple[Paper, ...] = (
    Paper("transformer", "foundations", 2017.45, ("1706.03762",), "attention", ":material/hub:", "Transformer"),
    Paper("gpt", "foundations", 2018.45, ("2005.14165",), "gpt", ":material/edit_note:", "GPT"),
    Paper("bert", "foundations", 2018.8, ("1810.04805",), "bert", ":material/theater_comedy:", "BERT"),
    Paper("transformer_xl", "foundations", 2019.15, ("1901.02860",), "transformer-xl", ":material/link:",
          "Transformer-XL"),
    Paper("t5", "foundations", 2019.8, ("1910.10683",), "t5", ":material/swap_horiz:", "T5"),
    Paper("vit", "expansion", 2020.8, ("2010.11929",), "vit", ":material/grid_on:", "ViT"),
    Paper("moe", "expansion", 2021.05, ("2101.03961", "2401.04088", "2401.06066"), "moe", ":material/call_split:",
          "Switch / MoE"),
    Paper("rope", "expansion", 2021.3, ("2104.09864",), "rope", ":material/rotate_right:", "RoPE"),
    Paper("flash", "efficiency", 2022.4, ("2205.14135",), "flash-attention", ":material/bolt:", "FlashAttention"),
    Paper("llama", "efficiency", 2023.15, ("2302.13971", "2307.09288"), "llama", ":material/pets:", "LLaMA"),
    Paper("mistral", "efficiency", 2023.8, ("2310.06825",), "mistral", ":material/air:", "Mistral"),
    Paper("mamba", "beyond", 2023.95, ("2312.00752",), "mamba", ":material/waves:", "Mamba"),
    Paper("mla", "efficiency", 2024.95, ("2412.19437",), "mla", ":material/compress:", "MLA"),
    Paper("scaling", "scale", 2020.05, ("2001.08361", "2203.15556", "1909.08053", "1910.02054"), "scaling",
          ":material/trending_up:", "Scaling laws"),
    Paper("alignment", "scale", 2022.2, ("2203.02155", "2305.18290", "2402.03300", "2201.11903"), "alignment",
          ":material/thumb_up:", "RLHF / DPO"),
)


def available_papers() -> list[Paper]:
    return [p for p in PAPERS if p.available]
