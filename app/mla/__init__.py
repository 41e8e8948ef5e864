"""The DeepSeek-V3 page (2412.19437, with MLA from 2405.04434): page script, its service, views and strings."""
