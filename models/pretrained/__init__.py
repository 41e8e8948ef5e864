"""Real pretrained Hugging Face checkpoints converted into the zoo's classes: one module per architecture."""
