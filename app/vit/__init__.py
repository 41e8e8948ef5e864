"""The ViT page (2010.11929): page script, its service, views and strings."""
