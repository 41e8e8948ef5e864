"""What can be checked of the Docker image and the two commands without a Docker engine."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def _readme_commands() -> list[str]:
    return re.findall(r"```(?:bash|sh)\n(.+?)\n```", (ROOT / "README.md").read_text(), flags=re.S)[:2]


def test_dockerfile_copies_files_that_exist_and_starts_the_entry_point():
    for src in re.findall(r"^COPY (\S+) ", DOCKERFILE, flags=re.M):
        assert (ROOT / src).exists(), src
    entry = re.search(r"ENTRYPOINT \[(.*)\]", DOCKERFILE).group(1)
    assert '"deploy.serve"' in entry  # `streamlit run app/streamlit_app.py`, with TCP_NODELAY (deploy/serve.py)
    assert (ROOT / "deploy" / "serve.py").exists() and (ROOT / "app" / "streamlit_app.py").exists()
    assert "--server.address=0.0.0.0" in entry


def test_the_image_gets_the_app_and_its_assets():
    """The app serves files from assets/ (examples, the timeline): the image must copy that folder."""
    copied = re.findall(r"^COPY (\S+) ", DOCKERFILE, flags=re.M)
    assert "." in copied or "assets" in copied or "assets/" in copied, copied
    ignored = {line.strip().strip("/") for line in (ROOT / ".dockerignore").read_text().splitlines()}
    assert not ignored & {"assets", "app", "assets/*", "app/*"}, ignored
    assert (ROOT / "assets" / "timeline.json").exists()


def test_dockerfile_health_check_and_port():
    assert re.search(r"^HEALTHCHECK .*\n?.*/_stcore/health", DOCKERFILE, flags=re.M)
    port = re.search(r"^EXPOSE (\d+)", DOCKERFILE, flags=re.M).group(1)
    assert f"--server.port={port}" in DOCKERFILE


def test_dockerfile_brings_cuda_13_and_cudnn_9_by_default_and_a_cpu_build():
    assert re.search(r"^ARG BASE=nvidia/cuda:13\.\S*cudnn", DOCKERFILE, flags=re.M)
    assert re.search(r"^FROM \$\{BASE\}$", DOCKERFILE, flags=re.M)
    # the CPU image: another base and torch's CPU index, both build arguments the file documents and uses
    assert "--build-arg BASE=ubuntu:24.04" in DOCKERFILE and "--build-arg TORCH_INDEX=" in DOCKERFILE
    assert re.search(r"pip install torch==2\.13\.0 --index-url \"\$TORCH_INDEX\"", DOCKERFILE)
    assert re.search(r"R580|580\.", DOCKERFILE)  # the driver the CUDA 13 image needs


def test_torch_is_pinned():
    assert "torch==2.13.0" in (ROOT / "requirements.txt").read_text().splitlines()


def test_ci_runs_exactly_the_readme_test_command():
    setup, test = _readme_commands()
    assert setup.endswith("-m deploy.serve")  # starts the app (deploy/serve.py runs `streamlit run`)
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1] == test.strip()


def test_streamlit_config_turns_off_post_rerun_gc():
    assert re.search(r"^postScriptGC = false", (ROOT / ".streamlit" / "config.toml").read_text(), flags=re.M)


def _numbers(value) -> set[float]:
    if isinstance(value, dict):
        return set().union(*(_numbers(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_numbers(v) for v in value)) if value else set()
    return {float(value)} if isinstance(value, (int, float)) else set()


def test_readme_model_table_numbers_come_from_the_cards():
    """Every checkpoint has a row; its parameter count, wall time, metrics and bars are the card's, so the README
    cannot keep an old number after a retraining."""
    import json

    rows = dict(re.findall(r"^\| `([\w-]+)` \|(.*)$", (ROOT / "README.md").read_text(), flags=re.M))
    for card_path in sorted((ROOT / "models" / "checkpoints").glob("*/card.json")):
        card = json.loads(card_path.read_text())
        name = card_path.parent.name
        assert name in rows, f"README's model table has no row for {name}"
        cells = [c.strip() for c in rows[name].split("|")]  # page, what it learned, params; training, metrics
        assert f"{card['params']:,}" in cells[2] and f"{round(card['wall_time_s'])} s" in cells[2], (name, cells[2])
        known = _numbers(card)  # its metrics, bars and other recorded numbers (another seed's loss ...)
        stated = {float(x) for x in re.findall(r"-?\d+\.\d+|(?<=[≤≥] )-?\d+", cells[3])}
        assert stated, (name, cells[3])
        assert stated <= known, (name, sorted(stated - known))


def test_each_platform_gets_exactly_one_onnx_runtime():
    """``onnxruntime-gpu`` has no macOS or Linux-ARM wheel: the markers pick the CPU package there, the GPU one on
    Linux x86-64 and Windows x86-64 (it runs on the CPU as well), and never both."""
    from packaging.requirements import Requirement

    lines = [line for line in (ROOT / "requirements.txt").read_text().splitlines() if line.startswith("onnxruntime")]
    platforms = {
        ("linux", "x86_64"): "onnxruntime-gpu",
        ("win32", "AMD64"): "onnxruntime-gpu",
        ("darwin", "arm64"): "onnxruntime",
        ("linux", "aarch64"): "onnxruntime",
        ("win32", "ARM64"): "onnxruntime",
    }
    for (system, machine), expected in platforms.items():
        env = {"sys_platform": system, "platform_machine": machine}
        chosen = [Requirement(line) for line in lines if Requirement(line).marker.evaluate(env)]
        assert [r.name for r in chosen] == [expected], (system, machine)
        assert str(chosen[0].specifier) == "==1.31.1"
