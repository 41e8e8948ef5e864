"""Chart builders: pure functions from numpy arrays to Plotly figures or escaped HTML, testable without Streamlit.

Labels come in as arguments (already translated by the page); nothing here reads the session.
"""
