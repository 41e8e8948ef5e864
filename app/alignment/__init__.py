"""The Alignment page (InstructGPT 2203.02155, DPO 2305.18290): page script, its service, views and strings."""
