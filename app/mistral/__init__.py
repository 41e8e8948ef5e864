"""The Mistral page (2310.06825): page script, its service, views and strings."""
