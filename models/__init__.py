"""Transformer Explorer's model zoo: one file per architecture, shared layers, probes, engine.

Nothing in this package imports Streamlit.
"""
