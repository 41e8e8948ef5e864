"""The T5 page (1910.10683): page script, its service, views and strings."""
