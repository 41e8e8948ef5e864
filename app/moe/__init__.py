"""The MoE routing page (2101.03961, 2401.04088, 2401.06066): page script, its service, views and strings."""
