"""Every paper of the explorer, in the order of the home timeline (``assets/timeline.json``). A paper's page joins
the navigation as soon as ``app/<module>/page.py`` exists (``<module>`` is its url_path with ``-`` as ``_``), so the
navigation only ever holds pages that work."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from app.shared import assets

# Pages are folders of app/, beside the entry script. Not "pages/": Streamlit treats a pages/ folder beside the entry
# script as an old-style multipage app until the entry script has run once, so a fresh server's first deep link
# (/vit?lang=zh) would skip the shell.
APP_DIR = Path(__file__).resolve().parent
HOME = "home"  # the home page's folder (url "/")
SHARED = "shared"  # what several pages use; not a page

ERAS = ("foundations", "expansion", "efficiency", "beyond", "scale")


@dataclass(frozen=True)
class Paper:
    key: str  # i18n: paper.<key>.title / paper.<key>.probe
    era: str
    year: float  # position on the timeline
    arxiv: tuple[str, ...]  # arXiv ids ("" where the paper has none)
    page: str  # url_path of its page
    icon: str
    short: str  # label on the timeline (a name, the same in both languages)

    @property
    def module(self) -> str:
        """The page's folder under app/ (and Python package ``app.<module>``)."""
        return self.page.replace("-", "_")

    @property
    def script(self) -> str:
        """The page script relative to app/ (what ``st.page_link`` and AppTest's ``switch_page`` take)."""
        return f"{self.module}/page.py"

    @property
    def available(self) -> bool:
        return _exists(APP_DIR / self.script)


PAPERS: tuple[Paper, ...] = tuple(
    Paper(**{**row, "arxiv": tuple(row["arxiv"])}) for row in assets.data("timeline.json")
)


@dataclass(frozen=True)
class Tool:
    """A page that is not about one paper (the Compare page): in the navigation after the eras, never on the home
    timeline. Its title is ``tool.<key>.title``."""

    key: str
    page: str  # url_path
    icon: str

    @property
    def module(self) -> str:
        return self.page.replace("-", "_")

    @property
    def script(self) -> str:
        return f"{self.module}/page.py"

    @property
    def available(self) -> bool:
        return _exists(APP_DIR / self.script)


TOOLS: tuple[Tool, ...] = (
    Tool("compare", "compare", ":material/compare_arrows:"),
    Tool("features", "features", ":material/biotech:"),
    Tool("lessons", "lessons", ":material/school:"),
)


# The suggested order through the pages (home's "start here"): each builds on the ones before it — attention, a
# whole forward pass, the two ways to pre-train it, the encoder–decoder and long-context variants, the same block on
# images, then what changed the block (positions, experts, kernels, the LLaMA recipe, windows, MLA), a model without
# attention, and the scale-and-reasoning era. Keys of PAPERS; a paper without a page is skipped where it is listed.
START_HERE: tuple[str, ...] = (
    "transformer",
    "forward_pass",
    "gpt",
    "bert",
    "t5",
    "transformer_xl",
    "vit",
    "rope",
    "moe",
    "flash",
    "llama",
    "mistral",
    "mla",
    "mamba",
    "scaling",
    "alignment",
    "reasoning",
)


@functools.cache
def _exists(path: Path) -> bool:
    """Whether a page's script exists, looked up once per process: the shell lists the pages on every rerun of
    every reader, and the files do not change while the app runs."""
    return path.exists()


def available_papers() -> list[Paper]:
    return [p for p in PAPERS if p.available]


def available_tools() -> list[Tool]:
    return [p for p in TOOLS if p.available]


def start_here() -> list[Paper]:
    """The pages that exist, in the suggested order."""
    by_key = {p.key: p for p in PAPERS}
    return [by_key[k] for k in START_HERE if by_key[k].available]


def era_papers(era: str) -> list[Paper]:
    """The pages of ``era`` in the order the sidebar and home's cards list them: by their number in "start here",
    then (a paper off that path) by year. One order, so the sidebar and the numbered cards agree."""
    rank = {k: i for i, k in enumerate(START_HERE)}
    return sorted((p for p in available_papers() if p.era == era), key=lambda p: (rank.get(p.key, len(rank)), p.year))


def page_folders() -> list[Path]:
    """Every page folder of app/ (home included): the folders that hold a page.py."""
    return sorted(p.parent for p in APP_DIR.glob("*/page.py"))
