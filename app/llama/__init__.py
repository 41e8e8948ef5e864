"""The LLaMA-family page (2302.13971, 2307.09288, 2412.15115): page script, its service, views and strings."""
