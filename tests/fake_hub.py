"""A Hugging Face Hub on loopback, for download tests without the internet (models/pretrained/hub.py).

``FakeHub`` is a threaded HTTP server on 127.0.0.1 (a free port the OS picks) answering the requests huggingface_hub
2.x makes (read from its source, file_download.py and hf_api.py):

- ``GET /api/models/<repo>`` (``?blobs=true``): the listing ``HfApi.model_info`` parses: ``sha``, ``gated``,
  ``cardData.license``, ``siblings`` (``rfilename``, ``size``), ``safetensors.parameters``;
- ``HEAD`` and ``GET /<repo>/resolve/<revision>/<file>``: ``X-Repo-Commit``, ``ETag`` (a quoted sha256),
  ``Content-Length`` and, for a ``Range: bytes=N-`` request (a resumed download), ``206`` with ``Content-Range``;
- failures: an unknown repository is ``404`` with ``X-Error-Code: RepoNotFound``; a gated one lists but refuses its
  files with ``401`` and ``X-Error-Code: GatedRepo`` (what ``hf_raise_for_status`` turns into ``GatedRepoError``); a
  file marked ``cut`` sends half its bytes then closes the connection, and closes every resumed request unanswered.

huggingface_hub reads ``HF_ENDPOINT`` once, at import (``constants.ENDPOINT``); models/pretrained/hub.py reads it at
each call and passes it on, so the ``fake_hub`` fixture only sets the environment (and points ``HF_HUB_CACHE``,
``HF_HOME`` and ``TE_PRETRAINED`` at the test's own folders). ``hub.requests`` records every request, to assert
that none was made.

``tiny_llama()`` and ``save_repo()`` make the checkpoints it serves with ``transformers`` (tests/real_models.py's
``randomise``), a tokenizer and a pickled ``pytorch_model.bin`` that must never be fetched.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest


@dataclass
class Repo:
    files: dict[str, bytes]
    license: str = "apache-2.0"
    gated: bool = False
    cut: tuple[str, ...] = ()  # files whose download is cut half-way
    params: int | None = None
    sha: str = ""

    def etag(self, name: str) -> str:
        return hashlib.sha256(self.files[name]).hexdigest()


@dataclass
class FakeHub:
    repos: dict[str, Repo] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None
    thread: threading.Thread | None = None

    def add(self, repo: str, folder: Path | None = None, files: dict[str, bytes] | None = None, **kw) -> Repo:
        """Serve ``repo``: the files of ``folder`` (top level) and ``files``."""
        content = {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir()) if p.is_file()} if folder else {}
        content.update(files or {})
        sha = hashlib.sha1(repo.encode()).hexdigest()  # a 40-hex commit id, as the Hub's
        self.repos[repo] = Repo(content, sha=sha, **kw)
        return self.repos[repo]

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeHub:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_HEAD(self):
                hub._answer(self, body=False)

            def do_GET(self):
                hub._answer(self, body=True)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), name="fake-hub", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.thread.join()

    # ---- answers ----

    def _answer(self, h: BaseHTTPRequestHandler, body: bool) -> None:
        path = unquote(urlsplit(h.path).path)
        self.requests.append((h.command, path))
        parts = path.strip("/").split("/")
        if parts[:2] == ["api", "models"]:
            repo = "/".join(parts[2:4])
            return self._listing(h, repo) if repo in self.repos else self._error(h, 404, "RepoNotFound", body)
        if len(parts) >= 5 and parts[2] == "resolve":
            repo, name = "/".join(parts[:2]), "/".join(parts[4:])
            found = self.repos.get(repo)
            if found is None:
                return self._error(h, 404, "RepoNotFound", body)
            if found.gated:
                return self._error(h, 401, "GatedRepo", body, "Access to this model is restricted.")
            if name not in found.files:
                return self._error(h, 404, "EntryNotFound", body, commit=found.sha)
            return self._file(h, found, name, body)
        return self._error(h, 404, "RepoNotFound", body)

    def _send(self, h, status: int, headers: dict[str, str], data: bytes, body: bool) -> None:
        h.send_response(status)
        for k, v in headers.items():
            h.send_header(k, v)
        h.end_headers()
        if body:
            h.wfile.write(data)

    def _error(self, h, status, code, body, message="", commit=None):
        data = json.dumps({"error": message or code}).encode()
        headers = {"Content-Type": "application/json", "Content-Length": str(len(data)), "X-Error-Code": code}
        if message:
            headers["X-Error-Message"] = message
        if commit:
            headers["X-Repo-Commit"] = commit
        self._send(h, status, headers, data, body)

    def _listing(self, h, repo: str) -> None:
        found = self.repos[repo]
        info = {
            "id": repo,
            "sha": found.sha,
            "gated": "manual" if found.gated else False,
            "private": False,
            "tags": [f"license:{found.license}"] if found.license else [],
            "cardData": {"license": found.license} if found.license else {},
            "siblings": [{"rfilename": n, "size": len(d)} for n, d in found.files.items()],
        }
        if found.params is not None:
            info["safetensors"] = {"parameters": {"F32": found.params}, "total": found.params}
        data = json.dumps(info).encode()
        self._send(h, 200, {"Content-Type": "application/json", "Content-Length": str(len(data))}, data, True)

    def _file(self, h, found: Repo, name: str, body: bool) -> None:
        data = found.files[name]
        headers = {"X-Repo-Commit": found.sha, "ETag": f'"{found.etag(name)}"', "Accept-Ranges": "bytes"}
        wanted = h.headers.get("Range")
        if body and name in found.cut:
            if wanted:  # a resumed request: closed unanswered, every time
                h.close_connection = True
                return
            self._send(h, 200, {**headers, "Content-Length": str(len(data))}, b"", False)
            h.wfile.write(data[: len(data) // 2])
            h.wfile.flush()
            h.close_connection = True
            return
        status, start = 200, 0
        if wanted and wanted.startswith("bytes="):
            start = int(wanted.removeprefix("bytes=").split("-")[0])
            status = 206
            headers["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
        part = data[start:]
        self._send(h, status, {**headers, "Content-Length": str(len(part))}, part, body)


# ---- what it serves ---------------------------------------------------------------------------------------------


def tiny_llama(**overrides):
    """A random ``LlamaForCausalLM`` of odd sizes (tests/real_models.py's), every weight nudged."""
    from tests.real_models import tiny_hf_llama

    return tiny_hf_llama("llama", vocab_size=97, **overrides)


def word_tokenizer(vocab: int):
    """A word-level tokenizer of ``vocab`` ids over tests/real_models.py's words (pages read text through it)."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    from tests.real_models import WORDS

    words = ["<|endoftext|>", "<unk>", *dict.fromkeys(WORDS)][:vocab]
    words += [f"w{i}" for i in range(vocab - len(words))]
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return tok


def save_repo(model, folder: Path, *, tokenizer=None, pickle: bool = True) -> Path:
    """``model`` as a Hub repository holds it (``save_pretrained``: config.json, model.safetensors,
    generation_config.json), a tokenizer.json, and a pickled copy (``pytorch_model.bin``) no download may fetch."""
    folder = Path(folder)
    model.save_pretrained(folder)
    if tokenizer is not None:
        tokenizer.save(str(folder / "tokenizer.json"))
    if pickle:
        (folder / "pytorch_model.bin").write_bytes(b"PICKLE: never fetched")
    return folder


@pytest.fixture(name="fake_hub")
def fake_hub_fixture(tmp_path, monkeypatch):
    """A started ``FakeHub`` that huggingface_hub (through models/pretrained/hub.py) talks to, with an empty cache
    and conversion folder of the test's own; stopped after the test, and every checkpoint registered meanwhile
    forgotten."""
    from huggingface_hub import constants

    from models import pretrained

    hub = FakeHub().start()
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf-cache"))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.setenv("HF_TOKEN", "")
    monkeypatch.setenv("TE_PRETRAINED", str(tmp_path / "converted"))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.delenv("TE_OFFLINE", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)  # read at import: a shell's setting would stick
    known = dict(pretrained.KNOWN)
    try:
        yield hub
    finally:
        hub.stop()
        pretrained.LICENCES.clear()
        for key in [k for k in dict(pretrained.KNOWN) if k not in known]:
            pretrained.unregister(key)
