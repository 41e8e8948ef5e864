"""Transformer Explorer's Streamlit front end. It imports models/ only through app/services."""
