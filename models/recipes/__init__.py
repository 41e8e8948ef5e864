"""How each checkpoint is trained and evaluated: one module per architecture family, each with a ``RECIPES`` list.

A recipe module holds what the architecture file must not: data pipelines, curricula, losses, training stages,
evaluation and the quality bars of the model's issue. ``models.zoo.recipes()`` finds them all.
"""
