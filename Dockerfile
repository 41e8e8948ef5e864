# GPU image (the default): CUDA 13 + cuDNN 9 runtime libraries, which onnxruntime-gpu 1.31's CUDA provider loads,
# and the PyPI torch build, which bundles its own CUDA. The host needs an NVIDIA driver of the R580 branch or newer
# (CUDA 13.0 asks for >= 580.65.06 on Linux) and the NVIDIA Container Toolkit for --gpus. Without a GPU the same
# image runs on the CPU.
#   docker build -t transformer-explorer .
#   docker run --gpus all -p 8501:8501 transformer-explorer
# CPU image, without the CUDA base image and with torch's CPU build (no nvidia-* wheels):
#   docker build --build-arg BASE=ubuntu:24.04 --build-arg TORCH_INDEX=https://download.pytorch.org/whl/cpu \
#       -t transformer-explorer:cpu .
#   docker run -p 8501:8501 transformer-explorer:cpu
ARG BASE=nvidia/cuda:13.0.1-cudnn-runtime-ubuntu24.04
FROM ${BASE}
# Where torch comes from: empty for PyPI (CUDA build on Linux); the CPU index for the CPU image.
ARG TORCH_INDEX=""

ENV DEBIAN_FRONTEND=noninteractive PIP_NO_CACHE_DIR=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-venv python3-pip curl ca-certificates \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt .
RUN python3 -m venv /venv \
    && if [ -n "$TORCH_INDEX" ]; then /venv/bin/pip install torch==2.13.0 --index-url "$TORCH_INDEX"; fi \
    && /venv/bin/pip install -r requirements.txt

COPY . .
# The corpus is fetched at build time: the running app never reaches the network.
RUN /venv/bin/python -m models.data.shakespeare && /venv/bin/python -m models.data.pretrained
# The kept charts' plotly.js and script, served from app/static/ (the app copies them there on first use otherwise)
RUN /venv/bin/python -c "from app.shared import kept_chart; kept_chart.publish()"

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD curl --fail http://localhost:8501/_stcore/health || exit 1
# deploy.serve is `streamlit run app/streamlit_app.py` with Nagle's algorithm off on every connection (see its docstring).
ENTRYPOINT ["/venv/bin/python", "-m", "deploy.serve", "--server.port=8501", "--server.address=0.0.0.0"]
