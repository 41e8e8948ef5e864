"""Serving the app to many readers: deploy/launch.py (processes behind nginx), deploy/k8s/ (Kubernetes)."""
