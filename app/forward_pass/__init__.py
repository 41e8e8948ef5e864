"""Inside one forward pass of the trained GPT, stage by stage."""
