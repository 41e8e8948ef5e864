"""The FlashAttention page (2205.14135): page script, its service, views and strings."""
