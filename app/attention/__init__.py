"""The Attention page (1706.03762): page script, its service, views and strings."""
