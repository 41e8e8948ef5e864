"""The RoPE page (2104.09864): page script, its service, views and strings."""
