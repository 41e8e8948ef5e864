# GPU-ready image: CUDA 13 + cuDNN 9 runtime libraries, which onnxruntime-gpu 1.31's CUDA provider loads, and a
# PyPI torch build that bundles its own CUDA. On a host without a GPU the same image runs on the CPU.
#   docker build -t transformer-explorer .
#   docker run --gpus all -p 8501:8501 transformer-explorer
FROM nvidia/cuda:13.0.1-cudnn-runtime-ubuntu24.04

ENV DEBIAN_FRONTEND=noninteractive PIP_NO_CACHE_DIR=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-venv python3-pip curl ca-certificates \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt .
RUN python3 -m venv /venv && /venv/bin/pip install -r requirements.txt

COPY . .
# The corpus is fetched at build time: the running app never reaches the network.
RUN /venv/bin/python -m models.data.shakespeare

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD curl --fail http://localhost:8501/_stcore/health || exit 1
ENTRYPOINT ["/venv/bin/streamlit", "run", "app/streamlit_app.py", "--server.port=8501", "--server.address=0.0.0.0"]
