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
    entry = re.search(r'ENTRYPOINT \[(.*)\]', DOCKERFILE).group(1)
    assert '"app/streamlit_app.py"' in entry and (ROOT / "app" / "streamlit_app.py").exists()
    assert "--server.address=0.0.0.0" in entry


def test_dockerfile_health_check_and_port():
    assert re.search(r"^HEALTHCHECK .*\n?.*/_stcore/health", DOCKERFILE, flags=re.M)
    port = re.search(r"^EXPOSE (\d+)", DOCKERFILE, flags=re.M).group(1)
    assert f"--server.port={port}" in DOCKERFILE


def test_dockerfile_brings_cuda_13_and_cudnn_9():
    assert re.search(r"^FROM nvidia/cuda:13\.\S*cudnn", DOCKERFILE, flags=re.M)


def test_torch_is_pinned():
    assert "torch==2.13.0" in (ROOT / "requirements.txt").read_text().splitlines()


def test_ci_runs_exactly_the_readme_test_command():
    setup, test = _readme_commands()
    assert "streamlit run app/streamlit_app.py" in setup
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1] == test.strip()


def test_streamlit_config_turns_off_post_rerun_gc():
    assert re.search(r"^postScriptGC = false", (ROOT / ".streamlit" / "config.toml").read_text(), flags=re.M)
