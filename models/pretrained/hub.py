"""Real checkpoints fetched from the Hugging Face Hub at a learner's request, and any compatible one by its id.

- ``allowed()``: a download may reach the network unless the host says not to: ``TE_OFFLINE=1`` (a hosted site, whose
  models are fetched ahead with ``python -m models.pretrained.hub fetch REPO``) or ``HF_HUB_OFFLINE=1``.
- ``describe(repo)``: what a download would fetch, before it does: the files (config.json, ``*.safetensors``, the
  tokenizer's and preprocessor's JSON, generation_config.json; never pickled weights), their total size, the licence
  the model card states and whether the repository is gated.
- ``download(repo, progress)``: those files into the Hugging Face cache that ``models.pretrained`` reads
  (``models.data.pretrained.hf_cache()``), reporting (fraction, bytes). Free disk space is checked first. On any
  failure one ``HubError`` with a ``reason`` code is raised and what the call wrote for that repository is removed:
  the snapshot becomes findable (``refs/main`` written) only once every file is whole.
- ``resolve(repo_or_folder)``: a repository id (fetched as above where the cache lacks it) or a local folder with
  config.json and model.safetensors, registered (``models.pretrained.register``) under a key of its own when a
  conversion of ours accepts its ``architectures`` and the machine's memory can hold it; refused with the reason
  otherwise. The key (``hf--owner--name``) is all a link needs to carry.

huggingface_hub (2.x, over httpx2) does the HTTP: ``GET /api/models/<repo>?blobs=true`` for the listing, then per
file ``HEAD`` and ``GET /<repo>/resolve/<commit>/<file>`` (resumed with ``Range`` after a cut). It reads
``HF_ENDPOINT`` and ``HF_HUB_OFFLINE`` once, at import; this module reads both at each call and passes the endpoint
explicitly, so a test (or a host) may set them at any time.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import struct
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from models import pretrained

Progress = Callable[[float, int], None]  # (fraction done, bytes done)

NAMES = (
    "config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "preprocessor_config.json",
    "generation_config.json",
)
REASONS = (
    "offline",  # the host forbids downloads (TE_OFFLINE / HF_HUB_OFFLINE)
    "invalid",  # not a repository id, nor a folder
    "network",  # the Hub could not be reached
    "not_found",  # no such repository (or file)
    "gated",  # gated or private: the Hub refused (401/403)
    "no_weights",  # no model.safetensors (pickled weights are never read)
    "sharded",  # weights in several safetensors files: our loader reads one
    "disk",  # not enough free disk space
    "interrupted",  # the connection was cut, or the download stopped half-way
    "architecture",  # config.json names no architecture we convert
    "option",  # an architecture we convert, with an option our class lacks
    "memory",  # more than this machine's free memory
)
FLOAT32 = 4  # bytes a parameter: conversions write float32, and pages load it
DISK_SLACK = 64 * 2**20  # kept free beyond the files themselves


class HubError(Exception):
    """A refused or failed download or registration: ``reason`` (one of ``REASONS``), the ``repo`` (or folder), a
    ``detail`` in English and the ``fields`` a translated message needs (``need``/``have`` bytes for disk and
    memory, ``found``/``ours`` architectures, the conversion's ``option`` message)."""

    def __init__(self, reason: str, repo: str, detail: str = "", **fields):
        assert reason in REASONS, reason
        super().__init__(f"{repo}: {reason}" + (f": {detail}" if detail else ""))
        self.reason, self.repo, self.detail, self.fields = reason, repo, detail, fields


@dataclass(frozen=True)
class Plan:
    """What ``download`` would fetch from ``repo`` at the commit ``revision``."""

    repo: str
    revision: str
    files: tuple[tuple[str, int], ...]  # (name, bytes), config.json first, weights last
    license: str  # as the model card states it; "" where it does not
    gated: bool
    params: int | None = None  # the Hub's count from the safetensors headers, where it gives one

    @property
    def total(self) -> int:
        return sum(size for _, size in self.files)

    @property
    def weights(self) -> list[str]:
        return [name for name, _ in self.files if name.endswith(".safetensors")]


def allowed() -> bool:
    """Whether downloads may reach the network: not where ``TE_OFFLINE`` or ``HF_HUB_OFFLINE`` is set (1/true)."""
    from models.data import pretrained as fetched

    return fetched.downloads_allowed()


def endpoint() -> str | None:
    """``$HF_ENDPOINT`` as it is now (None: huggingface_hub's default, the Hub itself)."""
    from models.data import pretrained as fetched

    return fetched.hf_endpoint()


def cache_dir() -> Path:
    """The Hugging Face cache ``models.pretrained`` reads."""
    from huggingface_hub import constants

    from models.data import pretrained as fetched

    return Path(fetched.hf_cache() or constants.HF_HUB_CACHE)


def free_bytes(path: Path) -> int:
    """Free disk space where ``path`` is (tests replace it)."""
    return shutil.disk_usage(path).free


def memory_available() -> int:
    """Memory this machine can still give a model, in bytes (tests replace it)."""
    import psutil

    return int(psutil.virtual_memory().available)


def wanted(name: str) -> bool:
    """A file a download fetches: top-level config and tokenizer JSON, and safetensors weights."""
    return "/" not in name and (name in NAMES or name.endswith(".safetensors"))


def _order(entry: tuple[str, int]) -> tuple[int, str]:
    name = entry[0]
    return (NAMES.index(name) if name in NAMES else len(NAMES), name)


def _check(repo: str, force: bool) -> None:
    if not force and not allowed():
        raise HubError("offline", repo, "downloads are off on this host (TE_OFFLINE / HF_HUB_OFFLINE)")
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    try:
        validate_repo_id(repo)
    except HFValidationError as exc:
        raise HubError("invalid", repo, str(exc).splitlines()[0]) from None


def _typed(exc: BaseException, repo: str) -> HubError:
    """One ``HubError`` for whatever huggingface_hub, httpx2 or the disk raised."""
    import httpx2
    from huggingface_hub import errors

    if isinstance(exc, HubError):
        return exc
    chain, seen = [], exc
    while seen is not None and len(chain) < 8:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    for e in chain:
        if isinstance(e, errors.GatedRepoError):
            return HubError("gated", repo, "a gated repository: accept its terms on the Hub and log in")
        if isinstance(e, (errors.RepositoryNotFoundError, errors.RevisionNotFoundError)):
            return HubError("not_found", repo, "no such repository (or a private one)")
        if isinstance(e, errors.RemoteEntryNotFoundError):
            return HubError("not_found", repo, "a file the listing names is not there")
        if isinstance(e, errors.HfHubHTTPError) and e.response is not None and e.response.status_code in (401, 403):
            return HubError("gated", repo, f"the Hub refused access ({e.response.status_code})")
        if isinstance(e, errors.OfflineModeIsEnabled):
            return HubError("offline", repo, "huggingface_hub is in offline mode")
        if isinstance(e, OSError) and e.errno == errno.ENOSPC:
            return HubError("disk", repo, "the disk filled up")
        if isinstance(e, (httpx2.RemoteProtocolError, httpx2.ReadError, httpx2.ReadTimeout)):
            return HubError("interrupted", repo, "the connection was cut during the download")
        if isinstance(e, OSError) and "Consistency check failed" in str(e):
            return HubError("interrupted", repo, "a file arrived incomplete")
        if isinstance(e, (httpx2.ConnectError, httpx2.TimeoutException, httpx2.NetworkError)):
            return HubError("network", repo, "the Hub could not be reached")
    if isinstance(exc, errors.LocalEntryNotFoundError):
        return HubError("network", repo, "the Hub could not be reached")
    if isinstance(exc, errors.HfHubHTTPError):
        return HubError("network", repo, str(exc).splitlines()[0])
    return HubError("interrupted", repo, f"{type(exc).__name__}: {exc}")


def describe(repo: str, *, force: bool = False) -> Plan:
    """The files a download of ``repo`` fetches (at the commit the Hub names now), their sizes, its licence and
    whether it is gated: one request (the model's listing). ``force`` ignores ``TE_OFFLINE`` (the fetch command)."""
    _check(repo, force)
    from huggingface_hub import HfApi

    try:
        info = HfApi(endpoint=endpoint()).model_info(repo, files_metadata=True)
    except Exception as exc:
        raise _typed(exc, repo) from exc
    files = []
    for sibling in info.siblings or ():
        if wanted(sibling.rfilename):
            size = sibling.size if sibling.size is not None else (sibling.lfs.size if sibling.lfs else 0)
            files.append((sibling.rfilename, int(size or 0)))
    card = info.card_data
    licence = getattr(card, "license", None) if card is not None else None
    if not licence:
        licence = next((t.removeprefix("license:") for t in info.tags or () if t.startswith("license:")), "")
    if isinstance(licence, list):
        licence = ", ".join(licence)
    params = None
    if info.safetensors is not None:
        params = int(sum(info.safetensors.parameters.values()))
    files.sort(key=_order)
    return Plan(repo, info.sha or "main", tuple(files), str(licence or ""), bool(info.gated), params)


def _storage(repo: str) -> Path:
    return cache_dir() / ("models--" + repo.replace("/", "--"))


def _listing(path: Path) -> set[str] | None:
    """Every path under ``path`` (links not followed), or None where it does not exist."""
    if not os.path.lexists(path):
        return None
    found = set()
    for top, dirs, files in os.walk(path):
        found.update(os.path.join(top, n) for n in dirs + files)
    return found


def _remove_new(path: Path, before: set[str] | None) -> None:
    """Remove what was created under ``path`` since ``before`` (``_listing``): all of it where it did not exist."""
    if before is None:
        shutil.rmtree(path, ignore_errors=True)
        return
    now = _listing(path) or set()
    for p in sorted(now - before, key=len, reverse=True):  # deepest first
        try:
            if os.path.isdir(p) and not os.path.islink(p):
                os.rmdir(p)
            else:
                os.unlink(p)
        except OSError:
            shutil.rmtree(p, ignore_errors=True)


def _bar(report: Progress, start: int, total: int):
    """A progress-bar class for ``hf_hub_download`` (its ``tqdm_class``) that reports the whole download's
    (fraction, bytes). huggingface_hub uses it as a plain callable and context manager (``update``) over HTTP, and
    through ``XetDownloadProgressReporter`` for files in Xet storage, as the Hub now keeps most: there
    ``update_transfer`` makes it one bar (network bytes, which dedup and compression make unlike the file's, are not
    counted), and it sets ``total`` and postfixes."""

    class Bar:
        def __init__(self, *args, total: int | None = None, **kwargs):
            self.n, self.total = 0, total

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def update(self, n: int = 1):
            self.n += n
            done = start + self.n
            report(min(done / total, 1.0) if total else 0.0, done)

        def update_transfer(self, n: int = 1):
            pass

        def set_postfix_str(self, s: str = "", refresh: bool = True):
            pass

        def set_transfer_postfix_str(self, s: str = "", refresh: bool = True):
            pass

        def refresh(self):
            pass

        def close(self):
            pass

    return Bar


def download(repo: str, progress: Progress | None = None, *, plan: Plan | None = None, force: bool = False) -> Path:
    """Fetch ``plan`` (``describe(repo)`` unless given) into the Hugging Face cache; returns the snapshot folder.
    The snapshot is findable (``models.pretrained.hf_snapshot``) only once every file is whole; on any failure,
    including a ``progress`` callback that raises, what this call created for ``repo`` is removed and a
    ``HubError`` is raised (a ``BaseException`` such as a page's rerun is cleaned up and passed on)."""
    plan = plan or describe(repo, force=force)
    _check(repo, force)
    if not plan.weights:
        raise HubError("no_weights", repo, "no safetensors weights (pickled ones are never read)")
    report = progress or (lambda fraction, done: None)
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    need = plan.total + DISK_SLACK
    free = free_bytes(cache)
    if free < need:
        raise HubError("disk", repo, f"needs {need / 1e9:.2f} GB free, {free / 1e9:.2f} GB are", need=need, have=free)
    from huggingface_hub import hf_hub_download

    storage, locks = _storage(repo), cache / ".locks" / _storage(repo).name
    before = _listing(storage), _listing(locks)
    done = 0
    try:
        report(0.0, 0)
        for name, size in plan.files:
            hf_hub_download(
                repo,
                name,
                revision=plan.revision,
                cache_dir=str(cache),
                endpoint=endpoint(),
                tqdm_class=_bar(report, done, plan.total),
            )
            done += size
            report(min(done / plan.total, 1.0) if plan.total else 1.0, done)
        snapshot = storage / "snapshots" / plan.revision
        if not all((snapshot / name).exists() for name, _ in plan.files):
            raise HubError("interrupted", repo, "a file is missing after the download")
        refs = storage / "refs"
        refs.mkdir(parents=True, exist_ok=True)
        tmp = refs / f".main.{os.getpid()}.tmp"
        tmp.write_text(plan.revision)
        os.replace(tmp, refs / "main")  # now findable
    except Exception as exc:
        _remove_new(storage, before[0])
        _remove_new(locks, before[1])
        raise _typed(exc, repo) from exc
    except BaseException:
        _remove_new(storage, before[0])
        _remove_new(locks, before[1])
        raise
    return snapshot


def _remote_config(repo: str, plan: Plan) -> dict:
    """``repo``'s config.json, read through a throw-away cache (nothing of the repository is left in the real one
    when it is then refused)."""
    from huggingface_hub import hf_hub_download

    with tempfile.TemporaryDirectory(prefix="te-hub-") as tmp:
        try:
            path = hf_hub_download(repo, "config.json", revision=plan.revision, cache_dir=tmp, endpoint=endpoint())
            return json.loads(Path(path).read_text())
        except ValueError as exc:
            raise HubError("invalid", repo, f"config.json is not JSON: {exc}") from exc
        except Exception as exc:
            raise _typed(exc, repo) from exc


def _module_for(hf_config: dict, repo: str):
    architectures = list(hf_config.get("architectures") or [])
    module = pretrained.accepting(architectures)
    if module is None:
        ours = sorted(a for m in pretrained.conversions().values() for a in m.HF_ARCHITECTURES)
        named = ", ".join(architectures) or f"none (model_type {hf_config.get('model_type', '?')!r})"
        raise HubError(
            "architecture",
            repo,
            f"architecture {named}; ours convert {', '.join(ours)}",
            found=named,
            ours=", ".join(ours),
        )
    return module


def _check_config(module, hf_config: dict, repo: str) -> None:
    """The options a conversion can judge from config.json alone (``config_from_hf``, where it has one)."""
    judge = getattr(module, "config_from_hf", None)
    if judge is None:
        return
    try:
        judge(hf_config)
    except (ValueError, KeyError) as exc:
        raise HubError("option", repo, f"{module.ARCH}: {exc}", option=str(exc)) from exc


_DTYPES = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1}


def header(path: Path) -> dict:
    """A safetensors file's header (name -> dtype, shape, offsets), read without its tensors."""
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        return json.loads(f.read(n))


def _check_options(module, hf_config: dict, weights: Path, repo: str) -> int:
    """Run the conversion on tensors that hold no numbers (the meta device, shapes from the file's header): an
    option or a tensor our class lacks is refused before anything is loaded. Returns the parameter count."""
    import torch

    dtypes = {"F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}
    head = {name: v for name, v in header(weights).items() if name != "__metadata__"}
    params = sum(_numel(v["shape"]) for v in head.values())
    tensors = {
        name: torch.empty(v["shape"], dtype=dtypes.get(v["dtype"], torch.float32), device="meta")
        for name, v in head.items()
    }
    try:
        module.from_hf(hf_config, tensors)
    except ValueError as exc:
        raise HubError("option", repo, f"{module.ARCH}: {exc}", option=str(exc)) from exc
    except KeyError as exc:
        raise HubError(
            "option", repo, f"{module.ARCH}: no tensor {exc} in the file", option=f"no tensor {exc}"
        ) from exc
    except Exception:  # an operation the meta device cannot do: the conversion judges it when it runs
        pass
    return params


def _numel(shape) -> int:
    n = 1
    for s in shape:
        n *= int(s)
    return n


def needed_memory(params: int, file_bytes: int) -> int:
    """Memory a conversion takes at its peak, with a quarter more for what else the process holds meanwhile: the
    file's tensors, and the float32 copies it writes (4 bytes a parameter). A page's load afterwards takes the
    float32 copy alone, less."""
    return int(1.25 * (file_bytes + FLOAT32 * params))


def _check_memory(repo: str, params: int, file_bytes: int) -> None:
    need, have = needed_memory(params, file_bytes), memory_available()
    if need > have:
        raise HubError(
            "memory",
            repo,
            f"{params / 1e6:.0f}M parameters need about {need / 1e9:.1f} GB of memory; {have / 1e9:.1f} GB are free",
            need=need,
            have=have,
        )


def _reads(arch: str) -> str:
    return "image" if arch == "vit" else "text"


def check(repo: str, *, force: bool = False) -> tuple[Plan, str]:
    """Whether ``repo`` can be served, judged before its weights are fetched: one model.safetensors, an
    architecture we convert with no option our class lacks (config.json, read through a throw-away cache), a size
    this machine's memory holds. Returns (the plan, our architecture); raises ``HubError`` otherwise."""
    plan = describe(repo, force=force)
    if pretrained.WEIGHTS not in plan.weights:
        if plan.weights:
            detail = f"weights in {len(plan.weights)} files; ours read one model.safetensors"
            raise HubError("sharded", repo, detail)
        raise HubError("no_weights", repo, "no model.safetensors (pickled weights are never read)")
    hf_config = _remote_config(repo, plan)
    module = _module_for(hf_config, repo)
    _check_config(module, hf_config, repo)
    weight_bytes = sum(size for name, size in plan.files if name.endswith(".safetensors"))
    _check_memory(repo, plan.params or weight_bytes // 2, weight_bytes)  # 16-bit weights unless the Hub says
    return plan, module.ARCH


def resolve(repo_or_folder: str, progress: Progress | None = None, *, fetch: bool = True, force: bool = False) -> str:
    """The key under which ``repo_or_folder`` is served: a table key for a repository of the table, else one
    registered now (``models.pretrained.register``). A repository the cache lacks is fetched (``fetch``) after its
    architecture, options and size are checked, so a refusal costs one small download and leaves nothing behind.
    Raises ``HubError`` (architecture, option, memory, sharded, no_weights, or a download's reason)."""
    text = repo_or_folder.strip()
    path = Path(text).expanduser()
    if text.startswith(("/", "./", "../", "~")) or (os.sep in text and path.is_dir()):
        return _resolve_folder(path, text)
    _check(text, force=True)  # a well-formed id (the offline check comes with a download)
    repo = text
    table = next((k for k in pretrained.TABLE if repo in k.repos), None)
    plan = None
    snapshot = pretrained.hf_snapshot(repo)
    if snapshot is None:
        if not fetch:
            raise HubError("not_found", repo, "not in this machine's Hugging Face cache")
        plan, _ = check(repo, force=force)
        snapshot = download(repo, progress, plan=plan, force=force)
    hf_config = json.loads((snapshot / "config.json").read_text())
    module = _module_for(hf_config, repo)
    _check_config(module, hf_config, repo)
    weights = snapshot / pretrained.WEIGHTS
    params = _check_options(module, hf_config, weights, repo)
    _check_memory(repo, params, weights.stat().st_size)
    if table is not None:
        return table.key
    key = pretrained.repo_key(repo)
    pretrained.register(
        pretrained.Known(
            key, module.ARCH, (repo,), repo, "", reads=_reads(module.ARCH), license=plan.license if plan else ""
        )
    )
    return key


def _resolve_folder(path: Path, text: str) -> str:
    if not path.is_dir():
        raise HubError("invalid", text, "no such folder")
    if not (path / "config.json").exists():
        raise HubError("invalid", text, "no config.json in the folder")
    if not (path / pretrained.WEIGHTS).exists():
        raise HubError("no_weights", text, "no model.safetensors in the folder")
    try:
        hf_config = json.loads((path / "config.json").read_text())
    except ValueError as exc:
        raise HubError("invalid", text, f"config.json is not JSON: {exc}") from exc
    module = _module_for(hf_config, text)
    _check_config(module, hf_config, text)
    weights = path / pretrained.WEIGHTS
    params = _check_options(module, hf_config, weights, text)
    _check_memory(text, params, weights.stat().st_size)
    key = pretrained.folder_key(path)
    known = pretrained.Known(
        key, module.ARCH, (), path.resolve().name, "", reads=_reads(module.ARCH), path=str(path.resolve())
    )
    pretrained.register(known)
    return key


def main(argv: list[str] | None = None) -> int:
    """``python -m models.pretrained.hub fetch REPO``: fetch ahead (a host with TE_OFFLINE=1 runs this where it has
    a network), then convert, so the page serves it at once."""
    import argparse

    from tqdm import tqdm

    parser = argparse.ArgumentParser(prog="python -m models.pretrained.hub")
    sub = parser.add_subparsers(dest="command", required=True)
    fetch = sub.add_parser("fetch", help="download a repository's safetensors and config files, then convert them")
    fetch.add_argument("repo")
    fetch.add_argument("--no-convert", action="store_true", help="only download")
    args = parser.parse_args(argv)
    try:
        plan = describe(args.repo, force=True)
        print(f"{plan.repo} @ {plan.revision}: {plan.total / 1e6:.1f} MB, licence {plan.license or '?'}")
        for name, size in plan.files:
            print(f"  {name}  {size / 1e6:.1f} MB")
        with tqdm(total=plan.total, unit="B", unit_scale=True, desc="downloading") as bar:
            key = resolve(args.repo, lambda fraction, done: bar.update(done - bar.n), force=True)
        if not args.no_convert:
            pretrained.prepare(key)
    except HubError as exc:
        print(f"refused ({exc.reason}): {exc}", file=sys.stderr)
        return 1
    print(key)
    return 0


if __name__ == "__main__":
    sys.exit(main())
