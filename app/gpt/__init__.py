"""The GPT page (GPT-1/2/3, 2005.14165): page script, its service, views and strings."""
