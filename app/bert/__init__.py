"""The BERT page (1810.04805): page script, its service, views and strings."""
