"""Transformer Explorer's Streamlit front end: one folder per page (page.py, service.py, views.py, strings.py)
and app/shared/ for what several pages use. It imports models/ only through the pages' services."""
