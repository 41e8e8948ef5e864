"""The Mamba page (2312.00752): page script, its service, views and strings."""
