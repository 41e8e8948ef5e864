"""Data: corpora and synthetic tasks, deterministic given a seed. Nothing here reaches the network at run time."""
