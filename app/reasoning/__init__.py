"""The Reasoning page (chain of thought 2201.11903, GRPO 2402.03300, DeepSeek-R1 2501.12948): page script, its
service, views and strings."""
